// End-to-end tests of `hwsim import`, `diff`, `materialize` and `run`: programs we
// did not write (a shell script, a small C++ program, hwaccel itself) run on
// simulated hosts and see them.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "src/host/process_runner.h"
#include "src/host/sandbox_runner.h"
#include "tests/cli/cli_test_util.h"

namespace hwaccel::testing {
namespace {

namespace fs = std::filesystem;

std::string fixture(const std::string& name) {
  return source_path("fixtures/hosts/" + name + ".yaml");
}

std::string hwsim_run(const std::string& host, const std::string& command) {
  return bin("hwsim") + " run " + fixture(host) + " -- " + command;
}

#define REQUIRE_NAMESPACE()                                                              \
  if (!private_mounts_available())                                                       \
  GTEST_SKIP() << "no private mount namespace here (neither root nor unprivileged user " \
                  "namespaces): `hwsim run` only reports what it cannot cover; see docs/hwsim.md"

// nvidia-smi's CSV query on the GB10, as the fixture records it.
const std::string kGx10Query =
    "index, uuid, pci.bus_id, name, memory.total [MiB], memory.used [MiB], memory.free [MiB], "
    "compute_cap, driver_version\n"
    "0, GPU-e73ebcc4-f277-c4ab-62ef-80e072915837, 0000000F:01:00.0, NVIDIA GB10, [N/A], [N/A], "
    "[N/A], 12.1, 580.95.05\n";

// hwsim run names what depends on the machine it runs on: files the snapshot does
// not record that this machine has and could not hide, its kernel and CPU count
// where they differ from the host's (a namespace cannot change them), tools it has
// that the snapshot records as missing, device nodes a user namespace may not make,
// this machine's mounts a user namespace may not take out of the new root.
// Nothing else may be said.
std::string without_leak_notes(const std::string& err) {
  std::string out;
  std::size_t pos = 0;
  while (pos < err.size()) {
    std::size_t nl = err.find('\n', pos);
    if (nl == std::string::npos) nl = err.size() - 1;
    const std::string line = err.substr(pos, nl + 1 - pos);
    bool about_this_machine =
        line.find(" is not in the snapshot and exists on this machine") != std::string::npos ||
        line.rfind("hwsim run: limits: ", 0) == 0 ||
        line.find(" is recorded as not found; this machine has ") != std::string::npos ||
        line.rfind("hwsim run: note: env: this machine's ", 0) == 0 ||
        line.find(" stay in /proc/self/mountinfo: ") != std::string::npos;
    if (!about_this_machine) out += line;
    pos = nl + 1;
  }
  return out;
}

TEST(HwsimRun, ShellScriptSeesTheGx10) {
  REQUIRE_NAMESPACE();
  auto r = run_command(hwsim_run("gx10", "sh " + source_path("tests/cli/host_reader.sh")));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "MemTotal: 125508468 kB\n"
            "drm: none\n"  // the fixture records no /sys/class/drm: the real one is hidden
            "nvidia-smi exit 0: " +
                kGx10Query +
                "/dev/nvidia0: present\n"
                "hostname: gx10-lab\n");
  EXPECT_EQ(without_leak_notes(r.err), "");
}

TEST(HwsimRun, CppProgramSeesTheGx10) {
  REQUIRE_NAMESPACE();
  auto r = run_command(hwsim_run("gx10", bin("host_reader")));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "MemTotal: 125508468 kB\n"
            "drm: No such file or directory\n"
            "nvidia-smi exit 0: " +
                kGx10Query);
}

TEST(HwsimRun, ProgramsSeeTheMissingDriver) {
  REQUIRE_NAMESPACE();
  const std::string failed =
      "nvidia-smi exit 9: NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA "
      "driver. Make sure that the latest NVIDIA driver is installed and running.\n";
  auto script =
      run_command(hwsim_run("nvidia-no-driver", "sh " + source_path("tests/cli/host_reader.sh")));
  ASSERT_EQ(script.exit_code, 0) << script.err;
  EXPECT_EQ(script.out,
            "MemTotal: 2112948142 kB\n"
            "drm: none\n" +
                failed +
                "/dev/nvidia0: absent\n"
                "hostname: dgx-h100-02\n");
  auto program = run_command(hwsim_run("nvidia-no-driver", bin("host_reader")));
  ASSERT_EQ(program.exit_code, 0) << program.err;
  EXPECT_EQ(program.out,
            "MemTotal: 2112948142 kB\n"
            "drm: No such file or directory\n" +
                failed + "\n");
}

