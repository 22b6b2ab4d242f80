// A large DEVICES.toml is parsed a batch of [[sku]] blocks at a time (issue
// 31: 146 MB took 2.4 GB): the same catalogue and the same errors, at the same
// lines, as the whole text parsed at once, whatever TOML puts between blocks.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>

#include "src/plan/catalogue_batches.h"
#include "src/plan/toml_blocks.h"

namespace hwaccel::plan {
namespace {

constexpr std::size_t kWhole = std::numeric_limits<std::size_t>::max();
constexpr std::size_t kBatches = 0;

std::string sku(int i) {
  const std::string n = std::to_string(i);
  std::string s = "[[sku]]\nid = \"sku-" + n + "\"\nname = \"Accel " + n +
                  "\"\nvendor = \"V\"\nfamily = \"F\"\ntype = \"gpu\"\n";
  // Multi-line arrays whose lines start with a bracket, and a multi-line string
  // holding what looks like a header: values, not headers.
  if (i % 3 == 0)
    s += "match = [\n\"Accel " + n + "\", # [[sku]]\n]\n";
  else
    s += "match = [\n  \"Accel " + n + "\",\n]\n";
  s += "pci = []\nmemory_gb = 80\nmemory_type = \"\"\"\n[[sku]]\n[perf_class.z]\nHBM3\"\"\"\n";
  s += "usable_fraction = 0.9\nbandwidth_gbs = " + std::to_string(1000 + i) + "\n";
  s += "native = [\"fp32\", \"bf16\"]  # [[sku]] in a comment\ntarget = 'sm_90 [[sku]]'\n";
  s += "compute_units = 10\nperf_class = \"x\"\nfabric = \"none\"\n";
  // Sub-tables of the block, in both spellings.
  if (i % 2 == 0)
    s += "[sku.peak_tflops]\nfp32 = 10\nbf16 = 100\n";
  else
    s += "peak_tflops = { fp32 = 10, bf16 = 100 }\n";
  s += "[ sku.sources ]\nmemory_gb = \"m\"\nbandwidth_gbs = \"b\"\npeak_tflops = \"p\"\n"
       "compute_units = \"c\"\nusable_fraction = \"u\"\n\n";
  return s;
}

// Blocks with other tables between and after them.
std::string catalogue(int skus) {
  std::string s = "format = \"hwaccel-devices/1\"\n# a comment\n";
  s += "[perf_class.x]\ndecode_efficiency = 0.5\nprefill_efficiency = 0.3\nsource = \"t\"\n\n";
  for (int i = 0; i < skus; ++i) {
    s += sku(i);
    if (i == skus / 2)
      s += "[perf_class.y]\ndecode_efficiency = 0.4\nprefill_efficiency = 0.2\nsource = "
           "\"t\"\n\n";
  }
  s += "[runtime.vllm.x]\ndecode_efficiency = 0.5\nprefill_efficiency = 0.3\nsource = \"t\"\n";
  return s;
}

TEST(CatalogueBlocks, BatchesGiveTheSameCatalogueAsTheWholeText) {
  const std::string text = catalogue(2000);
  auto whole = parse_catalogue(text, "D.toml", kWhole);
  auto batched = parse_catalogue(text, "D.toml", kBatches);
  ASSERT_TRUE(whole.catalogue) << whole.error;
  ASSERT_TRUE(batched.catalogue) << batched.error;
  const auto &a = *whole.catalogue, &b = *batched.catalogue;
  ASSERT_EQ(a.skus.size(), 2000u);
  ASSERT_EQ(b.skus.size(), a.skus.size());
  for (std::size_t i = 0; i < a.skus.size(); ++i) {
    EXPECT_EQ(b.skus[i].id, a.skus[i].id);
    EXPECT_EQ(b.skus[i].location, a.skus[i].location);
    EXPECT_EQ(b.skus[i].match, a.skus[i].match);
    EXPECT_EQ(b.skus[i].memory_type, a.skus[i].memory_type);
    EXPECT_EQ(b.skus[i].target, a.skus[i].target);
    EXPECT_EQ(b.skus[i].peak_flops, a.skus[i].peak_flops);
    EXPECT_EQ(b.skus[i].sources, a.skus[i].sources);
    EXPECT_EQ(b.skus[i].bandwidth_bytes_s, a.skus[i].bandwidth_bytes_s);
  }
  const auto last = text.find("[[sku]]\nid = \"sku-1999\"");
  const auto line = 1 + std::count(text.begin(), text.begin() + long(last), '\n');
  EXPECT_EQ(b.skus[1999].location, "D.toml:" + std::to_string(line) + ":1");
  EXPECT_EQ(b.perf_classes.size(), 2u);
  EXPECT_EQ(b.runtimes.size(), a.runtimes.size());
  EXPECT_EQ(b.skus[0].match, std::vector<std::string>{"Accel 0"});
}

TEST(CatalogueBlocks, ErrorsSayTheSameLineEitherWay) {
  const std::string good = catalogue(300);
  const struct {
    std::string from, to;
  } edits[] = {
      {"bandwidth_gbs = 1250\n", "bandwidth_gbs = -1\n"},  // a bad value in a block
      {"id = \"sku-280\"", "id = \"sku-28\""},             // an id defined twice
      {"bandwidth_gbs = 1290\n", "bandwidth_gbs = \n"},    // a syntax error in a block
      {"bf16 = 100 }\n[ sku.sources ]", "bf16 = 100 }\nbogus = 1\n[ sku.sources ]"},
      {"[runtime.vllm.x]", "[runtime.vllm.w]"},                            // after the blocks
      {"name = \"Accel 5\"\n", "name = \"Accel 5\"\nname = \"again\"\n"},  // a key twice
  };
  for (const auto& e : edits) {
    std::string bad = good;
    auto at = bad.find(e.from);
    ASSERT_NE(at, std::string::npos) << e.from;
    bad.replace(at, e.from.size(), e.to);
    auto whole = parse_catalogue(bad, "D.toml", kWhole);
    auto batched = parse_catalogue(bad, "D.toml", kBatches);
    EXPECT_FALSE(whole.catalogue) << e.to;
    EXPECT_FALSE(batched.catalogue) << e.to;
    EXPECT_EQ(batched.error, whole.error) << e.to;
  }
}

TEST(CatalogueBlocks, HeadersItCannotClassifyLeaveTheWholeParse) {
  EXPECT_FALSE(split_array_blocks("[\"sku\".x]\na = 1\n", "sku", 100));
  EXPECT_FALSE(split_array_blocks("[sku]\na = 1\n", "sku", 100));
  EXPECT_FALSE(split_array_blocks("[sku.x]\na = 1\n[[sku]]\n", "sku", 100));
  EXPECT_FALSE(split_array_blocks("a = \"never ends\n[[sku]]\n", "sku", 100));
  EXPECT_FALSE(split_array_blocks("a = [1, 2\n", "sku", 100));
  // A value's line that starts with a bracket is no header.
  auto nested = split_array_blocks("[[sku]]\na = [\n[1, 2],\n[t]\n]\n[u]\n", "sku", 100);
  ASSERT_TRUE(nested);
  EXPECT_EQ(nested->batches.at(0).text, "[[sku]]\na = [\n[1, 2],\n[t]\n]\n");
  // Each line of a block is left empty in the rest; batches hold whole blocks.
  auto b = split_array_blocks("x = 1\n[[sku]]\na = 1\n[[sku]]\na = 2\n[t]\nb = 2\n", "sku", 8);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->rest, "x = 1\n\n\n\n\n[t]\nb = 2\n");
  EXPECT_EQ(b->blocks, 2u);
  ASSERT_EQ(b->batches.size(), 2u);
  EXPECT_EQ(b->batches[0].text, "[[sku]]\na = 1\n");
  EXPECT_EQ(b->batches[0].line, 2u);
  EXPECT_EQ(b->batches[1].line, 4u);
  // A quoted first key, or [sku] alone, still parses (or fails) as before.
  auto quoted = catalogue(3);
  quoted.replace(quoted.find("[ sku.sources ]"), 15, "[ \"sku\".sources ]");
  auto whole = parse_catalogue(quoted, "D.toml", kWhole);
  auto batched = parse_catalogue(quoted, "D.toml", kBatches);
  ASSERT_TRUE(whole.catalogue) << whole.error;
  ASSERT_TRUE(batched.catalogue) << batched.error;
  EXPECT_EQ(batched.catalogue->skus.size(), 3u);
}

}  // namespace
}  // namespace hwaccel::plan
