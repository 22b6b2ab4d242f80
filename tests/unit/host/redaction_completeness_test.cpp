// Redaction completeness: every fixture host, with every kind of identifier a
// probe can see planted in it, is recorded and redacted. No planted value and
// no UUID of the original may survive anywhere in the written snapshot, and the
// replayed report must equal the original's except where identifiers stood.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

#include "src/host/recording_host.h"
#include "src/host/redaction.h"
#include "src/host/snapshot_host.h"
#include "src/registry/detection.h"
#include "src/report/detect_json.h"
#include "src/report/detect_text.h"
#include "src/snapshot/snapshot_codec.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

namespace fs = std::filesystem;

const char* const kHostname = "gpunode17";

// Values that must never leave the machine, and where a real host has them.
struct Planted {
  std::string path;
  std::string content;
  std::vector<std::string> secrets;  // substrings that must not survive
};

std::vector<Planted> planted_files() {
  return {
      {"/proc/sys/kernel/hostname", std::string(kHostname) + "\n", {kHostname}},
      {"/etc/hostname", std::string(kHostname) + ".cluster.example.org\n", {kHostname}},
      {"/sys/class/dmi/id/product_serial", "1650123000999\n", {"1650123000999"}},
      {"/sys/class/dmi/id/product_uuid",
       "4c4c4544-0042-3510-8052-b4c04f4e5a32\n",
       {"4c4c4544-0042-3510-8052-b4c04f4e5a32"}},
      {"/sys/class/dmi/id/board_serial", ".5JZP2K3.CNFCP0022B00AB.\n", {"CNFCP0022B00AB"}},
      {"/sys/class/dmi/id/chassis_serial", "5JZP2K3\n", {"5JZP2K3"}},
      {"/sys/class/dmi/id/board_asset_tag", "i-0abc123def4567890\n", {"0abc123def4567890"}},
      {"/sys/class/dmi/id/chassis_asset_tag", "ASSET-77812\n", {"ASSET-77812"}},
      {"/sys/class/net/eth0/address", "a0:36:9f:12:34:56\n", {"a0:36:9f:12:34:56"}},
      {"/sys/class/infiniband/mlx5_0/node_guid", "0c42:a103:00d5:b0e4\n", {"0c42:a103:00d5:b0e4"}},
      {"/sys/class/infiniband/mlx5_0/sys_image_guid",
       "0c42:a103:00d5:b0e5\n",
       {"0c42:a103:00d5:b0e5"}},
      {"/sys/class/infiniband/mlx5_0/ports/1/gids/0",
       "fe80:0000:0000:0000:0c42:a103:00d5:b0e4\n",
       {"0c42:a103:00d5:b0e4"}},
      {"/sys/block/nvme0n1/device/serial", "S6EWNS0T123456      \n", {"S6EWNS0T123456"}},
      {"/sys/block/nvme0n1/wwid", "eui.0025385b21a0b7c3\n", {"0025385b21a0b7c3"}},
      {"/sys/class/drm/card99/device/unique_id", "c2a41e5f0b9d7e31\n", {"c2a41e5f0b9d7e31"}},
      {"/sys/class/kfd/kfd/topology/nodes/99/properties",
       "simd_count 304\nunique_id 14034291938114584209\nlocation_id 1024\n",
       {"14034291938114584209"}},
      {"/etc/machine-id",
       "3f1e0c8a9b7d4e2f8a6b5c4d3e2f1a0b\n",
       {"3f1e0c8a9b7d4e2f8a6b5c4d3e2f1a0b"}},
      {"/proc/sys/kernel/random/boot_id",
       "8d1a3c5e-7f90-4b2d-a6c8-e0f1a2b3c4d5\n",
       {"8d1a3c5e-7f90-4b2d-a6c8-e0f1a2b3c4d5"}},
      {"/etc/hosts",
       "127.0.0.1 localhost\n10.20.30.40 gpunode17.cluster.example.org gpunode17\n"
       "fd00:1234:5678::17 gpunode17\n",
       {"10.20.30.40", "fd00:1234:5678::17", kHostname}},
      {"/proc/net/fib_trie", "  |-- 172.31.5.201\n     /32 host LOCAL\n", {"172.31.5.201"}},
      {"/home/alice/.config/hwaccel/config.toml", "reserve = \"4G\"\n", {"alice"}},
  };
}

std::map<std::string, std::pair<std::string, std::vector<std::string>>> planted_env() {
  return {
      {"KUBERNETES_SERVICE_HOST", {"10.96.0.1", {"10.96.0.1"}}},
      {"HOME", {"/home/alice", {"alice"}}},
      {"PATH", {"/home/alice/.local/bin:/usr/local/bin:/usr/bin", {"alice"}}},
      {"NVIDIA_VISIBLE_DEVICES",
       {"GPU-0f0e0d0c-0b0a-4909-8807-060504030201", {"0f0e0d0c-0b0a-4909-8807-060504030201"}}},
  };
}

