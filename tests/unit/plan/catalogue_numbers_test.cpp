// The numbers of a DEVICES.toml and an instances.toml (issue 18, item 16):
// nan, inf, 0, negative or absurd values are refused at the key, with the
// file, line, column, SKU and what was expected; a duplicate id among many
// SKUs is found (once a quadratic search: 6 minutes for 300,000 SKUs).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "src/plan/catalogue.h"
#include "src/plan/instances.h"
#include "src/plan/model_spec.h"
#include "tests/support/sanitized.h"

namespace hwaccel::plan {
namespace {

const std::string kHead = R"(format = "hwaccel-devices/1"
[perf_class.x]
decode_efficiency = 0.5
prefill_efficiency = 0.3
source = "test"
)";

// One [[sku]] with the given memory, bandwidth, bf16 peak and compute units.
std::string sku(const std::string& id, const std::string& memory = "80",
                const std::string& bandwidth = "1000", const std::string& bf16 = "100",
                const std::string& units = "10", const std::string& type = "gpu") {
  return "\n[[sku]]\nid = \"" + id + "\"\nname = \"Accel " + id +
         "\"\nvendor = \"V\"\nfamily = \"F\"\ntype = \"" + type + "\"\nmatch = [\"Accel " + id +
         "\"]\npci = []\nmemory_gb = " + memory +
         "\nmemory_type = \"HBM3\"\nusable_fraction = 0.9\nbandwidth_gbs = " + bandwidth +
         "\npeak_tflops = { bf16 = " + bf16 + " }\nnative = [\"bf16\"]\ntarget = \"sm_90\"\n" +
         "compute_units = " + units +
         "\nperf_class = \"x\"\nfabric = \"none\"\nsources = { memory_gb = \"m\", bandwidth_gbs "
         "= \"b\", peak_tflops = \"p\", compute_units = \"c\", usable_fraction = \"u\" }\n";
}

std::string error_of(const std::string& text) {
  auto r = parse_catalogue(text, "d.toml");
  EXPECT_FALSE(r.catalogue) << text;
  return r.error;
}

TEST(CatalogueNumbers, ValidSkuParses) {
  auto r = parse_catalogue(kHead + sku("a"), "d.toml");
  ASSERT_TRUE(r.catalogue) << r.error;
  EXPECT_EQ(r.catalogue->skus.at(0).compute_units, 10);
}

TEST(CatalogueNumbers, NanAndInfBandwidthAreRefusedAtTheKey) {
  // Line 18 of the text is bandwidth_gbs (5 lines of head, a blank, 12 of sku).
  for (const std::string v : {"nan", "+nan", "inf", "+inf", "-inf"}) {
    auto e = error_of(kHead + sku("a", "80", v));
    EXPECT_NE(e.find("d.toml:18:17: sku[0].bandwidth_gbs: "), std::string::npos) << v << ": " << e;
    EXPECT_NE(e.find("expected a finite number"), std::string::npos) << v << ": " << e;
  }
}

TEST(CatalogueNumbers, ZeroNegativeAndAbsurdBandwidthAreRefused) {
  EXPECT_NE(error_of(kHead + sku("a", "80", "0")).find("sku[0].bandwidth_gbs: expected a positive"),
            std::string::npos);
  EXPECT_NE(error_of(kHead + sku("a", "80", "-5")).find("sku[0].bandwidth_gbs: -5 is out of range"),
            std::string::npos);
  auto e = error_of(kHead + sku("a", "80", "1e30"));
  EXPECT_NE(e.find("sku[0].bandwidth_gbs: 1e+30 is out of range (expected 0 to 1e+06 GB/s)"),
            std::string::npos)
      << e;
}

TEST(CatalogueNumbers, MemoryMustBeFiniteAndPositiveForAnAccelerator) {
  EXPECT_NE(error_of(kHead + sku("a", "nan")).find("sku[0].memory_gb: nan: expected a finite"),
            std::string::npos);
  EXPECT_NE(error_of(kHead + sku("a", "inf")).find("sku[0].memory_gb: inf: expected a finite"),
            std::string::npos);
  EXPECT_NE(error_of(kHead + sku("a", "0")).find("sku[0].memory_gb: 0: a gpu needs its memory"),
            std::string::npos);
  EXPECT_NE(error_of(kHead + sku("a", "-1")).find("sku[0].memory_gb: -1 is out of range"),
            std::string::npos);
  EXPECT_NE(error_of(kHead + sku("a", "1e30")).find("sku[0].memory_gb: 1e+30 is out of range"),
            std::string::npos);
  // A CPU's memory comes from detection: 0 stays allowed there.
  auto cpu = parse_catalogue(kHead + sku("c", "0", "100", "1", "8", "cpu"), "d.toml");
  EXPECT_TRUE(cpu.catalogue) << cpu.error;
}

TEST(CatalogueNumbers, PeaksAndComputeUnitsAreBounded) {
  EXPECT_NE(error_of(kHead + sku("a", "80", "1000", "nan")).find("peak_tflops.bf16: nan"),
            std::string::npos);
  EXPECT_NE(error_of(kHead + sku("a", "80", "1000", "1e30")).find("peak_tflops.bf16: 1e+30 is out"),
            std::string::npos);
  // compute_units = 1e30 was cast to int: undefined behaviour.
  for (const std::string v : {"1e30", "nan", "0", "-3", "2.5"}) {
    auto e = error_of(kHead + sku("a", "80", "1000", "100", v));
    EXPECT_NE(e.find("sku[0].compute_units: "), std::string::npos) << v << ": " << e;
  }
}

TEST(CatalogueNumbers, PerfClassFractionsRefuseNan) {
  std::string text = kHead + sku("a");
  text.replace(text.find("decode_efficiency = 0.5"), 23, "decode_efficiency = nan");
  EXPECT_NE(error_of(text).find("perf_class.x.decode_efficiency: nan: expected a finite"),
            std::string::npos)
      << error_of(text);
  std::string usable = kHead + sku("a");
  usable.replace(usable.find("usable_fraction = 0.9"), 21, "usable_fraction = nan");
  EXPECT_NE(error_of(usable).find("sku[0].usable_fraction: nan: expected a finite"),
            std::string::npos);
}

// Many SKUs: every id kept, a duplicate at the end found and located. The
// speed (300,000 SKUs) is measured in bench/micro/catalogue_bench.cpp.
TEST(CatalogueNumbers, DuplicateAmongManySkusIsFoundAndLocated) {
  constexpr int kSkus = 20000 / hwaccel::testing::kSanitizedScale;
  std::string text = kHead;
  text.reserve(kSkus * 700);
  for (int i = 0; i < kSkus; ++i) text += sku("s" + std::to_string(i));
  auto ok = parse_catalogue(text, "d.toml");
  ASSERT_TRUE(ok.catalogue) << ok.error;
  EXPECT_EQ(ok.catalogue->skus.size(), std::size_t(kSkus));
  EXPECT_NE(ok.catalogue->find("s" + std::to_string(kSkus - 1)), nullptr);
  text += sku("s777");
  auto dup = parse_catalogue(text, "d.toml");
  ASSERT_FALSE(dup.catalogue);
  EXPECT_NE(dup.error.find(":6: sku[" + std::to_string(kSkus) + "].id: \"s777\" is defined twice"),
            std::string::npos)
      << dup.error;
}

TEST(CatalogueNumbers, GuardMappedTwiceIsStillFound) {
  std::string text = kHead + sku("a") +
                     "\n[[guard]]\nmacro = \"M1\"\ninstruction = \"wgmma\"\n"
                     "\n[[guard]]\nmacro = \"M2\"\ninstruction = \"wgmma\"\n"
                     "\n[[guard]]\nmacro = \"M1\"\ninstruction = \"wgmma\"\n";
  EXPECT_NE(error_of(text).find("guard[2].macro: \"M1\" is mapped twice"), std::string::npos)
      << error_of(text);
}

std::string instance(const std::string& count, const std::string& memory,
                     const std::string& price) {
  return "format = \"hwaccel-instances/1\"\n[[instance]]\nprovider = \"p\"\ninstance = \"i\"\n"
         "accelerator = \"h100-sxm\"\ncount = " +
         count + "\nhost_memory_gb = " + memory + "\nusd_per_hour = " + price +
         "\nregion = \"r\"\ndate = \"2025-01-01\"\nsource = \"s\"\n";
}

TEST(InstanceNumbers, CountMemoryAndPriceAreFiniteAndBounded) {
  const auto& c = builtin_catalogue();
  auto ok = parse_instances(instance("8", "2048", "98.3"), "i.toml", c);
  EXPECT_TRUE(ok.error.empty()) << ok.error;
  struct Case {
    std::string count, memory, price, expected;
  };
  const std::vector<Case> cases = {
      {"1e30", "2048", "98.3", "instance[0].count: expected 1..1024"},  // was a UB cast to int
      {"nan", "2048", "98.3", "instance[0].count: nan: expected a finite number"},
      {"2.5", "2048", "98.3", "instance[0].count: expected 1..1024"},
      {"8", "nan", "98.3", "instance[0].host_memory_gb: nan: expected a finite number"},
      {"8", "-1", "98.3", "instance[0].host_memory_gb: -1 is out of range"},
      {"8", "2048", "nan", "instance[0].usd_per_hour: nan: expected a finite number"},
      {"8", "2048", "inf", "instance[0].usd_per_hour: inf: expected a finite number"},
      {"8", "2048", "0", "instance[0].usd_per_hour: expected a positive price"},
      {"8", "2048", "1e30", "instance[0].usd_per_hour: 1e+30 is out of range"},
  };
  for (const auto& k : cases) {
    auto r = parse_instances(instance(k.count, k.memory, k.price), "i.toml", c);
    EXPECT_NE(r.error.find(k.expected), std::string::npos)
        << k.count << " " << k.memory << " " << k.price << ": " << r.error;
    EXPECT_EQ(r.error.rfind("i.toml:", 0), 0u) << r.error;
  }
}

}  // namespace
}  // namespace hwaccel::plan

namespace hwaccel::plan {
namespace {

// More heads than hidden_size gave heads of width 0 ("8 KV heads x 0").
TEST(ModelConfigNumbers, HeadWidthZeroIsRefused) {
  auto r = parse_hf_config(R"({"num_hidden_layers": 2, "hidden_size": 4, "num_attention_heads": 8,
                               "vocab_size": 10, "intermediate_size": 8})",
                           "config.json");
  EXPECT_FALSE(r.spec);
  EXPECT_EQ(r.error,
            "config.json: key \"head_dim\": missing, and hidden_size / num_attention_heads is 0 "
            "(expected a positive integer)");
  for (const char* bad : {R"("hidden_size": 0)", R"("hidden_size": -4)", R"("hidden_size": 1e30)",
                          R"("hidden_size": 4.5)"}) {
    auto z = parse_hf_config(std::string(R"({"num_hidden_layers": 2, )") + bad +
                                 R"(, "num_attention_heads": 8, "vocab_size": 10,
                                 "intermediate_size": 8})",
                             "config.json");
    EXPECT_NE(z.error.find("key \"hidden_size\": expected a positive integer"), std::string::npos)
        << bad << ": " << z.error;
  }
}

}  // namespace
}  // namespace hwaccel::plan
