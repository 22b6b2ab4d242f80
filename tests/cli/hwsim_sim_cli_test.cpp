// End-to-end tests of hwsim synth, mutate, check and fleet.
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/cli/cli_test_util.h"

namespace hwaccel::testing {
namespace {

std::string fixture_count() {
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(source_path("fixtures/hosts")))
    n += e.path().extension() == ".yaml";
  return std::to_string(n);
}

TEST(HwsimSynthCli, APresetReplaysAsItsFixture) {
  std::string dir = make_temp_dir();
  auto r = run_command(bin("hwsim") + " synth --preset gx10 -o " + dir + "/gx10.yaml");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto replay = run_command(bin("hwsim") + " replay --strict " + dir + "/gx10.yaml");
  ASSERT_EQ(replay.exit_code, 0) << replay.err;
  EXPECT_NE(replay.out.find("NVIDIA GB10"), std::string::npos) << replay.out;
  EXPECT_NE(replay.out.find("119.7 GiB unified (MemTotal), 116.1 GiB free"), std::string::npos)
      << replay.out;
  auto list = run_command(bin("hwsim") + " synth --list-presets");
  EXPECT_NE(list.out.find("dgx-h100\n"), std::string::npos);
}

TEST(HwsimSynthCli, ASpecFileAndItsLocatedErrors) {
  std::string dir = make_temp_dir();
  write_text(dir + "/ok.yaml",
             "schema: hwsim-spec/1\ncpu: {model: \"AMD EPYC 9654 96-Core Processor\", uarch: "
             "zen4, sockets: 2, cores: 96, threads: 2}\naccelerators: [mi300x x8]\n");
  auto r = run_command(bin("hwsim") + " synth " + dir + "/ok.yaml");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("schema: hwaccel-snapshot/1"), std::string::npos);
  EXPECT_NE(r.out.find("AMD Instinct MI300X"), std::string::npos);
  write_text(dir + "/bad.yaml",
             "schema: hwsim-spec/1\ncpu: {model: X, uarch: zen4}\n"
             "accelerators: [h100 x8]\n");
  auto bad = run_command(bin("hwsim") + " synth " + dir + "/bad.yaml");
  EXPECT_EQ(bad.exit_code, 4);
  EXPECT_NE(bad.err.find("bad.yaml:3:16: accelerators[0]: unknown SKU \"h100\""), std::string::npos)
      << bad.err;
  auto unknown = run_command(bin("hwsim") + " synth --preset nope");
  EXPECT_EQ(unknown.exit_code, 2);
}

TEST(HwsimMutateCli, UnloadingTheDriverOfTheDgxH100) {
  std::string dir = make_temp_dir();
  auto r = run_command(bin("hwsim") + " mutate " + source_path("fixtures/hosts/dgx-h100.yaml") +
                       " --fault unload:nvidia --fault free:host=1G -o " + dir + "/broken.yaml");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto replay = run_command(bin("hwsim") + " replay " + dir + "/broken.yaml");
  ASSERT_EQ(replay.exit_code, 0) << replay.err;
  EXPECT_NE(replay.out.find("unavailable  driver-not-found: NVIDIA-SMI has failed because it "
                            "couldn't communicate with the NVIDIA driver"),
            std::string::npos)
      << replay.out;
  EXPECT_NE(replay.out.find("1.0 GiB free"), std::string::npos) << replay.out;
  auto nothing =
      run_command(bin("hwsim") + " mutate " + source_path("fixtures/hosts/cpu-only.yaml") +
                  " --fault hang:hl-smi -o " + dir + "/x.yaml");
  EXPECT_EQ(nothing.exit_code, 2);
  EXPECT_NE(nothing.err.find("the snapshot holds no run of \"hl-smi\""), std::string::npos)
      << nothing.err;
  auto syntax =
      run_command(bin("hwsim") + " mutate " + source_path("fixtures/hosts/cpu-only.yaml") +
                  " --fault explode:x -o " + dir + "/x.yaml");
  EXPECT_EQ(syntax.exit_code, 2);
  EXPECT_NE(syntax.err.find("unknown fault kind \"explode\""), std::string::npos) << syntax.err;
}

