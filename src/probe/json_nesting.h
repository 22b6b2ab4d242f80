// How deep a JSON text nests, found by a linear scan before any parser sees it.
// nlohmann::json parses any depth without recursion, but copying, comparing or
// dumping a value recurses once per level: a 60,000-deep document in a file
// anyone can write (a Vulkan driver manifest in ~/.local/share/vulkan/icd.d)
// overflowed the stack of `hwaccel detect`. Every parse of untrusted JSON
// checks this first.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace hwaccel {

// The nesting any of our JSON inputs needs is a handful of levels; 64 leaves
// room and keeps recursion over the value to a few kilobytes of stack.
inline constexpr int kMaxJsonDepth = 64;

// The byte offset of the first '[' or '{' that opens level `max_depth` + 1,
// outside strings; nullopt when the text never nests that deep. Brackets in
// strings (escapes included) do not count; the text need not be valid JSON.
std::optional<std::size_t> json_too_deep_at(std::string_view text, int max_depth = kMaxJsonDepth);

// The 1-based line of a byte offset, for messages.
std::string_view::size_type json_line_of(std::string_view text, std::size_t offset);

}  // namespace hwaccel
