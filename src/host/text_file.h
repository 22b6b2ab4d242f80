// Reading a whole input file the user named (a snapshot, a saved detection).
// Lives in src/host/ because it is an access to the machine like any other.
#pragma once

#include <string>

#include "src/host/result.h"

namespace hwaccel {

Result<std::string> read_text_file(const std::string& path);

}  // namespace hwaccel
