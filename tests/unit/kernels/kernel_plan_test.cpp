// The kernel plan over the fixture tree (fixtures/kernels), read through the
// live Host like the CLI does; and that no order of files or entries shows.
#include "src/kernels/kernel_plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "src/host/live_host.h"
#include "src/kernels/kernel_report.h"
#include "tests/support/test_support.h"

namespace hwaccel::kernels {
namespace {

std::map<std::string, std::string> fixture_files() {
  LiveHost host;
  auto r = read_tree_files(host, ::hwaccel::testing::source_path("fixtures/kernels"));
  EXPECT_TRUE(r.error.empty()) << r.error;
  return r.files;
}

KernelPlan plan_for(const std::map<std::string, std::string>& files, const std::string& device,
                    const std::string& model, const std::string& quant = "") {
  auto tree = parse_tree(files, "fixtures/kernels");
  EXPECT_TRUE(tree.tree) << tree.error;
  KernelRequest req;
  req.device = device;
  req.spec = *plan::builtin_model(model).spec;
  req.quant = *plan::find_quant(quant.empty() ? req.spec.dtype : quant);
  auto made = make_kernel_plan(*tree.tree, req);
  EXPECT_TRUE(made.plan) << made.error;
  return *made.plan;
}

TEST(KernelPlan, UnknownDeviceListsTheKnownIds) {
  auto tree = parse_tree(fixture_files(), "fixtures/kernels");
  ASSERT_TRUE(tree.tree) << tree.error;
  KernelRequest req;
  req.device = "h800";
  req.spec = *plan::builtin_model("Llama-3.1-8B").spec;
  req.quant = *plan::find_quant("bf16");
  auto made = make_kernel_plan(*tree.tree, req);
  EXPECT_FALSE(made.plan);
  EXPECT_EQ(made.error,
            "unknown device id \"h800\" in fixtures/kernels/DEVICES.toml; known: a100-80gb, b200, "
            "gb10, h100-sxm, h200-sxm, l40s, rtx-5090");
}

TEST(KernelPlan, GapsAndTheCoveredShare) {
  auto p = plan_for(fixture_files(), "h100-sxm", "gpt-oss-20B");
  std::vector<std::string> gaps;
  for (const auto& n : p.nodes)
    if (n.rule.empty()) gaps.push_back(n.name);
  EXPECT_EQ(gaps, (std::vector<std::string>{"experts_gate_up", "experts_down"}));
  EXPECT_GT(p.covered_s, 0);
  EXPECT_LT(p.covered_s, p.step_roofline_s);
  auto full = plan_for(fixture_files(), "h100-sxm", "Llama-3.1-8B");
  EXPECT_DOUBLE_EQ(full.covered_s, full.step_roofline_s);
}

TEST(KernelPlan, TensorCoreAuditListsEachViolation) {
  auto p = plan_for(fixture_files(), "gb10", "Llama-3.1-8B");
  std::vector<std::string> nodes;
  for (const auto& v : p.violations) nodes.push_back(v.node);
  EXPECT_EQ(nodes, (std::vector<std::string>{"qkv_proj", "o_proj", "gate_up", "down"}));
  EXPECT_FALSE(p.ok());
  EXPECT_EQ(p.exempted.size(), 2u);  // attention and lm_head, with their reasons
  EXPECT_TRUE(plan_for(fixture_files(), "h100-sxm", "Llama-3.1-8B").violations.empty());
}

TEST(KernelPlan, FootprintAgainstUsableMemoryAndWhereItWouldFit) {
  auto p = plan_for(fixture_files(), "gb10", "Llama-3.1-70B");
  EXPECT_FALSE(p.fits());
  EXPECT_DOUBLE_EQ(p.capacity, p.memory * p.usable_fraction);
  ASSERT_EQ(p.fits_on.size(), 1u);
  EXPECT_EQ(p.fits_on[0].rfind("b200 ", 0), 0u);
  auto q = plan_for(fixture_files(), "h100-sxm", "Llama-3.1-8B");
  EXPECT_TRUE(q.fits());
  // Decode reads every weight but the embedding table once: 8.03 B - 0.53 B params at 2 B.
  EXPECT_NEAR(q.weight_bytes_step / 1e9, 15.0, 0.1);
  EXPECT_GT(q.prefill_32k_s, 8 * q.prefill_4k_s);  // attention grows with N^2
}

TEST(KernelPlan, ContradictingFlagsStopThePlan) {
  auto p = plan_for(fixture_files(), "l40s", "Llama-3.1-8B");
  ASSERT_EQ(p.errors.size(), 2u);
  EXPECT_TRUE(p.nodes.empty());
}

// Splits TOML text into its header and its [[...]] blocks, shuffles the blocks.
std::string shuffle_blocks(const std::string& text, std::mt19937& rng) {
  std::vector<std::string> blocks;
  std::string header;
  std::size_t pos = 0;
  bool in_block = false;
  while (pos < text.size()) {
    auto nl = text.find('\n', pos);
    std::string line = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos + 1);
    pos = nl == std::string::npos ? text.size() : nl + 1;
    if (line.rfind("[[", 0) == 0) {
      blocks.push_back("");
      in_block = true;
    }
    (in_block ? blocks.back() : header) += line;
  }
  for (auto& b : blocks)
    if (b.empty() || b.back() != '\n') b += '\n';
  std::shuffle(blocks.begin(), blocks.end(), rng);
  std::string out = header;
  for (const auto& b : blocks) out += b;
  return out;
}

TEST(KernelPlan, ReorderingFilesOrEntriesChangesNoByteOfAnyReport) {
  auto files = fixture_files();
  struct Case {
    const char* device;
    const char* model;
    const char* quant;
  } cases[] = {{"h100-sxm", "Llama-3.1-8B", ""},     {"gb10", "Llama-3.1-8B", ""},
               {"a100-80gb", "Llama-3.1-8B", "fp8"}, {"b200", "Llama-3.1-8B", "nvfp4"},
               {"h100-sxm", "gpt-oss-20B", ""},      {"l40s", "Llama-3.1-8B", ""}};
  for (unsigned seed = 1; seed <= 5; ++seed) {
    std::mt19937 rng(seed);
    std::map<std::string, std::string> shuffled;
    // Insert the files in a shuffled order too (the tree must not depend on it).
    std::vector<std::pair<std::string, std::string>> entries(files.begin(), files.end());
    std::shuffle(entries.begin(), entries.end(), rng);
    for (auto& [path, text] : entries)
      shuffled.emplace(path, path.size() > 5 && path.substr(path.size() - 5) == ".toml"
                                 ? shuffle_blocks(text, rng)
                                 : text);
    ASSERT_NE(shuffled["FUSIONS.toml"], files["FUSIONS.toml"]) << "the shuffle did nothing";
    for (const auto& c : cases) {
      ReportContext ctx{"fixtures/kernels"};
      auto a = plan_for(files, c.device, c.model, c.quant);
      auto b = plan_for(shuffled, c.device, c.model, c.quant);
      EXPECT_EQ(render_kernel_report(a, ctx), render_kernel_report(b, ctx))
          << c.device << " " << c.model << " seed " << seed;
      EXPECT_EQ(render_kernel_json(a, ctx), render_kernel_json(b, ctx));
    }
  }
}

TEST(KernelTree, DeviceWhoseInstructionsDisagreeWithItsPeaksIsRefused) {
  auto files = fixture_files();
  auto& d = files["DEVICES.toml"];
  // The A100 claims FP8 MMA but has no FP8 peak.
  auto at = d.find("instructions = [\"cp_async\", \"mma_sync\"]");
  ASSERT_NE(at, std::string::npos);
  d.replace(at, 39, "instructions = [\"cp_async\", \"mma_sync\", \"mma_sync_fp8\"]");
  auto tree = parse_tree(files, "fixtures/kernels");
  EXPECT_FALSE(tree.tree);
  EXPECT_NE(tree.error.find("fixtures/kernels/DEVICES.toml:"), std::string::npos) << tree.error;
  EXPECT_NE(tree.error.find("an instruction computes in fp8 but peak_tflops.fp8 is zero"),
            std::string::npos)
      << tree.error;
}

TEST(KernelTree, UnknownKeysAreRefusedWithTheirPlace) {
  auto files = fixture_files();
  files["sm90/HARDWARE.toml"] += "\n[extra]\nx = 1\n";
  auto tree = parse_tree(files, "fixtures/kernels");
  EXPECT_FALSE(tree.tree);
  EXPECT_NE(tree.error.find("fixtures/kernels/sm90/HARDWARE.toml:"), std::string::npos)
      << tree.error;
  files = fixture_files();
  files["DEVICES.toml"] += "\n[[guard]]\nmacro = \"X\"\ninstruction = \"wgmma\"\nkind = 1\n";
  tree = parse_tree(files, "fixtures/kernels");
  EXPECT_FALSE(tree.tree);
  EXPECT_NE(tree.error.find("kind"), std::string::npos) << tree.error;
}

}  // namespace
}  // namespace hwaccel::kernels
