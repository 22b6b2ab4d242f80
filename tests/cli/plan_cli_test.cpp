// End-to-end errors of `hwaccel plan`: bad inputs name the file and the key or
// place; unknown names list the known ones; does-not-fit has its exit code.
#include <gtest/gtest.h>

#include "tests/cli/cli_test_util.h"

namespace hwaccel::testing {
namespace {

std::string hw(const std::string& args) {
  return "cd " + source_path("") + " && " + bin("hwaccel") + " " + args;
}

TEST(PlanCli, BadConfigJsonNamesFileAndKey) {
  std::string dir = make_temp_dir();
  write_text(dir + "/config.json",
             R"({"num_hidden_layers": 32, "hidden_size": "wide", "num_attention_heads": 32})");
  auto r =
      run_command(hw("plan --host fixtures/hosts/cpu-only.yaml --model " + dir + "/config.json"));
  EXPECT_EQ(r.exit_code, 4);
  EXPECT_EQ(r.err,
            "error: " + dir +
                "/config.json: key \"hidden_size\": expected a positive integer, got \"wide\"\n");
  EXPECT_EQ(r.out, "");
}

TEST(PlanCli, UnknownModelListsKnownNames) {
  auto r = run_command(hw("plan --host fixtures/hosts/cpu-only.yaml --model Llama-5-1T"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown model \"Llama-5-1T\"; known: Llama-2-7B"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("Mixtral-8x7B"), std::string::npos);
}

TEST(PlanCli, BadCatalogueIsLocated) {
  std::string dir = make_temp_dir();
  write_text(dir + "/devices.toml", "format = \"hwaccel-devices/1\"\nsku = 3\nbogus = 1\n");
  auto r = run_command(hw("plan --host fixtures/hosts/cpu-only.yaml --model Llama-3-8B --devices " +
                          dir + "/devices.toml"));
  EXPECT_EQ(r.exit_code, 4);
  EXPECT_NE(r.err.find(dir + "/devices.toml:3:1: bogus: unknown key"), std::string::npos) << r.err;
}

TEST(PlanCli, DoesNotFitExitCode) {
  auto r = run_command(hw("plan --host fixtures/hosts/gx10.yaml --model Llama-3.1-405B"));
  EXPECT_EQ(r.exit_code, 11) << r.err;
  EXPECT_NE(r.out.find("does not fit: needs "), std::string::npos);
  EXPECT_NE(r.out.find("fits on: "), std::string::npos);
}

TEST(PlanCli, UnknownAddListsSkus) {
  auto r =
      run_command(hw("plan --host fixtures/hosts/cpu-only.yaml --model Llama-3-8B --add h900x2"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--add h900x2: expected SKU[xN] with a catalogue id; known: h100-sxm"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace hwaccel::testing