TEST(HwsimRun, ProgramsListTheSimulatedDrm) {
  REQUIRE_NAMESPACE();
  auto r = run_command(hwsim_run("mi300x-8", bin("host_reader")));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("drm: card0 card0-VGA-1 card1 card2 card3 card4 card5 card6 card7 card8 "
                       "renderD128 renderD129 renderD130 renderD131 renderD132 renderD133 "
                       "renderD134 renderD135 version\n"),
            std::string::npos)
      << r.out;
}

TEST(HwsimRun, ExitCodesSignalsAndUnrecordedArgv) {
  auto exit7 = run_command(hwsim_run("gx10", "sh -c 'exit 7'"));
  EXPECT_EQ(exit7.exit_code, 7) << exit7.err;
  auto killed = run_command(hwsim_run("gx10", "sh -c 'kill -TERM $$'"));
  EXPECT_EQ(killed.exit_code, 128 + 15) << killed.err;
  // Never recorded: nvidia-smi has an emulator, which answers from the device model
  // and is named in the run's report (tests/cli/hwsim_emulate_cli_test.cpp has more).
  auto miss = run_command(hwsim_run("gx10", "nvidia-smi -q"));
  EXPECT_EQ(miss.exit_code, 0) << miss.err;
  EXPECT_NE(miss.out.find("    Product Name                                       : NVIDIA GB10\n"),
            std::string::npos)
      << miss.out;
  EXPECT_NE(miss.err.find("hwsim run: synthesised: nvidia-smi -q (from the device model)\n"),
            std::string::npos)
      << miss.err;
  auto none = run_command(hwsim_run("gx10", "no-such-program-here"));
  EXPECT_EQ(none.exit_code, 127);
  EXPECT_NE(none.err.find("no-such-program-here: command not found"), std::string::npos);
}

TEST(HwsimRun, NothingStaysMountedOrBehind) {
  auto before = slurp("/proc/self/mountinfo").value_or("");
  // A TMPDIR of its own: other tests running at the same time make their own trees.
  std::string tmp = make_temp_dir();
  auto r = run_command("TMPDIR=" + tmp + " " +
                       hwsim_run("gx10", "sh -c 'cat /proc/meminfo >/dev/null; kill -KILL $$'"));
  EXPECT_EQ(r.exit_code, 128 + 9);
  EXPECT_EQ(slurp("/proc/self/mountinfo").value_or(""), before);
  EXPECT_TRUE(fs::is_empty(tmp)) << "the materialized tree was left in " << tmp;
  fs::remove_all(tmp);
}

// What the command leaves running (a background job, a daemon that left its
// session) ends with the run: when hwsim returns, none of it is left, and hwsim
// did not wait for it to end by itself. Its exit status is the command's.
TEST(HwsimRun, WhatTheCommandLeftRunningEndsWithTheRun) {
  REQUIRE_NAMESPACE();
  // Durations no other process uses, to find them in /proc.
  const std::string mark = "3" + std::to_string(::getpid() % 10000) + ".25";
  const std::string mark2 = "4" + std::to_string(::getpid() % 10000) + ".25";
  const auto started = std::chrono::steady_clock::now();
  auto r = run_command(hwsim_run("gx10", "sh -c 'sleep " + mark + " >/dev/null 2>&1 & "
                                         "(setsid sleep " + mark2 + " >/dev/null 2>&1 &); exit 5'"));
  const auto took = std::chrono::steady_clock::now() - started;
  EXPECT_EQ(r.exit_code, 5) << r.err;
  EXPECT_LT(took, std::chrono::seconds(20)) << "the run waited for what the command left";
  std::vector<std::string> left;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string pid = entry.path().filename();
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string cmdline = slurp(entry.path() / "cmdline").value_or("");
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    if (cmdline.find(mark) != std::string::npos || cmdline.find(mark2) != std::string::npos)
      left.push_back(pid + ": " + cmdline);
  }
  EXPECT_TRUE(left.empty()) << "still running after the run: " << left.front();
}

