#include "src/registry/cache_codec.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "src/host/snapshot_host.h"
#include "src/registry/detection_cache.h"
#include "src/report/detect_json.h"
#include "src/report/detect_text.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

// Every field of every struct the cache keeps, away from its default.
Detection everything() {
  Detection d;
  d.host.facts = {"linux", "aarch64", "6.8.0", 65536, 20, "gx10"};
  d.host.discovered_at = "2026-11-29T18:00:00Z";
  d.backends = {{"cuda", true, std::nullopt},
                {"rocm", false, Reason{ReasonCode::tool_not_found, "rocm-smi not on PATH"}}};
  Entry e;
  e.backend = "cuda";
  e.api = "nvml";
  e.index = 3;
  e.physical_id = "pci:0000:0f:01.0";
  e.name = "NVIDIA GB10";
  e.vendor = "NVIDIA";
  e.pci_vendor_id = 0x10de;
  e.pci_device_id = 0x2e12;
  e.pci_bus_id = "0000:0f:01.0";
  e.uuid = "GPU-1";
  e.type = DeviceType::gpu;
  e.memory = {128ull << 30, 100ull << 30, MemoryKind::unified, 120ull << 30, "/proc/meminfo"};
  e.compute_class = "sm_121";
  e.driver_version = "580.95";
  e.status = EntryStatus::unavailable;
  e.reason = Reason{ReasonCode::not_visible, "CUDA_VISIBLE_DEVICES=1"};
  e.provenance = {"tool:nvidia-smi", "file:/proc/meminfo"};
  e.partition = Partition{"3g.40gb", "pci:0000:0f:01.0", 0, 2, 0};
  e.partitioned = true;
  e.numa_node = 1;
  e.cpu_affinity = "0-19";
  e.pcie = PcieLink{{16.0, 8, 4, 15.75}, {32.0, 16, 5, 63.0}, "/sys/bus/pci/devices/0000:0f:01.0"};
  e.ordinal = 0;
  d.entries = {e, Entry{}};
  d.warnings = {{"cuda", "nvidia-smi printed \"\xff\" (bytes kept)"}};
  d.links = {{"pci:a", "pci:b", "nvlink", 18, "NV18", "tool:nvidia-smi topo -m"}};
  auto& r = d.system.resources;
  r.online = {0, 1, 2, 3};
  r.online_source = "/sys/devices/system/cpu/online";
  r.cpus = {4, 2, 1};
  r.topology_source = "topology";
  r.numa_nodes = 2;
  r.numa_source = "node";
  r.memory_bytes = 1ull << 40;
  r.memory_source = "/proc/meminfo";
  r.usable = {0, 1};
  r.usable_cpus = {2, 1, std::nullopt};
  r.usable_numa_nodes = 1;
  r.usable_memory_bytes = 1ull << 34;
  r.usable_cpu_count = 2;
  r.limited_by = {"cpuset.cpus.effective"};
  r.cgroup = {2,
              "/job_1",
              std::vector<int>{0, 1},
              std::vector<int>{0},
              1ull << 34,
              CpuQuota{200000, 100000},
              "cpus",
              "mems",
              "memory.max",
              "cpu.max",
              {"a note"}};
  d.system.ports = {{"mlx5_0", 1, "ACTIVE", "InfiniBand", "400 Gb/sec (4X NDR)", 400.0, 48.5,
                     "0000:1b:00.0", 0, std::nullopt}};
  d.system.storage = {{"nvme0n1", "nvme", "nvme*", 2000398934016ull, false, "Samsung", "pcie",
                       "0000:02:00.0", std::nullopt}};
  auto& env = d.system.environment;
  env = {"docker",  {"/.dockerenv"},
         true,      {"KUBERNETES_SERVICE_HOST"},
         "aws",     "p5.48xlarge",
         true,      "KVM",
         {"cpuid"}, "Amazon EC2",
         "p5",      "Amazon",
         "Amazon",  "tag"};
  d.system.warnings = {{"system", "no /sys/block"}};
  return d;
}

TEST(CacheCodec, EveryFieldRoundTrips) {
  const Detection d = everything();
  const nlohmann::json first = encode_detection(d);
  auto back = decode_detection(first);
  ASSERT_TRUE(back.detection) << back.error;
  EXPECT_EQ(encode_detection(*back.detection), first);
  // What a user reads from a cached detection is what the live one said.
  EXPECT_EQ(render_detect_json(*back.detection), render_detect_json(d));
  const Entry& e = back.detection->entries.at(0);
  EXPECT_EQ(e.ordinal, 0);
  EXPECT_EQ(e.partition->gpu_instance_id, 2);
  EXPECT_EQ(e.memory.kind, MemoryKind::unified);
  EXPECT_EQ(e.reason->code, ReasonCode::not_visible);
  EXPECT_EQ(e.pcie->max.generation, 5);
  const auto& cg = back.detection->system.resources.cgroup;
  ASSERT_TRUE(cg.cpu_quota);
  EXPECT_EQ(cg.cpu_quota->quota_us, 200000u);
  EXPECT_EQ(back.detection->system.environment.chassis_asset_tag, "tag");
  EXPECT_EQ(back.detection->warnings, d.warnings);
  EXPECT_EQ(back.detection->links, d.links);
}

