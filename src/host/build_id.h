// The GNU build id of the running program: what tells one hwsim build's cached
// trees and layers (src/host/tree_cache.h, tree_layers.h) from another's.
#pragma once

#include <string>

namespace hwaccel {

// The GNU build id of this program (hex), "" when it was linked without one.
std::string program_build_id();

}  // namespace hwaccel
