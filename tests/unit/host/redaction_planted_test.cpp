// The planted-identifier host (issue 18, item 18): every fixture host with
// every kind of identifier planted in every kind of file and tool output the
// recorder keeps (sysfs and /proc files, DMI, cgroup and mountinfo,
// nvidia-smi CSV and -q, vulkaninfo and the other tools' output, environment
// values), recorded through RecordingHost as `detect --record` does. Not one
// planted identifier may survive in the redacted recording, and every one must
// survive when redaction is off (--no-redact), which also proves that the
// planted text was recorded at all.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "src/host/recording_host.h"
#include "src/host/redaction.h"
#include "src/host/snapshot_host.h"
#include "src/registry/detection.h"
#include "src/snapshot/snapshot_codec.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

const std::string kContainer = "4f3c2b1a09e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2";
const std::string kContainer2 = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9a";

// Each planted identifier, as the text that must not survive (compared
// case-insensitively).
const std::vector<std::string>& secrets() {
  static const std::vector<std::string> all = {
      "BRD-SN-7731X",                          // Board serial: (mixed case key)
      "QX81-22Z9",                             // serial: X
      "SNQ4410077",                            // S/N: X
      "1654922001111",                         // nvidia-smi -q Serial Number
      "3C-FD-FE-A1-B2-C3",                     // MAC with dashes
      "3cfdfea1b2c4",                          // bare 12-hex MAC
      "a0:36:9f:aa:bb:cc",                     // MAC with colons
      "8f6e3c2a1b4d4e5f9a7b0c1d2e3f4a5b",      // 32-hex UUID (vulkaninfo)
      "5d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d",  // GPU UUID
      "0002c903000a1b2c",                      // 0x GUID (ibstat)
      "0002:c903:000a:1b2d",                   // GUID (ibv_devinfo)
      "10.20.30.41",                           // IPv4 on a line with no "ip"/"addr"
      "fd00:1234:5678::42",                    // IPv6 likewise
      "1a2b3c4d_5e6f_4a0b_8c9d_0e1f2a3b4c5d",  // pod UID, systemd form
      "7e8f9a0b-1c2d-4e3f-8a9b-0c1d2e3f4a5b",  // pod UID, cgroupfs form
      kContainer,                              // container ids
      kContainer2,
      "alice",      // HOME=/srv/alice
      "jenkins",    // USER=jenkins: /var/lib/jenkins
      "gpunode17",  // the hostname
  };
  return all;
}

// Files that are one identifier. No probe reads them, so they are checked in
// the whole planted snapshot redacted (what `hwsim import` does), not in the
// recording.
const std::map<std::string, std::string>& identifier_files() {
  static const std::map<std::string, std::string> files = {
      {"/sys/class/dmi/id/product_serial", "PRD-SERIAL-88123"},
      {"/sys/class/dmi/id/chassis_serial", "CHS-77-A19"},
      {"/sys/class/dmi/id/product_uuid", "4c4c4544-0042-3510-8052-b4c04f4e5a32"},
      {"/sys/class/dmi/id/board_asset_tag", "i-0abc123def4567890"},
      {"/etc/machine-id", "3f1e0c8a9b7d4e2f8a6b5c4d3e2f1a0b"},
      {"/sys/block/nvme0n1/device/serial", "S6EWNS0T123456"},
  };
  return files;
}

// Where `secret` occurs in `yaml` (lower-cased), with a little context, for a
// failure message that does not print the whole snapshot.
std::string context(const std::string& yaml, const std::string& secret) {
  auto at = yaml.find(secret);
  if (at == std::string::npos) return "";
  std::size_t from = at > 80 ? at - 80 : 0;
  return "..." + yaml.substr(from, 200) + "...";
}

// One block with every identifier in the form some tool or file prints it.
std::string planted_block() {
  return "Board serial: BRD-SN-7731X\n"
         "serial: QX81-22Z9\n"
         "S/N: SNQ4410077\n"
         "    Serial Number                         : 1654922001111\n"
         "port 3C-FD-FE-A1-B2-C3 hw 3cfdfea1b2c4 ether a0:36:9f:aa:bb:cc\n"
         "\tdeviceUUID         = 8f6e3c2a1b4d4e5f9a7b0c1d2e3f4a5b\n"
         "GPU 0: NVIDIA H100 (UUID: GPU-5d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d)\n"
         "Node GUID: 0x0002c903000a1b2c\n"
         "node_guid 0002:c903:000a:1b2d\n"
         "reached 10.20.30.41 in 3 ms, then fd00:1234:5678::42\n"
         "0::/kubepods.slice/kubepods-besteffort-pod1a2b3c4d_5e6f_4a0b_8c9d_0e1f2a3b4c5d.slice/"
         "cri-containerd-" +
         kContainer +
         ".scope\n"
         "/kubepods/burstable/pod7e8f9a0b-1c2d-4e3f-8a9b-0c1d2e3f4a5b/" +
         kContainer2 +
         "\n"
         "cache /srv/alice/.cache and /var/lib/jenkins/workspace on gpunode17\n";
}

