// Whether a snapshot's text is one the fast reader may read line by line
// (src/snapshot/fast_reader.h); where it is not, yaml-cpp reads it.
#pragma once

#include <string_view>

namespace hwaccel {

// What the line-based reader cannot see: a byte-order mark, carriage returns,
// Unicode line breaks, and text that is not UTF-8 (yaml-cpp replaces it).
// Control characters (other than tab and line feed) are left to yaml-cpp too.
bool snapshot_is_plain_text(std::string_view text);

}  // namespace hwaccel
