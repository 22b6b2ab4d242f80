// parse_catalogue with the size above which a text is parsed a batch of
// [[sku]] blocks at a time (src/plan/toml_blocks.h: memory linear in the text,
// a few times its size, instead of toml++'s tree of ~16 times). The same
// catalogue and the same errors either way; tests set the bound to compare.
#pragma once

#include <cstddef>

#include "src/plan/catalogue.h"

namespace hwaccel::plan {

inline constexpr std::size_t kWholeParseBytes = 1u << 20;

CatalogueResult parse_catalogue(std::string_view text, const std::string& file,
                                std::size_t whole_parse_bytes);

}  // namespace hwaccel::plan
