// Byte-level helpers the snapshot codec needs: base64 and UTF-8 validity.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace hwaccel {

std::string base64_encode(std::string_view bytes);
// nullopt on a character outside the alphabet or bad padding; whitespace is skipped.
std::optional<std::string> base64_decode(std::string_view text);
bool is_valid_utf8(std::string_view bytes);

}  // namespace hwaccel