Snapshot planted_host(Snapshot s) {
  s.facts.hostname = "gpunode17";
  s.host.label = "gpunode17";
  // Into every multi-line file and every tool output: multi-line text is where
  // probes parse line by line, so the extra lines leave the rest readable.
  for (auto& [path, entry] : s.files)
    if (entry.kind == FileEntry::Kind::content &&
        std::count(entry.bytes.begin(), entry.bytes.end(), '\n') >= 2)
      entry.bytes += planted_block();
  for (auto& [argv, tool] : s.tools) {
    if (!tool.run.out.empty()) tool.run.out += planted_block();
    tool.run.err += planted_block();
  }
  // Files that are one identifier, and the container files.
  for (const auto& [path, value] : identifier_files())
    s.files[path] = FileEntry::of_content(value + "\n");
  for (const char* path : {"/proc/1/cgroup", "/proc/self/cgroup", "/proc/self/mountinfo"})
    s.files[path] = FileEntry::of_content(planted_block());
  // The environment: user names outside /home, addresses, device UUIDs.
  std::string path = s.env.count("PATH") ? s.env["PATH"] : "/usr/bin:/bin";
  s.env["PATH"] = "/var/lib/jenkins/bin:/srv/alice/.local/bin:" + path;
  s.env["HOME"] = "/srv/alice";
  s.env["USER"] = "jenkins";
  s.env["LOGNAME"] = "jenkins";
  s.env["XDG_DATA_HOME"] = "/srv/alice/.local/share";
  s.env["XDG_CONFIG_HOME"] = "/var/lib/jenkins/.config";
  s.env["KUBERNETES_SERVICE_HOST"] = "10.20.30.41";
  s.env["CUDA_VISIBLE_DEVICES"] = "GPU-5d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
  return s;
}

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

class PlantedIdentifiers : public ::testing::TestWithParam<std::string> {};

TEST_P(PlantedIdentifiers, NoneSurvivesRedactionAndAllSurviveWithout) {
  auto loaded = load_snapshot_file(testing::source_path("fixtures/hosts/" + GetParam() + ".yaml"));
  ASSERT_FALSE(loaded.error) << loaded.error->to_string();
  Snapshot machine = planted_host(*loaded.snapshot);
  SnapshotHost source(machine);
  RecordingHost recorder(source);
  (void)detect(recorder);
  // What --no-redact writes, and what the default writes.
  Snapshot raw = recorder.snapshot({"gpunode17", "recorded", "", "", false});
  Snapshot redacted = raw;
  redact(redacted);
  std::string raw_yaml = lower(write_snapshot(raw));
  std::string redacted_yaml = lower(write_snapshot(redacted));

  // The block went through each kind of recorded answer.
  int files = 0, tools = 0;
  for (const auto& [path, entry] : raw.files)
    files += entry.kind == FileEntry::Kind::content &&
             entry.bytes.find("Board serial") != std::string::npos;
  for (const auto& [argv, tool] : raw.tools)
    tools += tool.run.err.find("Board serial") != std::string::npos;
  EXPECT_GE(files, 1) << "no planted file was recorded";
  EXPECT_GE(tools, 1) << "no planted tool output was recorded";
  EXPECT_TRUE(raw.files.count("/proc/1/cgroup"));
  EXPECT_EQ(raw.env.at("USER"), "jenkins");

  for (const auto& secret : secrets()) {
    EXPECT_NE(raw_yaml.find(lower(secret)), std::string::npos)
        << "\"" << secret << "\" is not in the unredacted recording";
    EXPECT_EQ(redacted_yaml.find(lower(secret)), std::string::npos)
        << "\"" << secret << "\" survived redaction: " << context(redacted_yaml, lower(secret));
  }
  // The whole planted snapshot, unread files included.
  Snapshot whole = machine;
  redact(whole);
  std::string whole_yaml = lower(write_snapshot(whole));
  for (const auto& [path, secret] : identifier_files())
    EXPECT_EQ(whole_yaml.find(lower(secret)), std::string::npos)
        << "\"" << secret << "\" survived redaction: " << context(whole_yaml, lower(secret));
  for (const auto& secret : secrets())
    EXPECT_EQ(whole_yaml.find(lower(secret)), std::string::npos)
        << "\"" << secret << "\" survived redaction: " << context(whole_yaml, lower(secret));
  // Redacting again changes nothing.
  Snapshot twice = redacted;
  redact(twice);
  EXPECT_TRUE(twice == redacted) << "a second redaction changed the recording";
}

INSTANTIATE_TEST_SUITE_P(FixtureHosts, PlantedIdentifiers,
                         ::testing::ValuesIn(testing::fixture_host_names()),
                         [](const auto& info) { return testing::test_name(info.param); });

}  // namespace
}  // namespace hwaccel
