// Numbers from the command line, snapshots, specs and faults (issue 18, items
// 15 and 20): a number out of range is a located error with its own exit
// code, never "internal error: stoi", std::bad_alloc, or undefined behaviour.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_test_util.h"

namespace hwaccel::testing {
namespace {

std::string in_repo(const std::string& args) {
  return "cd " + source_path("") + " && " + args;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// --timeout on every command that runs tools: only a finite number of seconds
// from 1 ms to one day. nan and 1e300 reached a cast to milliseconds
// (undefined behaviour); 1e-7 made every tool time out at once.
TEST(NumbersCli, TimeoutOutsideItsRangeIsAUsageError) {
  const std::vector<std::string> commands = {"detect", "devices", "export prometheus",
                                             "io --dataset 1G", "plan --model Llama-3-8B"};
  for (const auto& command : commands) {
    for (const std::string value : {"nan", "inf", "-inf", "1e300", "1e-7", "0", "-1", "5s"}) {
      auto r = run_command(in_repo(bin("hwaccel") + " " + command +
                                   " --host fixtures/hosts/cpu-only.yaml --timeout " + value));
      EXPECT_EQ(r.exit_code, 2) << command << " --timeout " << value << ": " << r.err;
      EXPECT_TRUE(has(r.err, "--timeout: expected a number from 0.001 to 86400 seconds"))
          << command << " --timeout " << value << ": " << r.err;
      EXPECT_TRUE(has(r.err, "got \"" + value + "\"")) << r.err;
      EXPECT_FALSE(has(r.err, "internal error")) << r.err;
    }
  }
}

TEST(NumbersCli, TimeoutAtTheEndsOfItsRangeIsAccepted) {
  for (const std::string value : {"0.001", "86400", "5", "1e-3"}) {
    auto r = run_command(
        in_repo(bin("hwaccel") + " detect --host fixtures/hosts/cpu-only.yaml --timeout " + value));
    EXPECT_EQ(r.exit_code, 0) << value << ": " << r.err;
  }
}

// fleet --fault-rate nan became 0 (CLI::Range compares, and nan passes).
TEST(NumbersCli, FleetRatesMustBeFiniteShares) {
  for (const std::string flag : {"--fault-rate", "--busy-rate"}) {
    for (const std::string value : {"nan", "inf", "-0.1", "1.5", "1e300"}) {
      auto r = run_command(
          in_repo(bin("hwsim") + " fleet --preset dgx-h100 -n 2 " + flag + " " + value));
      EXPECT_EQ(r.exit_code, 2) << flag << " " << value << ": " << r.err;
      EXPECT_TRUE(has(r.err, flag + ": expected a number from 0 to 1")) << r.err;
    }
  }
  auto ok = run_command(in_repo(bin("hwsim") + " fleet --preset dgx-h100 -n 2 --fault-rate 1"));
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
}

// --add h100-sxmx99999999999 ended in "internal error: stoi".
TEST(NumbersCli, AddCountOutOfRangeIsAUsageError) {
  for (const std::string spec :
       {"h100-sxmx99999999999", "h100-sxmx99999999999999999999", "h100-sxmx0", "h100-sxmx65"}) {
    auto r = run_command(in_repo(bin("hwaccel") +
                                 " plan --host fixtures/hosts/cpu-only.yaml --model Llama-3-8B "
                                 "--add " +
                                 spec));
    EXPECT_EQ(r.exit_code, 2) << spec << ": " << r.err;
    EXPECT_TRUE(has(r.err, "--add " + spec + ": the count after 'x' must be 1 to 64")) << r.err;
    EXPECT_FALSE(has(r.err, "internal error")) << r.err;
  }
  auto ok = run_command(
      in_repo(bin("hwaccel") + " plan --host fixtures/hosts/cpu-only.yaml --model Llama-3-8B --add "
                               "h100-sxmx16"));
  EXPECT_NE(ok.exit_code, 2) << ok.err;
  EXPECT_FALSE(has(ok.err, "internal error")) << ok.err;
}

// A snapshot's "Device Minor: 99999999999999999999" ended `export slurm` in
// "internal error: stol": it is not a device number, so the index is assumed
// and the note says why, naming the file.
TEST(NumbersCli, HugeDeviceMinorIsNotedNotFatal) {
  std::string text = read_text(source_path("fixtures/hosts/ws-4090-busy.yaml"));
  const std::string minor = "Device Minor: \t 0";
  auto at = text.find(minor);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, minor.size(), "Device Minor: \t 99999999999999999999");
  const std::string dir = make_temp_dir();
  write_text(dir + "/host.yaml", text);
  auto r = run_command(bin("hwaccel") + " export slurm --host " + dir + "/host.yaml");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(has(r.err, "internal error")) << r.err;
  EXPECT_TRUE(has(r.out, "Name=gpu Type=rtx_4090 File=/dev/nvidia0\n")) << r.out;
  EXPECT_TRUE(has(r.out,
                  "/information: Device Minor \"99999999999999999999\" is not a device "
                  "number (0-1048575); index assumed"))
      << r.out;
}

// mutate --fault flood:...=1T ran into std::bad_alloc (400M took 4 GB and 17 s).
TEST(NumbersCli, FloodBeyondTheCapIsALocatedError) {
  const std::string dir = make_temp_dir();
  for (const std::string fault : {"flood:nvidia-smi=1T", "garbage:nvidia-smi=300M",
                                  "garbage:/proc/cpuinfo=1T", "flood:nvidia-smi=99999999T"}) {
    auto r =
        run_command(in_repo(bin("hwsim") + " mutate fixtures/hosts/ws-4090-busy.yaml --fault " +
                            quote(fault) + " -o " + dir + "/out.yaml"));
    EXPECT_NE(r.exit_code, 0) << fault;
    EXPECT_NE(r.exit_code, 1) << fault << ": " << r.err;  // not an internal error
    EXPECT_TRUE(has(r.err, "is more than the 256 MiB a fault may generate") ||
                has(r.err, "is not a byte count"))
        << fault << ": " << r.err;
    EXPECT_TRUE(has(r.err, fault.substr(0, fault.find('=')))) << r.err;  // names the fault
    EXPECT_LT(r.seconds, 20) << fault;
  }
}

// "h100-sxm x99999" built a 565 MB snapshot that replay refused.
TEST(NumbersCli, SpecCountOutsideOneToSixtyFourIsLocated) {
  const std::string dir = make_temp_dir();
  const std::string head =
      "schema: hwsim-spec/1\nlabel: big\ncpu: {model: X, uarch: sapphire-rapids}\n"
      "accelerators:\n";
  struct Case {
    std::string body;
    std::string error;
  };
  const std::vector<Case> cases = {
      {"  - h100-sxm x99999\n",
       "spec.yaml:5:5: accelerators[0]: \"x99999\" is out of range (x1 to x64)"},
      {"  - h100-sxm x0\n", "spec.yaml:5:5: accelerators[0]: \"x0\" is out of range (x1 to x64)"},
      {"  - h100-sxm x99999999999999999999\n",
       "accelerators[0]: \"x99999999999999999999\" is out of range"},
      {"  - h100-sxm x64\n  - h100-sxm x64\n  - a100-sxm4-80gb x1\n",
       "spec.yaml:7:5: accelerators[2]: 129 devices in all; a host has at most 128"},
  };
  for (const auto& c : cases) {
    write_text(dir + "/spec.yaml", head + c.body);
    auto r = run_command("cd " + dir + " && " + bin("hwsim") + " synth spec.yaml -o out.yaml");
    EXPECT_EQ(r.exit_code, 4) << c.body << r.err;
    EXPECT_TRUE(has(r.err, c.error)) << c.body << r.err;
  }
}

// 128 devices in all is the most; each has a PCI address that exists.
TEST(NumbersCli, SpecAtTheDeviceLimitReplays) {
  const std::string dir = make_temp_dir();
  write_text(
      dir + "/spec.yaml",
      "schema: hwsim-spec/1\nlabel: big\ncpu: {model: X, uarch: sapphire-rapids}\n"
      "accelerators:\n  - h100-sxm x64\n  - {sku: a100-sxm4-80gb, count: 64, bus: [" +
          [] {
            std::string list;
            for (int b = 0xc0; b < 0x100; ++b) {
              char buf[16];
              std::snprintf(buf, sizeof buf, "\"%02x\"", b);
              list += (list.empty() ? "" : ", ") + std::string(buf);
            }
            return list;
          }() +
          "]}\n");
  auto synth = run_command("cd " + dir + " && " + bin("hwsim") + " synth spec.yaml -o out.yaml");
  ASSERT_EQ(synth.exit_code, 0) << synth.err;
  auto r = run_command("cd " + dir + " && " + bin("hwaccel") + " detect --host out.yaml --json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // Every address is DDDD:BB:DD.F: none past bus ff ("0000:108:00.0").
  const std::regex id("\"bus_id\": \"([^\"]*)\"");
  const std::regex address("[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-9a-f]");
  std::set<std::string> seen;
  for (std::sregex_iterator it(r.out.begin(), r.out.end(), id), end; it != end; ++it) {
    EXPECT_TRUE(std::regex_match((*it)[1].str(), address)) << (*it)[1];
    seen.insert((*it)[1]);
  }
  EXPECT_EQ(seen.size(), 128u);
}

}  // namespace
}  // namespace hwaccel::testing
