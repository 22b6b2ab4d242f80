// A large catalogue is mostly [[sku]] blocks. Parsed whole, toml++ keeps a
// node per value with its source region: about 16 bytes of tree per byte of
// text (a 146 MB DEVICES.toml took 2.4 GB). Split into its blocks, each batch
// of blocks is parsed, read and dropped in turn, so that memory follows what
// is kept, not the tree.
//
// The split is lexical: strings ("...", '...', """...""", '''...'''),
// comments and the brackets of multi-line arrays are skipped, and a header
// line is `[NAME]`, `[[NAME]]`, `[NAME.sub]` or `[[NAME.sub]]` at bracket
// depth 0. A header this scanner does not classify (a quoted first key,
// `[sku]` without the second bracket) gives nullopt: the caller parses the
// whole text, as before, and toml++ says what is wrong with it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hwaccel::plan {

struct TomlBlocks {
  // The text without the blocks: each of their lines left empty, so that
  // everything else keeps its line and column.
  std::string rest;
  struct Batch {
    std::string_view text;   // consecutive [[NAME]] blocks, their sub-tables included
    std::size_t line = 1;    // the line of its first character in the whole text
    std::size_t blocks = 0;  // how many [[NAME]] headers it holds
  };
  std::vector<Batch> batches;
  std::size_t blocks = 0;  // over all batches
};

// The [[`name`]] blocks of `text`, in batches of about `batch_bytes`.
std::optional<TomlBlocks> split_array_blocks(std::string_view text, std::string_view name,
                                             std::size_t batch_bytes);

}  // namespace hwaccel::plan