// A tool answer that carries identifiers in JSON and key: value form, as
// neuron-ls, hl-smi -q and system_profiler print them.
ToolEntry planted_tool() {
  ToolEntry t;
  t.argv = {"hwaccel-planted-tool", "--json"};
  t.run.outcome = ToolOutcome::exited;
  t.run.exit_code = 0;
  t.run.out =
      "[{\"serial_number\": \"NRN-SN-99812\", \"hostname\": \"gpunode17\",\n"
      "  \"platform_UUID\": \"A1B2C3D4-E5F6-4789-9ABC-DEF012345678\"}]\n"
      "    Serial Number                         : 1654922006789\n"
      "    inet 10.1.2.3/24 brd 10.1.2.255 scope global eth0\n"
      "    driver 2.19.64.0\n";
  return t;
}

std::vector<std::string> planted_tool_secrets() {
  return {"NRN-SN-99812", "A1B2C3D4-E5F6-4789-9ABC-DEF012345678", "1654922006789", "10.1.2.3",
          "10.1.2.255"};
}

// Every UUID in a text, lower-cased hex only.
std::set<std::string> uuids_in(const std::string& text) {
  static const std::regex uuid(
      R"([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})");
  std::set<std::string> found;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), uuid); it != std::sregex_iterator();
       ++it) {
    std::string u = it->str();
    for (char& c : u) c = char(std::tolower(static_cast<unsigned char>(c)));
    found.insert(u);
  }
  return found;
}

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Replaces every occurrence of each value with "<ID>".
std::string mask(std::string text, const std::vector<std::string>& values) {
  for (const auto& v : values) {
    if (v.empty()) continue;
    for (auto at = text.find(v); at != std::string::npos; at = text.find(v, at + 4))
      text.replace(at, v.size(), "<ID>");
  }
  return text;
}

std::string mask_pseudonyms(const std::string& text) {
  static const std::regex made(
      R"(00000000-0000-4000-8000-[0-9]{12}|host-[0-9]+|REDACTED-SERIAL-[0-9]+|02:00:00:00:[0-9a-f]{2}:[0-9a-f]{2})");
  return std::regex_replace(text, made, "<ID>");
}

class RedactionCompleteness : public ::testing::TestWithParam<std::string> {};

TEST_P(RedactionCompleteness, NoIdentifierSurvivesAndTheReportStaysTheSame) {
  auto loaded = load_snapshot_file(testing::source_path("fixtures/hosts/" + GetParam() + ".yaml"));
  ASSERT_FALSE(loaded.error) << loaded.error->to_string();
  Snapshot original = *loaded.snapshot;

  // Plant the identifiers. The fixture's own UUIDs and hostname count too.
  std::vector<std::string> secrets;
  std::string real_hostname = original.facts.hostname;
  original.facts.hostname = kHostname;
  secrets.push_back(kHostname);
  for (const auto& p : planted_files()) {
    if (!original.files.count(p.path)) original.files[p.path] = FileEntry::of_content(p.content);
    secrets.insert(secrets.end(), p.secrets.begin(), p.secrets.end());
  }
  for (const auto& [name, value] : planted_env()) {
    original.env[name] = value.first;
    secrets.insert(secrets.end(), value.second.begin(), value.second.end());
  }
  ToolEntry tool = planted_tool();
  original.tools[tool.argv] = tool;
  for (const auto& s : planted_tool_secrets()) secrets.push_back(s);
  std::string original_yaml = write_snapshot(original);
  for (const auto& u : uuids_in(original_yaml))
    if (u.rfind("00000000-0000-4000-8000-", 0) != 0) secrets.push_back(u);

  // 1. The whole planted host, redacted: nothing survives.
  Snapshot whole = original;
  redact(whole);
  std::string whole_yaml = lower(write_snapshot(whole));
  for (const auto& s : secrets)
    EXPECT_EQ(whole_yaml.find(lower(s)), std::string::npos) << "\"" << s << "\" survived";

  // 2. A recording of it (what the probes read), redacted: nothing survives,
  // and the replay gives the same report apart from the identifiers.
  SnapshotHost source(original);
  RecordingHost recorder(source);
  Detection live = detect(recorder);
  Snapshot recorded = recorder.snapshot({});
  redact(recorded);
  std::string recorded_yaml = write_snapshot(recorded);
  for (const auto& s : secrets)
    EXPECT_EQ(lower(recorded_yaml).find(lower(s)), std::string::npos)
        << "\"" << s << "\" survived in the recording";

  // The redacted recording must still load: redaction keeps it well-formed.
  Snapshot reloaded;
  auto error = parse_snapshot(recorded_yaml, "recorded.yaml", reloaded);
  ASSERT_FALSE(error) << error->to_string();
  SnapshotHost replay_host(reloaded);
  Detection replayed = detect(replay_host);
  for (bool json : {false, true}) {
    std::string before = json ? render_detect_json(live) : render_detect_text(live, {true});
    std::string after = json ? render_detect_json(replayed) : render_detect_text(replayed, {true});
    // A recorded fixture already holds pseudonyms (h200-firecracker's GPU UUID); redaction
    // hands them out anew, so they are identifiers on both sides.
    EXPECT_EQ(mask_pseudonyms(mask(before, secrets)), mask_pseudonyms(after))
        << GetParam() << (json ? " JSON" : " text") << " report changed beyond identifiers";
  }
  (void)real_hostname;
}

INSTANTIATE_TEST_SUITE_P(FixtureHosts, RedactionCompleteness,
                         ::testing::ValuesIn(testing::fixture_host_names()),
                         [](const auto& info) { return testing::test_name(info.param); });

}  // namespace
}  // namespace hwaccel
