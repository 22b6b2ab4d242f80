// Named host specs: one per hand-written fixture host (fixtures/hosts/NAME.yaml),
// so `hwsim synth --preset dgx-h100` gives a host that detects as that fixture
// does (tests/unit/sim/presets_test.cpp proves it), and a few more.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hwaccel::sim {

std::vector<std::string> preset_names();
// The spec's YAML text (hwsim-spec/1); nullopt for an unknown name.
std::optional<std::string> preset_spec(std::string_view name);

}  // namespace hwaccel::sim
