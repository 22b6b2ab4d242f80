// Which backends this build left out (-DHWACCEL_BACKEND_<NAME>=OFF, see
// cmake/Backends.cmake). A left-out backend keeps its line in every report,
// `unavailable  not-compiled`, so a user can tell "not built" from "not there".
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hwaccel {

// The backends that have a build option, in known_backend_names() order.
const std::vector<std::string>& backend_build_options();
// The backends this build was configured without.
const std::vector<std::string>& left_out_backends();
bool is_left_out(std::string_view backend);

// "cuda" -> "-DHWACCEL_BACKEND_CUDA=OFF"
std::string backend_option_flag(std::string_view backend);

}  // namespace hwaccel
