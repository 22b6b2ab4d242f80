// Reading a whole input file the user named (a snapshot, a saved detection).
// Lives in src/host/ because it is an access to the machine like any other.
#pragma once

#include <cstddef>
#include <string>

#include "src/host/result.h"

namespace hwaccel {

// A file larger than `max_bytes` is refused with EFBIG before it is read whole
// (an untrusted snapshot must not make us allocate gigabytes).
Result<std::string> read_text_file(const std::string& path,
                                   std::size_t max_bytes = std::size_t{1} << 30);

}  // namespace hwaccel
