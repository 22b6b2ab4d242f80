// Golden plan outputs: `hwaccel plan|train|cost` on fixture hosts, compared
// byte for byte (text and JSON) with tests/golden/plans/NAME.{txt,json}.
// Rewritten only with HWACCEL_REGENERATE_GOLDEN=1 (then read the diff):
//   HWACCEL_REGENERATE_GOLDEN=1 build/tests/e2e_tests --gtest_filter='PlanGolden*'
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "tests/support/run_command.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

namespace fs = std::filesystem;

struct Case {
  const char* name;
  const char* args;  // after `hwaccel`, run from the repository root
  int exit_code;
};

const Case kCases[] = {
    {"llama3-70b--dgx-h100", "plan --host fixtures/hosts/dgx-h100.yaml --model Llama-3-70B", 0},
    {"llama3-70b--gx10-bf16", "plan --host fixtures/hosts/gx10.yaml --model Llama-3-70B", 11},
    {"llama3-70b--gx10-q4_k_m",
     "plan --host fixtures/hosts/gx10.yaml --model Llama-3-70B --quant q4_k_m", 0},
    {"llama3-70b--4090-cpu-offload",
     "plan --host fixtures/hosts/rtx4090-amd-igpu.yaml --on cuda:0,cpu:0 --model Llama-3-70B "
     "--quant q4_k_m",
     0},
    {"llama3-70b--mi300x-8", "plan --host fixtures/hosts/mi300x-8.yaml --model Llama-3-70B", 0},
    {"mixtral-8x7b--2x-a100",
     "plan --host fixtures/hosts/dgx-a100.yaml --on cuda:0,cuda:1 --model Mixtral-8x7B", 0},
    {"llama3-8b--unknown-device", "plan --host fixtures/hosts/strix-halo.yaml --model Llama-3-8B",
     0},
    {"deepseek-v3--mi300x-8", "plan --host fixtures/hosts/mi300x-8.yaml --model DeepSeek-V3", 0},
    {"gpt-oss-120b--gx10", "plan --host fixtures/hosts/gx10.yaml --model gpt-oss-120B", 0},
    {"what-if--4090-remove-igpu-add-h100x2",
     "plan --host fixtures/hosts/rtx4090-amd-igpu.yaml --remove rocm:0 --remove cpu:0 --add "
     "h100-sxmx2 --model Llama-3-70B",
     0},
    {"llama3-70b--gaudi3-8", "plan --host fixtures/hosts/gaudi3-8.yaml --model Llama-3-70B", 0},
    {"llama3-8b--tpu-v5e-8", "plan --host fixtures/hosts/tpu-v5e-8.yaml --model Llama-3-8B", 0},
    {"train-llama3-8b-full-zero3--dgx-h100",
     "train --host fixtures/hosts/dgx-h100.yaml --model Llama-3-8B --method full --zero 3", 0},
    {"train-llama3-70b-qlora--gx10",
     "train --host fixtures/hosts/gx10.yaml --model Llama-3-70B --method qlora --checkpointing", 0},
    {"train-llama3-70b-lora-zero3--dgx-h100",
     "train --host fixtures/hosts/dgx-h100.yaml --model Llama-3-70B --method lora --zero 3", 11},
    {"cost-llama3-70b", "cost --model Llama-3-70B", 0},
};

class PlanGolden : public ::testing::TestWithParam<Case> {};

TEST_P(PlanGolden, OutputMatchesTheReviewedGolden) {
  const Case& c = GetParam();
  const std::string base =
      "cd " + testing::source_path("") + " && " + testing::bin("hwaccel") + " " + c.args;
  fs::path dir = testing::source_path("tests/golden/plans");
  for (bool json : {false, true}) {
    auto r = testing::run_command(base + (json ? " --json" : ""));
    EXPECT_EQ(r.exit_code, c.exit_code) << c.args << "\n" << r.err;
    EXPECT_EQ(r.err, "") << c.args;
    testing::compare_or_regenerate(dir / (std::string(c.name) + (json ? ".json" : ".txt")), r.out,
                                   "output");
  }
}

INSTANTIATE_TEST_SUITE_P(Plans, PlanGolden, ::testing::ValuesIn(kCases), [](const auto& info) {
  std::string n = info.param.name;
  for (char& ch : n)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return n;
});

}  // namespace
}  // namespace hwaccel
