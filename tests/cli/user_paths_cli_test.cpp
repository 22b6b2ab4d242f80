// A path the user types is relative to the working folder, as every shell
// tool's is: `plan --model ./cfg.json`, `--devices data/devices.toml`,
// `cost --instances prices.toml` (these said "not an absolute path").
#include <gtest/gtest.h>

#include "tests/cli/cli_test_util.h"

namespace hwaccel::testing {
namespace {

constexpr const char* kConfig =
    R"({"model_type": "llama", "num_hidden_layers": 32, "hidden_size": 4096,
    "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
    "vocab_size": 128256, "tie_word_embeddings": false, "torch_dtype": "bfloat16"})";

// A working folder holding the user's files under relative names, and a snapshot.
struct Workdir {
  std::string dir = make_temp_dir();
  Workdir() {
    write_text(dir + "/cfg.json", kConfig);
    ::mkdir((dir + "/data").c_str(), 0755);
    write_text(dir + "/data/devices.toml", slurp(source_path("data/devices.toml")).value_or(""));
    write_text(dir + "/data/instances.toml",
               slurp(source_path("data/instances.toml")).value_or(""));
    write_text(dir + "/h100.yaml", slurp(source_path("fixtures/hosts/dgx-h100.yaml")).value_or(""));
  }
  CommandResult run(const std::string& args) const {
    return run_command("cd " + dir + " && " + bin("hwaccel") + " " + args);
  }
};

void expect_read(const CommandResult& r, const std::string& args) {
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 11) << args << ": exit " << r.exit_code << "\n"
                                                     << r.err;
  EXPECT_EQ(r.err.find("not an absolute path"), std::string::npos) << args << "\n" << r.err;
  EXPECT_EQ(r.err.find("error:"), std::string::npos) << args << "\n" << r.err;
}

TEST(UserPathsCli, PlanReadsRelativeModelAndDevicesFiles) {
  Workdir w;
  for (const std::string& args : {
           std::string("plan --host h100.yaml --model ./cfg.json"),
           std::string("plan --host h100.yaml --model cfg.json"),
           std::string("plan --host h100.yaml --model Llama-3-8B --devices data/devices.toml"),
           std::string("plan --host ./h100.yaml --model data/../cfg.json --devices "
                       "./data/devices.toml --json"),
       }) {
    auto r = w.run(args);
    expect_read(r, args);
    EXPECT_NE(r.out.find("H100"), std::string::npos) << args << "\n" << r.out;
  }
  // The plan of a relative config is the plan of the same file named absolutely
  // (but for the model's origin, which says the name as typed).
  auto relative = w.run("plan --host h100.yaml --model ./cfg.json --json");
  auto absolute = w.run("plan --host h100.yaml --model " + w.dir + "/cfg.json --json");
  EXPECT_EQ(relative.exit_code, absolute.exit_code);
  std::string same = relative.out;
  auto origin = same.find("\"./cfg.json\"");
  ASSERT_NE(origin, std::string::npos) << same;
  same.replace(origin, 12, "\"" + w.dir + "/cfg.json\"");
  EXPECT_EQ(same, absolute.out);
  // A missing relative file is named as the user typed it.
  auto missing = w.run("plan --host h100.yaml --model ./nope.json");
  EXPECT_EQ(missing.exit_code, 4);
  EXPECT_NE(missing.err.find("error: --model ./nope.json: "), std::string::npos) << missing.err;
}

TEST(UserPathsCli, CostAndTrainReadRelativeFiles) {
  Workdir w;
  for (const std::string& args : {
           std::string("cost --model ./cfg.json --instances data/instances.toml"),
           std::string("cost --model Llama-3-8B --devices data/devices.toml --instances "
                       "./data/instances.toml --json"),
           std::string("train --host h100.yaml --model ./cfg.json --devices data/devices.toml"),
       }) {
    auto r = w.run(args);
    expect_read(r, args);
    EXPECT_FALSE(r.out.empty()) << args;
  }
  auto cost = w.run("cost --model Llama-3-8B --instances data/instances.toml --json");
  EXPECT_NE(cost.out.find("\"instances_catalogue\": \"data/instances.toml\""), std::string::npos)
      << cost.out;
}

// The kernel tree, its golden and its recording, all named relatively; the
// recording replays with the same relative DIR from the same folder.
TEST(UserPathsCli, KernelPlanTakesRelativeTreeGoldenAndRecording) {
  Workdir w;
  ASSERT_EQ(
      run_command("cp -r " + source_path("fixtures/kernels") + " " + w.dir + "/kern").exit_code, 0);
  const std::string args = "plan --kernels kern --hardware h100-sxm --model ./cfg.json";
  auto live = w.run(args + " --record-tree kt.yaml");
  ASSERT_EQ(live.exit_code, 0) << live.err;
  write_text(w.dir + "/golden.md", live.out);
  auto checked = w.run(args + " --check golden.md");
  EXPECT_EQ(checked.exit_code, 0) << checked.out << checked.err;
  auto replay = w.run("plan --host kt.yaml --kernels kern --hardware h100-sxm --model ./cfg.json");
  EXPECT_EQ(replay.exit_code, 0) << replay.err;
  EXPECT_EQ(replay.out, live.out);
  auto dotted =
      w.run("plan --host ./kt.yaml --kernels ./kern/ --hardware h100-sxm --model cfg.json");
  EXPECT_EQ(dotted.exit_code, 0) << dotted.err;
}

}  // namespace
}  // namespace hwaccel::testing
