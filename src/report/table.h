// A plain text table: columns padded to their widest cell, two spaces apart,
// no trailing blanks.
#pragma once

#include <string>
#include <vector>

namespace hwaccel {

std::string render_table(const std::vector<std::vector<std::string>>& rows);

}  // namespace hwaccel
