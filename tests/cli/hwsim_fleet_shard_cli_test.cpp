// End-to-end: `hwsim fleet --shard K/N -o PART` on every K, then `hwsim fleet
// merge`, prints what the single run prints, text and JSON, byte for byte;
// and a merge refuses parts that are broken or do not make one fleet.
#include <gtest/gtest.h>

#include "tests/cli/cli_test_util.h"

namespace hwaccel::testing {
namespace {

const std::string kFleet = " fleet --preset ws-4090-busy --count 30 --seed 9 --fault-rate 0.4";

// Runs every shard of N into the new folder OUT as part-K.json; returns OUT.
std::string run_shards(const std::string& out, int n, const std::string& fleet = kFleet) {
  EXPECT_EQ(run_command("mkdir " + out).exit_code, 0);
  for (int k = 0; k < n; ++k) {
    auto r = run_command(bin("hwsim") + fleet + " --jobs 2 --shard " + std::to_string(k) + "/" +
                         std::to_string(n) + " -o " + out + "/part-" + std::to_string(k) + ".json");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "") << "a shard's result goes to -o";
  }
  return out;
}

TEST(HwsimFleetShardCli, MergedShardsPrintTheSingleRunsReport) {
  const std::string dir = make_temp_dir();
  auto text = run_command(bin("hwsim") + kFleet);
  auto json = run_command(bin("hwsim") + kFleet + " --json");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_NE(json.out.find("\"schema\": \"hwsim-fleet/1\""), std::string::npos) << json.out;
  for (int n : {1, 2, 3, 7, 31}) {  // 31: more shards than hosts
    const std::string parts = run_shards(dir + "/" + std::to_string(n), n);
    // Files in any order, or the folder.
    std::string files;
    for (int k = n - 1; k >= 0; --k) files += " " + parts + "/part-" + std::to_string(k) + ".json";
    auto merged = run_command(bin("hwsim") + " fleet merge" + files);
    ASSERT_EQ(merged.exit_code, 0) << merged.err;
    EXPECT_EQ(merged.out, text.out) << n << " shards";
    auto merged_json = run_command(bin("hwsim") + " fleet merge --json " + parts);
    ASSERT_EQ(merged_json.exit_code, 0) << merged_json.err;
    EXPECT_EQ(merged_json.out, json.out) << n << " shards";
  }
  // With a verdict column (--model): the title and its rows travel too.
  const std::string planned = kFleet + " --model Llama-3-8B --quant q4_0";
  auto single = run_command(bin("hwsim") + planned);
  ASSERT_EQ(single.exit_code, 0) << single.err;
  EXPECT_NE(single.out.find("SERVES Llama-3-8B q4_0"), std::string::npos) << single.out;
  auto merged = run_command(bin("hwsim") + " fleet merge " + run_shards(dir + "/m", 3, planned));
  EXPECT_EQ(merged.out, single.out);
}

TEST(HwsimFleetShardCli, RefusesPartsThatDoNotMakeOneFleet) {
  const std::string dir = make_temp_dir();
  const std::string a = run_shards(dir + "/a", 3);
  auto merge = [](const std::string& args) {
    return run_command(bin("hwsim") + " fleet merge " + args);
  };
  auto missing = merge(a + "/part-0.json " + a + "/part-2.json");
  EXPECT_EQ(missing.exit_code, 4);
  EXPECT_EQ(missing.err, "error: 1 of 3 shards missing: 1/3\n");
  auto twice = merge(a + " " + a + "/part-1.json");
  EXPECT_EQ(twice.exit_code, 4);
  EXPECT_EQ(twice.err,
            "error: " + a + "/part-1.json: shard 1/3 again (also " + a + "/part-1.json)\n");
  auto other = run_command(bin("hwsim") +
                           " fleet --preset ws-4090-busy --count 30 --seed 10 --fault-rate 0.4"
                           " --shard 1/3 -o " +
                           dir + "/s.json");
  ASSERT_EQ(other.exit_code, 0) << other.err;
  auto seed = merge(a + "/part-0.json " + dir + "/s.json " + a + "/part-2.json");
  EXPECT_EQ(seed.exit_code, 4);
  EXPECT_EQ(seed.err, "error: " + dir + "/s.json: a shard of another fleet than " + a +
                          "/part-0.json: seed 10 here, 9 there\n");
  write_text(dir + "/broken.json", "{\n  \"schema\": \"hwsim-fleet-part/1\",\n  oops\n}\n");
  auto broken = merge(dir + "/broken.json");
  EXPECT_EQ(broken.exit_code, 4);
  EXPECT_EQ(broken.err.rfind("error: " + dir + "/broken.json:3:3: not JSON: ", 0), 0u)
      << broken.err;
  auto report = run_command(bin("hwsim") + kFleet + " --json");
  write_text(dir + "/report.json", report.out);
  auto not_part = merge(dir + "/report.json");
  EXPECT_EQ(not_part.err, "error: " + dir +
                              "/report.json: schema: expected \"hwsim-fleet-part/1\", not "
                              "\"hwsim-fleet/1\" (written by another version of hwsim?)\n");
  EXPECT_EQ(merge("/dev/zero").exit_code, 4) << "a device is never read";
  EXPECT_EQ(merge(dir + "/none.json").exit_code, 4);
  EXPECT_EQ(run_command("mkdir " + dir + "/empty").exit_code, 0);
  EXPECT_EQ(merge(dir + "/empty").err, "error: " + dir + "/empty: no *.json parts in it\n");

  auto usage = [](const std::string& args) { return run_command(bin("hwsim") + args); };
  auto k_too_big = usage(kFleet + " --shard 3/3 -o " + dir + "/x.json");
  EXPECT_EQ(k_too_big.exit_code, 2);
  EXPECT_NE(k_too_big.err.find("K must be 0 to 2 (0-based"), std::string::npos) << k_too_big.err;
  EXPECT_EQ(usage(kFleet + " --shard 1/3").exit_code, 2) << "a shard needs -o";
  EXPECT_EQ(usage(kFleet + " -o " + dir + "/x.json").exit_code, 2) << "-o needs --shard";
  EXPECT_EQ(usage(" fleet " + source_path("fixtures/hosts") + " --shard 0/2 -o " + dir + "/x.json")
                .exit_code,
            2)
      << "a folder is not drawn";
}

}  // namespace
}  // namespace hwaccel::testing
