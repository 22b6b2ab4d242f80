// Every SKU of the built-in catalogue plans a built-in model on a host made of
// it (a finite, positive estimate), its figures are self-consistent, and its
// PCI ids are named by the PCI name tables detection uses (so a detected card
// is named and matched); an id two SKUs share is told apart by the name. Every
// built-in model plans on a host too.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

#include "src/catalog/amd_pci_ids.h"
#include "src/catalog/intel_gpu_ids.h"
#include "src/catalog/nvidia_pci_ids.h"
#include "src/plan/planner.h"

namespace hwaccel::plan {
namespace {

const Catalogue& cat() {
  return builtin_catalogue();
}

std::vector<std::string> sku_ids() {
  return cat().ids();
}

// The name detection gives a PCI device with this id; nullopt: not in the tables.
std::optional<std::string> table_name(std::uint16_t vendor, std::uint16_t device) {
  if (vendor == 0x10de) {
    auto n = nvidia_pci_product_name(device);
    return n ? std::optional<std::string>(std::string(*n)) : std::nullopt;
  }
  if (vendor == 0x1002) {
    auto m = find_amd_gpu_model(device);
    return m ? std::optional<std::string>(std::string(m->name)) : std::nullopt;
  }
  if (vendor == 0x8086) {
    auto m = find_intel_gpu(device);
    return m ? std::optional<std::string>(std::string(m->name)) : std::nullopt;
  }
  return "(vendor without a name table)";
}

class EverySku : public ::testing::TestWithParam<std::string> {};

TEST_P(EverySku, FiguresAreSelfConsistentAndSourced) {
  const Sku& s = *cat().find(GetParam());
  EXPECT_GT(s.bandwidth_bytes_s, 0);
  EXPECT_TRUE(std::isfinite(s.bandwidth_bytes_s));
  if (s.type != "cpu") {
    EXPECT_GT(s.memory_bytes, 0);
    // Bandwidth per byte of memory: no device reads its memory in under 1 ms
    // or takes over 10 s (a unit slip, GB for GiB or MB/s for GB/s, breaks it).
    const double sweep = s.memory_bytes / s.bandwidth_bytes_s;
    EXPECT_GT(sweep, 1e-3) << s.id;
    EXPECT_LT(sweep, 10.0) << s.id;
  }
  EXPECT_GT(s.compute_units, 0);
  EXPECT_FALSE(s.peak_flops.empty()) << s.id;
  for (const auto& [f, v] : s.peak_flops) {
    EXPECT_TRUE(std::isfinite(v) && v > 0) << s.id << " " << f;
    EXPECT_TRUE(s.is_native(f)) << s.id << " " << f;
  }
  // Narrower formats are never slower than 16-bit on the same units.
  if (s.peak("fp16") > 0 && s.peak("fp8") > 0) {
    EXPECT_GE(s.peak("fp8"), s.peak("fp16")) << s.id;
  }
  if (s.peak("fp16") > 0 && s.peak("fp32") > 0) {
    EXPECT_GE(s.peak("fp16"), s.peak("fp32")) << s.id;
  }
  for (const char* field : {"bandwidth_gbs", "peak_tflops", "compute_units"})
    EXPECT_TRUE(s.sources.count(field)) << s.id << " " << field;
  EXPECT_TRUE(s.sources.count("memory_gb") || s.sources.count("memory_gib") || s.type == "cpu")
      << s.id;
}

TEST_P(EverySku, ItsPciIdsAreNamedByTheTablesDetectionUses) {
  const Sku& s = *cat().find(GetParam());
  for (const auto& [v, d] : s.pci) {
    auto name = table_name(v, d);
    ASSERT_TRUE(name) << s.id << ": " << std::hex << v << ":" << d << " is in no PCI name table";
    // The catalogue matches what detection names it: the id, or the name.
    Entry e;
    e.type = DeviceType::gpu;
    e.name = *name;
    e.pci_vendor_id = v;
    e.pci_device_id = d;
    const Sku* hit = cat().match(e);
    ASSERT_NE(hit, nullptr) << s.id << ": " << *name;
  }
}

TEST_P(EverySku, PlansABuiltInModelWithAFinitePositiveEstimate) {
  const Sku& s = *cat().find(GetParam());
  PlanRequest req;
  // Small enough for a 6 GB card (RTX 2060, Arc A380).
  req.spec = *builtin_model("Phi-3-mini").spec;
  req.quant = *find_quant("q4_k_m");
  req.workload.context = 4096;
  DeviceSet set = synthetic_devices(s, 1, 0);
  if (s.type == "cpu") {
    // A CPU's memory comes from detection: this host has 64 GiB.
    PlanDevice& d = set.devices.front();
    d.cpu = true;
    d.total_bytes = 64.0 * (1 << 30);
    d.capacity = d.total_bytes * d.usable_fraction;
  }
  auto r = make_plan(req, set, cat(), false);
  ASSERT_TRUE(r.fits()) << s.id << ": " << r.why;
  const auto& e = r.candidates[*r.chosen].estimate;
  ASSERT_TRUE(e.available) << s.id << ": " << e.missing;
  EXPECT_TRUE(std::isfinite(e.decode_tok_s_1) && e.decode_tok_s_1 > 0) << s.id;
  EXPECT_TRUE(std::isfinite(e.prefill_tok_s_4k) && e.prefill_tok_s_4k > 0) << s.id;
  // Decode at batch 1 cannot beat reading the weights once per token at the
  // device's full bandwidth.
  EXPECT_LE(e.decode_tok_s_1, s.bandwidth_bytes_s / r.cost.weights.per_token * 1.0001) << s.id;
}

INSTANTIATE_TEST_SUITE_P(Catalogue, EverySku, ::testing::ValuesIn(sku_ids()), [](const auto& info) {
  std::string n = info.param;
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
});

TEST(CatalogueCoverage, HoldsTheCommonGpus) {
  EXPECT_GE(cat().skus.size(), 120u);
  for (const char* id : {"rtx-3080", "rtx-4060", "rtx-4070", "rtx-4080", "rtx-a6000", "t4",
                         "jetson-agx-orin-64gb", "mi100", "mi50", "rx-9070-xt", "arc-a770"})
    EXPECT_NE(cat().find(id), nullptr) << id;
}

// A PCI id two SKUs share is allowed only where the names tell them apart:
// every SKU sharing it has a match string, and no two have the same ones.
TEST(CatalogueCoverage, PciIdsAreUniqueOrToldApartByName) {
  std::map<std::pair<std::uint16_t, std::uint16_t>, std::vector<const Sku*>> by_id;
  for (const auto& s : cat().skus)
    for (const auto& p : s.pci) by_id[p].push_back(&s);
  for (const auto& [id, skus] : by_id) {
    if (skus.size() < 2) continue;
    std::set<std::vector<std::string>> seen;
    for (const Sku* s : skus) {
      EXPECT_FALSE(s->match.empty()) << s->id << " shares a PCI id without a match string";
      EXPECT_TRUE(seen.insert(s->match).second) << s->id << " shares id and match strings";
    }
  }
}

// The name detection reads picks the right one of SKUs sharing an id.
TEST(CatalogueCoverage, ASharedIdIsResolvedByTheName) {
  auto pick = [](std::uint16_t v, std::uint16_t d, const char* name) {
    Entry e;
    e.type = DeviceType::gpu;
    e.name = name;
    e.pci_vendor_id = v;
    e.pci_device_id = d;
    const Sku* s = cat().match(e);
    return s ? s->id : std::string("(none)");
  };
  EXPECT_EQ(pick(0x1002, 0x744c, "AMD Radeon RX 7900 XT"), "rx-7900-xt");
  EXPECT_EQ(pick(0x1002, 0x744c, "AMD Radeon RX 7900 XTX"), "rx-7900-xtx");
  EXPECT_EQ(pick(0x1002, 0x740c, "AMD Instinct MI250"), "mi250-gcd");
  EXPECT_EQ(pick(0x1002, 0x740c, "AMD Instinct MI250X"), "mi250x-gcd");
  EXPECT_EQ(pick(0x10de, 0x25b6, "NVIDIA A16"), "a16");
  EXPECT_EQ(pick(0x10de, 0x25b6, "NVIDIA A2"), "a2");
  // The examples: named by the tables, matched by id.
  EXPECT_EQ(find_amd_gpu_model(0x738c)->name, "AMD Instinct MI100");
  EXPECT_EQ(find_amd_gpu_model(0x66a1)->name, "AMD Radeon Instinct MI50/Radeon Pro VII");
  EXPECT_EQ(pick(0x1002, 0x738c, "AMD Instinct MI100"), "mi100");
}

class EveryModel : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryModel, PlansOnAHostWithAFinitePositiveEstimate) {
  PlanRequest req;
  req.spec = *builtin_model(GetParam()).spec;
  const QuantLevel* q = find_quant(req.spec.dtype);
  ASSERT_NE(q, nullptr) << req.spec.dtype;
  req.quant = *q;
  auto r = make_plan(req, synthetic_devices(*cat().find("h200-sxm"), 8, 0), cat(), false);
  ASSERT_TRUE(r.fits()) << GetParam() << ": " << r.why;
  const auto& e = r.candidates[*r.chosen].estimate;
  ASSERT_TRUE(e.available) << e.missing;
  EXPECT_TRUE(std::isfinite(e.decode_tok_s_1) && e.decode_tok_s_1 > 0);
  EXPECT_TRUE(std::isfinite(e.prefill_tok_s_4k) && e.prefill_tok_s_4k > 0);
}

INSTANTIATE_TEST_SUITE_P(Models, EveryModel, ::testing::ValuesIn(builtin_model_names()),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

}  // namespace
}  // namespace hwaccel::plan
