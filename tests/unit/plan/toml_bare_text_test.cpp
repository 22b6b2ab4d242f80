#include "src/plan/toml_bare_text.h"

#include <gtest/gtest.h>

#include "src/plan/catalogue.h"

namespace hwaccel::plan {
namespace {

std::optional<std::pair<int, int>> at(std::string_view text) {
  auto p = first_non_ascii_outside_strings(text);
  if (!p) return std::nullopt;
  return std::pair{p->line, p->column};
}

TEST(TomlBareText, NonAsciiInStringsAndCommentsIsFine) {
  EXPECT_EQ(at("a = \"caf\xC3\xA9\"\n"), std::nullopt);
  EXPECT_EQ(at("a = 'caf\xC3\xA9'\n"), std::nullopt);
  EXPECT_EQ(at("[\"caf\xC3\xA9\"]\nx = 1 # caf\xC3\xA9\n"), std::nullopt);
  EXPECT_EQ(at("a = \"\"\"\ncaf\xC3\xA9\n\"\"\"\n"), std::nullopt);
  EXPECT_EQ(at("a = '''\ncaf\xC3\xA9\n'''\n"), std::nullopt);
  EXPECT_EQ(at("a = \"quote \\\" then caf\xC3\xA9\"\n"), std::nullopt);  // escaped quote
  EXPECT_EQ(at("a = \"\"\"two \"\" quotes caf\xC3\xA9\"\"\"\n"), std::nullopt);
}

TEST(TomlBareText, NonAsciiInABareKeyIsFoundWithItsPosition) {
  EXPECT_EQ(at("[a\xC3\xA9]\n"), (std::pair{1, 3}));
  EXPECT_EQ(at("x = 1\n[[a\xC3\xA9]]\n"), (std::pair{2, 4}));
  // Columns count characters: the string before holds a two-byte character.
  EXPECT_EQ(at("a = \"\xC3\xA9\" b\xC3\xA9\n"), (std::pair{1, 10}));
  // After a multi-line string the scan goes on.
  EXPECT_EQ(at("a = '''\nx\n'''\n\xC2\xA1 = 1\n"), (std::pair{4, 1}));
}

TEST(TomlBareText, AnUnterminatedStringIsLeftToTheParser) {
  EXPECT_EQ(at("a = \"open\n[b\xC3\xA9]\n"), std::nullopt);
}

// The reason for the scan: toml++ 3.3.0 reaches __builtin_unreachable on "[aé]"
// (finding 8); a catalogue holding it is refused with our own location.
TEST(TomlBareText, ACatalogueWithANonAsciiBareKeyIsALocatedError) {
  auto r = parse_catalogue("# caf\xC3\xA9 is fine here\n[gpu\xC3\xA9]\n", "c.toml");
  EXPECT_FALSE(r.catalogue);
  EXPECT_EQ(r.error,
            "c.toml:2:5: a non-ASCII character outside a string or comment (TOML allows them only "
            "there; a key that needs one is written in quotes)");
}

}  // namespace
}  // namespace hwaccel::plan
