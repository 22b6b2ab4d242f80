// Appending one record to a file that already exists (the emulated tools' log in a
// simulated host's tree): never created, never followed if a link, one write(2)
// with O_APPEND so that concurrent writers' lines do not interleave.
#pragma once

#include <string>

namespace hwaccel {

// "" or what failed (the path and the errno text).
std::string append_to_file(const std::string& path, const std::string& text);

}  // namespace hwaccel
