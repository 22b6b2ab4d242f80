// End to end: a program run on a simulated host asks nvidia-smi what the snapshot
// never recorded, and gets what the real tool would print there, checked against
// what `hwaccel detect --host` says of the same host (sim/emulate/, docs/hwsim.md).
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <nlohmann/json.hpp>

#include "src/host/sandbox_runner.h"
#include "tests/cli/cli_test_util.h"

namespace hwaccel::testing {
namespace {

namespace fs = std::filesystem;

std::string fixture(const std::string& name) {
  return source_path("fixtures/hosts/" + name + ".yaml");
}

// The whole GPUs hwaccel sees on the host, by index.
std::vector<nlohmann::json> cuda_gpus(const std::string& host) {
  auto r = run_command(bin("hwaccel") + " detect --json --host " + fixture(host));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<nlohmann::json> gpus;
  const auto doc = nlohmann::json::parse(r.out);
  for (const auto& d : doc["devices"])
    if (d["backend"] == "cuda" && d["partition"].is_null()) gpus.push_back(d);
  return gpus;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at < text.size()) {
    auto nl = text.find('\n', at);
    out.push_back(text.substr(at, nl - at));
    if (nl == std::string::npos) break;
    at = nl + 1;
  }
  return out;
}

// `script` must hold no single quote (it is passed as one sh word in them).
std::string run_on(const std::string& host, const std::string& script, std::string* err = nullptr,
                   const std::string& flags = "") {
  auto r = run_command(bin("hwsim") + " run" + flags + " " + fixture(host) + " -- sh -c " +
                       quote(script));
  if (err) *err = r.err;
  return r.out;
}

TEST(HwsimEmulate, DgxH100AnswersUnrecordedQueriesAsDetectionSeesIt) {
  auto gpus = cuda_gpus("dgx-h100");
  ASSERT_EQ(gpus.size(), 8u);
  std::string err;
  auto out = run_on("dgx-h100",
                    "nvidia-smi --query-gpu=uuid,name,memory.total,pci.bus_id "
                    "--format=csv,noheader,nounits; nvidia-smi -i 5 -L; nvidia-smi -q | grep -c "
                    "\"^GPU 0000\"; nvidia-smi --query-gpu=fan.colour --format=csv; echo \"rc $?\"",
                    &err);
  auto lines = split_lines(out);
  ASSERT_GE(lines.size(), 12u) << out << err;
  for (std::size_t i = 0; i < 8; ++i) {
    const auto& g = gpus[i];
    std::string bus = g["pci"]["bus_id"];
    std::string upper;
    for (char c : bus) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    const std::uint64_t mib = g["memory"]["total_bytes"].get<std::uint64_t>() / (1024 * 1024);
    EXPECT_EQ(lines[i], std::string(g["uuid"]) + ", " + std::string(g["name"]) + ", " +
                            std::to_string(mib) + ", 0000" + upper);
  }
  EXPECT_EQ(lines[8], "GPU 5: NVIDIA H100 80GB HBM3 (UUID: " + std::string(gpus[5]["uuid"]) + ")");
  EXPECT_EQ(lines[9], "8");
  EXPECT_EQ(lines[10], "Field \"fan.colour\" is not a valid field to query.");
  EXPECT_EQ(lines.back(), "rc 2");
  // The report names each synthesised answer, and only those (-L -i 5 is one of them).
  EXPECT_NE(err.find("hwsim run: synthesised: nvidia-smi -i 5 -L (from the device model)\n"),
            std::string::npos)
      << err;
}

TEST(HwsimEmulate, Gx10MemoryIsNotAvailableAsOnTheRealOne) {
  auto out = run_on("gx10",
                    "nvidia-smi --query-gpu=name,memory.total,memory.free --format=csv,noheader; "
                    "nvidia-smi | grep -c \"Not Supported\"");
  EXPECT_EQ(out, "NVIDIA GB10, [N/A], [N/A]\n1\n");
}

TEST(HwsimEmulate, H100MigListsTheInstancesHwaccelSees) {
  auto r = run_command(bin("hwaccel") + " detect --json --host " + fixture("h100-mig"));
  std::vector<std::string> mig_uuids;
  const auto doc = nlohmann::json::parse(r.out);
  for (const auto& d : doc["devices"])
    if (d["backend"] == "cuda" && !d["partition"].is_null()) mig_uuids.push_back(d["uuid"]);
  ASSERT_EQ(mig_uuids.size(), 4u);
  // -L and -q are recorded; these spellings are not.
  auto out = run_on("h100-mig",
                    "nvidia-smi --list-gpus -i 0; nvidia-smi -q -x | grep -c \"<mig_device>\"");
  for (const auto& uuid : mig_uuids) EXPECT_NE(out.find("(UUID: " + uuid + ")"), std::string::npos);
  EXPECT_NE(out.find("\n4\n"), std::string::npos) << out;
}

TEST(HwsimEmulate, MissingDriverFailsEveryArgvAsTheRealTool) {
  auto out =
      run_on("nvidia-no-driver", "nvidia-smi -L; echo \"rc $?\"; nvidia-smi -q -x; echo \"rc $?\"");
  const std::string failed =
      "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure "
      "that the latest NVIDIA driver is installed and running.\n\n";
  EXPECT_EQ(out, failed + "rc 9\n" + failed + "rc 9\n");
}

TEST(HwsimEmulate, WorksWithoutANamespaceAndInAMaterializedTree) {
  std::string err;
  auto out = run_on("gx10", "nvidia-smi -q -d MEMORY | grep -c \"FB Memory Usage\"", &err,
                    " --no-namespace");
  EXPECT_EQ(out, "1\n") << err;
  EXPECT_NE(err.find("hwsim run: synthesised: nvidia-smi -q -d MEMORY"), std::string::npos) << err;
  const fs::path tree =
      fs::temp_directory_path() / ("hwsim-emulate-test-" + std::to_string(::getpid()));
  fs::remove_all(tree);
  // gx10: a small tree (a big host's is thousands of files on disk).
  auto m = run_command(bin("hwsim") + " materialize " + fixture("gx10") + " " + tree.string());
  ASSERT_EQ(m.exit_code, 0) << m.err;
  auto r = run_command("sh -c " + quote(". " + tree.string() +
                                        "/.hwsim/env.sh && nvidia-smi --query-gpu=count "
                                        "--format=csv,noheader -i 0"));
  EXPECT_EQ(r.out, "1\n") << r.err;
  EXPECT_EQ(slurp(tree.string() + "/.hwsim/synthesised").value_or(""),
            "nvidia-smi --query-gpu=count --format=csv,noheader -i 0 (from the device model)\n");
  fs::remove_all(tree);
}

// A vendor tool the snapshot never ran answers too where the host has that
// vendor's devices: the rocm probe reads sysfs, so no AMD fixture records rocm-smi,
// amd-smi or rocminfo. A tool recorded as not found (nvidia-smi here) stays so.
TEST(HwsimEmulate, UnrecordedAmdToolsAnswerWhereTheHostHasAmdGpus) {
  auto r = run_command(bin("hwaccel") + " detect --json --host " + fixture("mi300x-8"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::set<std::string> buses;
  const auto detected = nlohmann::json::parse(r.out);
  for (const auto& d : detected["devices"])
    if (d["backend"] == "rocm" && d["partition"].is_null()) buses.insert(d["pci"]["bus_id"]);
  ASSERT_EQ(buses.size(), 8u);
  std::string err;
  auto json = run_on("mi300x-8", "rocm-smi --showbus --json", &err);
  auto doc = nlohmann::json::parse(json, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << json << err;
  std::set<std::string> shown;
  for (const auto& [card, fields] : doc.items())
    if (card.rfind("card", 0) == 0 && fields.contains("PCI Bus")) {
      std::string bus = fields["PCI Bus"];
      for (auto& c : bus) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      shown.insert(bus);
    }
  EXPECT_EQ(shown, buses) << json;
  EXPECT_NE(err.find("hwsim run: synthesised: rocm-smi --showbus --json (from the device model)"),
            std::string::npos)
      << err;
  auto missing = run_on("mi300x-8", "command -v nvidia-smi || echo none");
  EXPECT_EQ(missing, "none\n");
}

}  // namespace
}  // namespace hwaccel::testing