TEST(HwsimCheckCli, PassesOnTheFixturesAndDiffsAChangedGolden) {
  auto ok = run_command("cd " + source_path("") + " && " + bin("hwsim") +
                        " check --jobs 2 fixtures/hosts");
  ASSERT_EQ(ok.exit_code, 0) << ok.out << ok.err;
  EXPECT_NE(ok.out.find(fixture_count() + " passed, 0 failed\n"), std::string::npos) << ok.out;
  EXPECT_TRUE(ok.err.empty()) << "no progress bar when stderr is not a terminal: " << ok.err;

  std::string dir = make_temp_dir();
  ASSERT_EQ(run_command(bin("hwsim") + " synth --preset cpu-only -o " + dir + "/a.yaml").exit_code,
            0);
  ASSERT_EQ(run_command(bin("hwsim") + " synth --preset gx10 -o " + dir + "/b.yaml").exit_code, 0);
  auto missing = run_command(bin("hwsim") + " check " + dir);
  EXPECT_EQ(missing.exit_code, 10);
  EXPECT_NE(missing.out.find("0 passed, 2 failed"), std::string::npos) << missing.out;
  auto update = run_command(bin("hwsim") + " check --update " + dir);
  EXPECT_EQ(update.exit_code, 0) << update.out;
  EXPECT_NE(update.out.find("2 passed, 0 failed, 8 files updated"), std::string::npos)
      << update.out;
  auto again = run_command(bin("hwsim") + " check " + dir);
  EXPECT_EQ(again.exit_code, 0) << again.out;
  EXPECT_NE(again.out.find("2 passed, 0 failed"), std::string::npos);

  auto golden = slurp(dir + "/b.expected/detect.txt");
  ASSERT_TRUE(golden);
  write_text(dir + "/b.expected/detect.txt",
             "host nobody\n" + golden->substr(golden->find('\n') + 1));
  auto diff = run_command(bin("hwsim") + " check " + dir);
  EXPECT_EQ(diff.exit_code, 10);
  EXPECT_NE(diff.out.find("FAIL b: detect.txt differs"), std::string::npos) << diff.out;
  EXPECT_NE(diff.out.find("-host nobody\n+host gx10-lab"), std::string::npos) << diff.out;
  EXPECT_NE(diff.out.find("1 passed, 1 failed"), std::string::npos) << diff.out;
  auto bar = run_command(bin("hwsim") + " check --progress always " + dir);
  EXPECT_NE(bar.err.find("2/2"), std::string::npos) << bar.err;
}

TEST(HwsimFleetCli, AggregatesADrawnFleetAndAFolder) {
  auto r = run_command(bin("hwsim") + " fleet --preset dgx-h100 --count 200 --seed 3 --jobs 2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("fleet: 200 hosts"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("8x NVIDIA H100 80GB HBM3"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("reserve-exceeds-free"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cuda: NVIDIA H100 80GB HBM3"), std::string::npos) << r.out;
  auto same = run_command(bin("hwsim") + " fleet --preset dgx-h100 --count 200 --seed 3 --jobs 1");
  EXPECT_EQ(r.out, same.out) << "the same seed must give the same fleet";
  auto dir = run_command(bin("hwsim") + " fleet " + source_path("fixtures/hosts"));
  ASSERT_EQ(dir.exit_code, 0) << dir.err;
  EXPECT_NE(dir.out.find("fleet: " + fixture_count() + " hosts"), std::string::npos) << dir.out;
  EXPECT_NE(dir.out.find("cpu-only"), std::string::npos) << dir.out;
  auto model = run_command(bin("hwsim") + " fleet --preset gx10 --model llama --quant q4");
  EXPECT_EQ(model.exit_code, 2) << model.out;
  EXPECT_NE(model.err.find("llama"), std::string::npos) << model.err;
}

// --model: each host is planned as `hwaccel plan --host FILE` plans it, and the table
// counts hosts by the outcome; the words agree with hwaccel plan on the same host.
TEST(HwsimFleetCli, SaysWhichHostsCanServeAModel) {
  auto r = run_command(bin("hwsim") + " fleet --preset dgx-h100 --count 100 --seed 5 --jobs 2" +
                       " --model Llama-3-70B --quant fp16");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("SERVES Llama-3-70B fp16"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("fits: tensor x"), std::string::npos) << r.out;
  auto same = run_command(bin("hwsim") + " fleet --preset dgx-h100 --count 100 --seed 5 --jobs 1" +
                          " --model Llama-3-70B --quant fp16");
  EXPECT_EQ(r.out, same.out);

  auto dir = run_command(bin("hwsim") + " fleet " + source_path("fixtures/hosts") +
                         " --model Llama-3.1-405B --quant fp16");
  ASSERT_EQ(dir.exit_code, 0) << dir.err;
  EXPECT_NE(dir.out.find("does not fit: short by up to"), std::string::npos) << dir.out;
  // One host checked against hwaccel plan: the same verdict.
  const std::string one_dir = make_temp_dir();
  auto text = slurp(source_path("fixtures/hosts/cpu-only.yaml"));
  ASSERT_TRUE(text);
  write_text(one_dir + "/cpu-only.yaml", *text);
  auto one = run_command(bin("hwsim") + " fleet " + one_dir + " --model Llama-3-8B --quant q4_0");
  auto plan =
      run_command(bin("hwaccel") + " plan --host " + source_path("fixtures/hosts/cpu-only.yaml") +
                  " --model Llama-3-8B --quant q4_0");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  const bool fleet_fits = one.out.find("fits: ") != std::string::npos &&
                          one.out.find("does not fit") == std::string::npos;
  EXPECT_EQ(fleet_fits, plan.exit_code == 0) << one.out << plan.out;

  auto bad = run_command(bin("hwsim") + " fleet --preset gx10 --model Llama-3-8B --quant q3");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--quant q3: unknown"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace hwaccel::testing
