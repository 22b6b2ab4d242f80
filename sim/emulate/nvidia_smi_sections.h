// `nvidia-smi -q -d NAME[,NAME...]`: which of -q's per-GPU sections each display
// name selects, the sections of a recorded `-q` (kept verbatim), and the ones
// built from the model where nothing was recorded. Source: the -h text of driver
// 590.48.01 (shared/real-captures, the -d names) and the -q of the same captures
// (the section titles, their order and layout, "GPU Memory Power Readings " with
// its trailing space).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/emulate/nvidia_smi_model.h"

namespace hwaccel::sim {

// The -q section titles `display` selects ("TEMPERATURE" -> {"Temperature"}), in
// -q's order; nullopt for a name nvidia-smi does not take.
std::optional<std::vector<std::string>> display_sections(const std::string& display);

// The sections the display names select, in the order -q prints them (names
// nvidia-smi does not take select nothing).
std::vector<std::string> displayed_titles(const std::vector<std::string>& display);

// Every per-GPU section of a recorded `nvidia-smi -q`, by the GPU's bus id as
// -q prints it ("00000000:83:00.0"), each its title (trailing spaces dropped)
// and its lines as recorded.
std::vector<std::pair<std::string, std::vector<NvQSection>>> recorded_q_sections(
    const std::string& q_output);

// A section built from what the model holds (recorded --query-gpu cells, the
// processes): "N/A" for every value it lacks; "" for a title it cannot build.
std::string built_q_section(const NvGpu& g, const std::string& title);

}  // namespace hwaccel::sim