// Every fixture host, detected and cached: the report from the cache is the same bytes.
TEST(CacheCodec, EveryFixtureHostRoundTrips) {
  int hosts = 0;
  for (const auto& file :
       std::filesystem::directory_iterator(testing::source_path("fixtures/hosts"))) {
    if (file.path().extension() != ".yaml") continue;
    auto loaded = load_snapshot_file(file.path().string());
    ASSERT_FALSE(loaded.error) << file.path();
    SnapshotHost host(*loaded.snapshot);
    const Detection live = detect(host);
    auto cached = decode_detection(encode_detection(live));
    ASSERT_TRUE(cached.detection) << file.path() << ": " << cached.error;
    EXPECT_EQ(render_detect_json(*cached.detection), render_detect_json(live)) << file.path();
    EXPECT_EQ(render_detect_text(*cached.detection, {}), render_detect_text(live, {}))
        << file.path();
    ++hosts;
  }
  EXPECT_GT(hosts, 20);
}

TEST(CacheCodec, BadValuesAreRefusedWithTheirPlace) {
  nlohmann::json doc = encode_detection(everything());
  struct Case {
    std::string pointer;
    nlohmann::json value;
    std::string error;
  } cases[] = {
      {"/devices/0/memory/total_bytes", "lots",
       "detection.devices[0].memory.total_bytes: expected a whole number"},
      {"/devices/0/memory/total_bytes", -1,
       "detection.devices[0].memory.total_bytes: expected a whole number"},
      {"/devices/0/pci_vendor_id", 65536, "detection.devices[0].pci_vendor_id: expected a whole"},
      {"/devices/1/index", 1e300, "detection.devices[1].index: expected an integer"},
      {"/devices/0/type", "quantum", "detection.devices[0].type: unknown value \"quantum\""},
      {"/devices/0/reason/code", 7, "detection.devices[0].reason.code: expected a name"},
      {"/backends", nlohmann::json::object(), "detection.backends: expected an array"},
      {"/system/resources/cgroup/cpus/1", "x", "detection.system.resources.cgroup.cpus[1]"},
      {"/host/facts", 3, "detection.host.facts: expected an object"},
  };
  for (const auto& c : cases) {
    nlohmann::json bad = doc;
    bad[nlohmann::json::json_pointer(c.pointer)] = c.value;
    auto got = decode_detection(bad);
    EXPECT_FALSE(got.detection) << c.pointer;
    EXPECT_EQ(got.error.rfind(c.error, 0), 0u) << c.pointer << ": " << got.error;
  }
  EXPECT_EQ(decode_detection(nlohmann::json::array()).error, "detection: expected an object");
  // A field this codec does not know is left alone; one it misses keeps its default.
  nlohmann::json extra = doc;
  extra["devices"][0]["future_field"] = 1;
  extra["devices"][0].erase("cpu_affinity");
  auto got = decode_detection(extra);
  ASSERT_TRUE(got.detection) << got.error;
  EXPECT_EQ(got.detection->entries[0].cpu_affinity, "");
}

// An older cache (the report's document inside hwaccel-cache/1) is a miss with
// the reason, and a broken one says where it broke.
TEST(CacheCodec, OldAndBrokenCachesAreMissesWithAReason) {
  auto old =
      judge_cache(R"({"schema":"hwaccel-cache/1","version":"0.1.0","key":"k","detection":{}})", "k",
                  300, "2026-11-29T18:00:00Z");
  EXPECT_FALSE(old.detection);
  EXPECT_EQ(old.why_not, "foreign: schema is not hwaccel-cache/2");
  auto broken = judge_cache("{\"schema\": [1, 2", "k", 300, "2026-11-29T18:00:00Z");
  EXPECT_FALSE(broken.detection);
  EXPECT_EQ(broken.why_not.rfind("corrupt: not JSON at byte ", 0), 0u) << broken.why_not;
  nlohmann::json cache =
      nlohmann::json::parse(encode_cache(everything(), "k", "2026-11-29T18:00:00Z"));
  cache["detection"]["links"][0]["lanes"] = "eighteen";
  auto bad = judge_cache(cache.dump(), "k", 300, "2026-11-29T18:00:10Z");
  EXPECT_FALSE(bad.detection);
  EXPECT_EQ(bad.why_not.rfind("corrupt: detection.links[0].lanes: expected an integer", 0), 0u)
      << bad.why_not;
}

}  // namespace
}  // namespace hwaccel