// hwsim's own lines come before anything the command says on the same stderr,
// and the ones after it (what was synthesised) after: held and written in order.
TEST(HwsimRun, ItsLinesComeBeforeTheCommandsOnStderr) {
  REQUIRE_NAMESPACE();
  auto r = run_command(bin("hwsim") + " run -v " + fixture("gx10") +
                       " -- sh -c 'echo from-the-command >&2; nvidia-smi -q >/dev/null'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Said by hwsim itself before the run (the namespace's PID 1 says "covered:").
  const auto last_covered = r.err.rfind("hwsim run: CUDA is simulated: ");
  const auto command = r.err.find("from-the-command\n");
  const auto synthesised = r.err.find("hwsim run: synthesised: nvidia-smi -q");
  ASSERT_NE(last_covered, std::string::npos) << r.err;
  ASSERT_NE(command, std::string::npos) << r.err;
  ASSERT_NE(synthesised, std::string::npos) << r.err;
  EXPECT_LT(last_covered, command) << r.err;
  EXPECT_GT(synthesised, command) << r.err;
}

// Not root: the mounts come from an unprivileged user namespace, and the command
// keeps its own uid; where the kernel refuses that, the run says what it could not cover.
TEST(HwsimRun, UnprivilegedThroughAUserNamespaceOrSaysWhy) {
  if (::geteuid() != 0 || !fs::exists("/usr/bin/setpriv"))
    GTEST_SKIP() << "needs root and setpriv to run hwsim as nobody";
  // A checkout in a folder only root may enter (`mktemp -d` makes it 0700) is
  // out of nobody's reach, hwsim and the fixture with it: nothing to test there.
  const std::string nobody = "setpriv --reuid=65534 --regid=65534 --clear-groups ";
  if (run_command(nobody + "test -x " + bin("hwsim") + " -a -r " + fixture("gx10")).exit_code != 0)
    GTEST_SKIP() << "user 65534 cannot reach " << bin("hwsim") << " or " << fixture("gx10")
                 << " (a folder above them is closed to others)";
  auto r = run_command(nobody + hwsim_run("gx10", "sh -c 'id -u; grep MemTotal /proc/meminfo'"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  if (r.err.find("hwsim run: no private mount namespace (") != std::string::npos) {
    EXPECT_NE(r.err.find("hwsim run: not covered: /proc/meminfo\n"), std::string::npos) << r.err;
    return;
  }
  EXPECT_EQ(r.out, "65534\nMemTotal:       125508468 kB\n");
  EXPECT_EQ(without_leak_notes(r.err), "");
}

TEST(HwsimRun, WithoutANamespaceItSaysWhatIsNotCovered) {
  auto r =
      run_command(bin("hwsim") + " run --no-namespace " + fixture("gx10") + " -- nvidia-smi -L");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "GPU 0: NVIDIA GB10 (UUID: GPU-e73ebcc4-f277-c4ab-62ef-80e072915837)\n");
  EXPECT_NE(r.err.find("hwsim run: no private mount namespace (--no-namespace was given)"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("hwsim run: not covered: /sys (the simulated one is at "),
            std::string::npos);
  EXPECT_NE(r.err.find("hwsim run: not covered: /proc/meminfo\n"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("hwsim run: not covered: /proc/driver/nvidia/version\n"), std::string::npos);
}

// Files the probes read outside the mounted trees that the snapshot does not record
// show through from this machine: the run names each one that exists here.
TEST(HwsimRun, NamesUnrecordedFilesThatShowThrough) {
  auto r = run_command(bin("hwsim") + " run --no-namespace " + fixture("gx10") + " -- true");
  for (const char* path : {"/.dockerenv", "/run/.containerenv"}) {
    const bool said =
        r.err.find(std::string("hwsim run: not covered: ") + path +
                   " is not in the snapshot and exists on this machine") != std::string::npos;
    EXPECT_EQ(said, fs::exists(path)) << path << "\n" << r.err;
  }
}

// A tool the snapshot records as not found must not run for real when this machine
// has it on the simulated PATH: a shim answers as a missing command does.
TEST(HwsimRun, ARecordedMissingToolDoesNotRunForReal) {
  const std::string dir = make_temp_dir();
  std::filesystem::create_directories(dir + "/bin");
  write_text(dir + "/bin/fake-smi", "#!/bin/sh\necho REAL TOOL RAN\n");
  ASSERT_EQ(::chmod((dir + "/bin/fake-smi").c_str(), 0755), 0);
  write_text(dir + "/host.yaml",
             "schema: hwaccel-snapshot/1\nhost: {label: t, origin: hand-written}\n"
             "facts: {os: linux, arch: x86_64, kernel: \"6.8.0\", page_size: 4096, cpus: 2, "
             "hostname: t}\nenv: {PATH: \"" +
                 dir +
                 "/bin:/usr/bin:/bin\"}\nfiles: {}\n"
                 "tools:\n  - argv: [fake-smi, \"-L\"]\n    outcome: not-found\n");
  // On this machine's PATH (the command's PATH is this machine's, after the shims).
  auto r = run_command("env PATH=" + dir + "/bin:/usr/bin:/bin " + bin("hwsim") +
                       " run --no-namespace " + dir +
                       "/host.yaml -- sh -c 'fake-smi -L; echo status=$?'");
  EXPECT_EQ(r.out.find("REAL TOOL RAN"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("status=127"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("fake-smi: not found"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("hwsim run: fake-smi is recorded as not found; this machine has " + dir +
                       "/bin/fake-smi"),
            std::string::npos)
      << r.err;
}

// What a live run takes from the kernel's uname and page size, and the clock, is not
// a file: no mount changes it. Everything else — the CPU count included (glibc reads
// /sys/devices/system/cpu/online), the hostname (a UTS namespace) — must be the replay's.
nlohmann::json without_kernel_facts(const std::string& text) {
  auto doc = nlohmann::json::parse(text);
  doc.erase("discovered_at");
  for (const char* key : {"arch", "kernel", "page_size"}) doc["host"].erase(key);
  // Container markers at the root (/.dockerenv of the CI container the tests run in)
  // show through `hwsim run` where the snapshot names no such file: not the host's.
  if (doc.contains("system") && doc["system"].contains("environment"))
    for (const char* key : {"container", "container_evidence", "summary"})
      doc["system"]["environment"].erase(key);
  // `hwsim run` writes /sys/devices/system/cpu/online from facts.cpus where the
  // snapshot has none (materialize.cpp): the count agrees, the file named differs.
  if (doc.contains("system") && doc["system"].contains("resources"))
    doc["system"]["resources"]["host"].erase("cpus_source");
  return doc;
}

// `hwsim run` presents a kernel-shaped tree (sim/kernel_fill*): CPU topology and NUMA
// node folders the snapshot implies but did not record. Where the replay knows a
// count, the live run must agree; where it knows none, the fill's is not a
// disagreement. Which file gave the topology differs by construction.
void without_filled_topology(nlohmann::json& live, nlohmann::json& replay) {
  for (auto* doc : {&live, &replay})
    if (doc->contains("system") && (*doc)["system"].contains("resources"))
      for (const char* part : {"host", "usable"})
        (*doc)["system"]["resources"][part].erase("topology_source");
  if (!replay.contains("system") || !replay["system"].contains("resources")) return;
  for (const char* part : {"host", "usable"}) {
    auto& r = replay["system"]["resources"][part];
    auto& l = live["system"]["resources"][part];
    for (const char* key : {"cores", "sockets", "numa_nodes", "numa_source"})
      if (r.contains(key) && r[key].is_null()) {
        r.erase(key);
        l.erase(key);
      }
  }
}

// A host with no Vulkan driver: the run points the loader at a manifest that is
// not there (this machine's drivers must not show), so a live probe says so, where
// a replay, which has no such variable, says its recording did. Both must be
// unavailable with no device; then only the reason may differ.
void same_vulkan_verdict_without_driver(nlohmann::json& live, nlohmann::json& replay) {
  auto vulkan = [](nlohmann::json& doc) -> nlohmann::json* {
    if (!doc.contains("backends")) return nullptr;
    for (auto& b : doc["backends"])
      if (b.value("name", "") == "vulkan") return &b;
    return nullptr;
  };
  nlohmann::json* l = vulkan(live);
  nlohmann::json* r = vulkan(replay);
  if (!l || !r || !(*l)["reason"].is_object()) return;
  const std::string detail = (*l)["reason"].value("detail", "");
  if (detail.rfind("VK_DRIVER_FILES=", 0) != 0 ||
      detail.find("/.hwsim/no-vulkan-driver") == std::string::npos)
    return;
  EXPECT_EQ((*l)["status"], "unavailable");
  EXPECT_EQ((*r)["status"], "unavailable") << "the run hid a Vulkan driver the replay found";
  EXPECT_EQ((*l)["devices"], 0);
  (*l)["reason"] = (*r)["reason"];
}

class HwsimRunDetect : public ::testing::TestWithParam<std::string> {};

// Hosts a live run on this Linux machine cannot become: another OS (facts.os darwin is
// the kernel's answer, not a file), a node whose EACCES a root run does not meet, or
// a host whose Vulkan verdict rests on its driver-manifest folders and manifests
// (/etc, /usr: not covered by `hwsim run`, so a live run there does not trust them and
// asks vulkaninfo, which those recordings never ran).
const std::vector<std::string> kNotRunnable = {"mac-studio-m2-ultra", "macbook-pro-m3-max",
                                               "meteor-lake-npu-denied", "vulkan-no-manifest",
                                               "llvmpipe-mesa"};

TEST_P(HwsimRunDetect, LiveDetectionUnderRunEqualsReplay) {
  if (std::find(kNotRunnable.begin(), kNotRunnable.end(), GetParam()) != kNotRunnable.end())
    GTEST_SKIP() << GetParam() << " cannot be reproduced by a live run here";
  REQUIRE_NAMESPACE();
  auto replay = run_command(bin("hwsim") + " replay --json " + fixture(GetParam()));
  ASSERT_EQ(replay.exit_code, 0) << replay.err;
  // The nvidia-smi path, as the recordings took it: under `hwsim run` the simulated
  // libnvidia-ml would answer hwaccel-nvml first (that path is compared with this
  // one by nvml_path.same_entries).
  auto live =
      run_command(hwsim_run(GetParam(), "env HWACCEL_NVML=0 " + bin("hwaccel") + " detect --json"));
  ASSERT_EQ(live.exit_code, 0) << live.err;
  auto a = without_kernel_facts(live.out), b = without_kernel_facts(replay.out);
  without_filled_topology(a, b);
  same_vulkan_verdict_without_driver(a, b);
  EXPECT_EQ(a.dump(2), b.dump(2));
}

INSTANTIATE_TEST_SUITE_P(Fixtures, HwsimRunDetect, ::testing::ValuesIn(fixture_host_names()),
                         [](const auto& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

TEST(HwsimMaterialize, WritesTheTreeAndShims) {
  std::string dir = make_temp_dir() + "/gx10";
  auto r = run_command(bin("hwsim") + " materialize " + fixture("gx10") + " " + dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(slurp(dir + "/proc/driver/nvidia/version").value_or("").rfind("NVRM version: ", 0), 0u);
  auto shim = run_command(dir + "/.hwsim/bin/nvidia-smi -L");
  EXPECT_EQ(shim.out, "GPU 0: NVIDIA GB10 (UUID: GPU-e73ebcc4-f277-c4ab-62ef-80e072915837)\n");
  // hwaccel on the tree (--root) with the shims on PATH is the replay, too. The rest
  // of PATH holds only what the shims run (cat): this machine's own tools (its
  // vulkaninfo, which the gx10 lacks) must not answer for the host.
  fs::create_directories(dir + ".bin");
  fs::create_symlink(find_executable("cat", "/usr/bin:/bin").value_or("/bin/cat"),
                     dir + ".bin/cat");
  auto live = run_command("PATH=" + dir + "/.hwsim/bin:" + dir + ".bin " + bin("hwaccel") +
                          " detect --json --root " + dir);
  auto replay = run_command(bin("hwsim") + " replay --json " + fixture("gx10"));
  auto a = without_kernel_facts(live.out), b = without_kernel_facts(replay.out);
  without_filled_topology(a, b);
  // Without a namespace the hostname and CPU count are this machine's.
  for (const char* key : {"hostname", "cpus"}) {
    a["host"].erase(key);
    b["host"].erase(key);
  }
  // vulkaninfo: the replay says the recorded "not found on PATH"; under --root the
  // tree has no vulkaninfo, so it is not run and the line says why (issue 35).
  for (auto* doc : {&a, &b}) {
    auto& backends = (*doc)["backends"];
    for (auto it = backends.begin(); it != backends.end(); ++it)
      if ((*it)["name"] == "vulkan") {
        if (doc == &a) {
          EXPECT_NE((*it)["reason"]["detail"].get<std::string>().find("vulkaninfo: not run"),
                    std::string::npos)
              << it->dump();
        }
        backends.erase(it);
        break;
      }
  }
  EXPECT_EQ(a.dump(2), b.dump(2));
  auto again = run_command(bin("hwsim") + " materialize " + fixture("gx10") + " " + dir);
  EXPECT_EQ(again.exit_code, 5);  // not an empty folder
  fs::remove_all(fs::path(dir).parent_path());
}

TEST(HwsimDiff, SnapshotsAndReports) {
  auto same = run_command(bin("hwsim") + " diff " + fixture("gx10") + " " + fixture("gx10"));
  EXPECT_EQ(same.exit_code, 0);
  EXPECT_EQ(same.out, "no differences\n");
  auto diff = run_command(bin("hwsim") + " diff " + fixture("nvidia-no-driver") + " " +
                          fixture("nvidia-mismatch"));
  EXPECT_EQ(diff.exit_code, 1) << diff.err;
  EXPECT_NE(diff.out.find("\ntools: ~ nvidia-smi "), std::string::npos) << diff.out;
  EXPECT_EQ(run_command(bin("hwsim") + " diff " + fixture("nvidia-no-driver") + " " +
                        fixture("nvidia-mismatch"))
                .out,
            diff.out);  // deterministic
  std::string a = source_path("fixtures/hosts/gx10.expected/detect.json");
  std::string b = source_path("fixtures/hosts/gh200.expected/detect.json");
  auto reports = run_command(bin("hwsim") + " diff " + a + " " + b);
  EXPECT_EQ(reports.exit_code, 1);
  EXPECT_NE(reports.out.find("devices[cuda:0].name: \"NVIDIA GB10\" -> \"NVIDIA GH200"),
            std::string::npos)
      << reports.out;
  auto mixed = run_command(bin("hwsim") + " diff " + a + " " + fixture("gx10"));
  EXPECT_EQ(mixed.exit_code, 2);
  auto missing = run_command(bin("hwsim") + " diff " + a + " /nonexistent.yaml");
  EXPECT_EQ(missing.exit_code, 4);
  // A number beyond a double is an out_of_range, not a parse_error: still an
  // error message, never std::terminate (the same bug the fuzzers found twice).
  std::string dir = make_temp_dir();
  write_text(dir + "/overflow.json", "{\"devices\": 1e999}\n");
  auto overflow = run_command(bin("hwsim") + " diff " + dir + "/overflow.json " + a);
  EXPECT_EQ(overflow.exit_code, 4) << overflow.err;
  EXPECT_NE(overflow.err.find("overflow.json: not valid JSON"), std::string::npos) << overflow.err;
  // Nested 200,000 deep: refused, where the differ's recursion overflowed the stack.
  write_text(dir + "/deep.json",
             "{\"backends\": " + std::string(200000, '[') + std::string(200000, ']') + "}");
  auto deep = run_command(bin("hwsim") + " diff " + dir + "/deep.json " + dir + "/deep.json");
  EXPECT_EQ(deep.exit_code, 4) << deep.err;
  EXPECT_NE(deep.err.find("JSON nested more than 64 deep"), std::string::npos) << deep.err;
  fs::remove_all(dir);
}

TEST(HwsimImport, HwlocTarballWithAToolOutput) {
  std::string archive = real_capture_path("hwloc-40intel64-4n10c+pci-conflicts.tar.bz2");
  if (!fs::exists(archive)) GTEST_FAIL() << "real capture not found: " << archive;
  // tmpfs when there is one: extracting 9,000 files to a busy disk takes 30 s.
  auto shm = run_command("mktemp -d /dev/shm/hwsim-import-XXXXXX");
  std::string dir = shm.exit_code == 0 ? shm.out.substr(0, shm.out.find('\n')) : make_temp_dir();
  ASSERT_EQ(run_command("tar -xjf '" + archive + "' -C " + dir).exit_code, 0);
  write_text(dir + "/list.txt", "GPU 0: NVIDIA H200 (UUID: GPU-0)\n");
  auto r = run_command(bin("hwsim") + " import --root " + dir +
                       "/40intel64-4n10c+pci-conflicts --tool 'nvidia-smi -L=" + dir +
                       "/list.txt' --tool-exit 'nvidia-smi -q=9' -o " + dir + "/host.yaml");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("note: facts.page_size: assumed 4096"), std::string::npos) << r.err;
  auto replay = run_command(bin("hwsim") + " replay " + dir + "/host.yaml");
  EXPECT_EQ(replay.exit_code, 0) << replay.err;
  EXPECT_NE(replay.out.find("linux x86_64"), std::string::npos) << replay.out;
  EXPECT_NE(replay.out.find("40 cpus"), std::string::npos) << replay.out;
  auto shim =
      run_command(bin("hwsim") + " run --no-namespace " + dir + "/host.yaml -- nvidia-smi -L");
  EXPECT_EQ(shim.out, "GPU 0: NVIDIA H200 (UUID: GPU-0)\n");
  auto bad = run_command(bin("hwsim") + " import --root " + dir +
                         "/40intel64-4n10c+pci-conflicts/proc --tool 'nvidia-smi -L' -o " + dir +
                         "/x.yaml");
  EXPECT_EQ(bad.exit_code, 4);
  EXPECT_NE(bad.err.find("--tool 'nvidia-smi -L': expected ARGV=FILE"), std::string::npos)
      << bad.err;
  fs::remove_all(dir);
}

// A 32-bit ARM tree shaped like hwloc's 2arm-2c (hwloc-gather names only "arm"),
// without an online list: the import and `detect --root` both say what the tree
// is, not what this machine is, and a replay says once that tool runs are missing.
TEST(HwsimImport, TreeFactsAndOneImportWarning) {
  std::string dir = make_temp_dir();
  auto put = [&](const std::string& path, const std::string& text) {
    fs::create_directories(fs::path(dir + path).parent_path());
    write_text(dir + path, text);
  };
  put("/t/proc/hwloc-nofile-info",
      "OSRelease: 3.0.8-mop500\nHostName: snowball\nArchitecture: arm\nPageSize: 4096\n");
  put("/t/proc/cpuinfo",
      "Processor\t: ARMv7 Processor rev 1 (v7l)\nprocessor\t: 0\n\nprocessor\t: 1\n\n"
      "CPU implementer\t: 0x41\nCPU architecture: 7\n");
  put("/t/proc/meminfo", "MemTotal:         280824 kB\n");
  for (const char* cpu : {"cpu0", "cpu1", "cpu2"})
    put("/t/sys/devices/system/cpu/" + std::string(cpu) + "/topology/core_id", "0\n");
  put("/t/sys/devices/system/cpu/cpu2/online", "0\n");  // offline: not counted
  auto r =
      run_command(bin("hwsim") + " import --no-redact --root " + dir + "/t -o " + dir + "/t.yaml");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("facts.page_size: assumed"), std::string::npos) << r.err;
  auto replay = run_command(bin("hwsim") + " replay " + dir + "/t.yaml");
  EXPECT_EQ(replay.exit_code, 0) << replay.err;
  EXPECT_NE(replay.out.find("host snowball: linux armv7l, kernel 3.0.8-mop500, 2 cpus"),
            std::string::npos)
      << replay.out;
  EXPECT_EQ(replay.out.find("disagree"), std::string::npos) << replay.out;
  const std::string once = "warning: host: imported tree: no tool output was imported";
  auto at = replay.out.find(once);
  EXPECT_NE(at, std::string::npos) << replay.out;
  EXPECT_EQ(replay.out.find("imported tree", at + once.size()), std::string::npos) << replay.out;

  auto live = run_command(bin("hwaccel") + " detect --only cpu --root " + dir + "/t");
  EXPECT_EQ(live.exit_code, 0) << live.err;
  EXPECT_NE(live.out.find("host snowball: linux armv7l, kernel 3.0.8-mop500, 2 cpus"),
            std::string::npos)
      << live.out;
  fs::remove_all(dir);
}

// --page-size 3000 was accepted and wrote a snapshot no reader takes back (issue 18).
TEST(HwsimImport, PageSizeMustBeOneASnapshotMayHold) {
  std::string dir = make_temp_dir();
  fs::create_directories(dir + "/root/proc");
  write_text(dir + "/root/proc/meminfo", "MemTotal: 1000 kB\n");
  for (const std::string bad : {"3000", "512", "-4096", "2147483648", "99999999999999999999"}) {
    auto r = run_command(bin("hwsim") + " import --root " + dir + "/root --page-size " + bad +
                         " -o " + dir + "/x.yaml");
    EXPECT_EQ(r.exit_code, 2) << bad << ": " << r.err;
    EXPECT_NE(r.err.find("--page-size"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir + "/x.yaml")) << bad;
  }
  auto ok = run_command(bin("hwsim") + " import --root " + dir + "/root --page-size 65536 -o " +
                        dir + "/ok.yaml");
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(run_command(bin("hwsim") + " replay " + dir + "/ok.yaml").exit_code, 0);
  fs::remove_all(dir);
}

// --latency: a run recorded at 200 ms takes at least that long through the shim
// (a lower bound only: a slow machine adds, it never takes away). No namespace is
// needed for the shims, so this runs everywhere.
TEST(HwsimRun, LatencyMakesAShimTakeTheRecordedTime) {
  const std::string dir = make_temp_dir();
  write_text(dir + "/host.yaml",
             "schema: hwaccel-snapshot/1\nhost: {label: t, origin: hand-written}\n"
             "facts: {os: linux, arch: x86_64, kernel: \"6.8.0\", page_size: 4096, cpus: 2, "
             "hostname: t}\nenv: {PATH: \"/usr/bin:/bin\"}\nfiles: {}\n"
             "tools:\n  - argv: [slow-smi, \"-L\"]\n    stdout: \"GPU 0\\n\"\n    ms: 200\n");
  const auto start = std::chrono::steady_clock::now();
  auto r = run_command(bin("hwsim") + " run --no-namespace --latency " + dir +
                       "/host.yaml -- slow-smi -L");
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "GPU 0\n");
  EXPECT_GE(took, std::chrono::milliseconds(200));

  // materialize --latency writes the same wait into the shim.
  auto m =
      run_command(bin("hwsim") + " materialize --latency " + dir + "/host.yaml " + dir + "/tree");
  ASSERT_EQ(m.exit_code, 0) << m.err;
  std::ifstream in(dir + "/tree/.hwsim/bin/slow-smi");
  std::stringstream shim;
  shim << in.rdbuf();
  EXPECT_NE(shim.str().find("sleep' 0.200\n"), std::string::npos) << shim.str();
  fs::remove_all(dir);
}

// Nothing of this machine leaks: its container markers are hidden (the snapshot's
// own are shown), PID 1's cgroup and the kernel's identity files are the host's,
// a tool the host lacks is not found even where this machine has it, device nodes
// are character devices (this machine's /dev/null: no driver of it is reachable), and
// a shim for `test` leaves unrecorded argv to the real one.
TEST(HwsimRun, NothingOfThisMachineLeaks) {
  REQUIRE_NAMESPACE();
  const std::string script =
      "sh -c 'test -e /.dockerenv && echo docker; test -e /run/.containerenv && echo podman; "
      "cat /proc/1/cgroup /proc/sys/kernel/osrelease; cut -d\" \" -f1-3 /proc/version; "
      "command -v vulkaninfo >/dev/null || echo no-vulkaninfo; "
      "test -c /dev/nvidia0 && stat -c %t:%T:%a /dev/nvidia0; "
      "env test -d / && echo real-test'";
  auto gx10 = run_command(hwsim_run("gx10", script));
  ASSERT_EQ(gx10.exit_code, 0) << gx10.err;
  EXPECT_EQ(gx10.out,
            "0::/\n6.17.0-1014-nvidia\nLinux version 6.17.0-1014-nvidia\nno-vulkaninfo\n"
            "1:3:666\nreal-test\n")
      << gx10.err;
  auto docker =
      run_command(hwsim_run("aws-p5-docker", "sh -c 'test -e /.dockerenv && echo docker'"));
  EXPECT_EQ(docker.out, "docker\n") << docker.err;
}

}  // namespace
}  // namespace hwaccel::testing
