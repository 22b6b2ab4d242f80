// Backend names: those this build has (the probes), and those hwaccel knows of
// at all, so that a request for a backend left out of the build is told apart
// from a typo.
#pragma once

#include <string>
#include <vector>

namespace hwaccel {

const std::vector<std::string>& known_backend_names();
bool is_known_backend(const std::string& name);

}  // namespace hwaccel
