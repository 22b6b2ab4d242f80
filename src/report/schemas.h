// The JSON Schema documents of hwaccel's outputs (docs/schemas/*.schema.json),
// built into the binary for `hwaccel schema NAME`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hwaccel {

std::vector<std::string> schema_names();  // "hwaccel-detect-1", ...
// The schema's text; empty when there is no such schema.
std::string_view schema_text(std::string_view name);

}  // namespace hwaccel
