// `hwsim run`'s trees in layers (src/host/tree_layers.h): the CPU topology cut out
// of the plan with an empty folder in its place, named by its entries alone, and
// written from both halves the same files a whole plan gives.
#include "src/host/tree_layers.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace hwaccel {
namespace {

using Kind = PlannedEntry::Kind;
constexpr const char* kCpu = "/sys/devices/system/cpu";

// A host with `cpus` CPUs of four files each, a GPU file and a shim.
TreePlan host(int cpus, const std::string& gpu = "H100") {
  TreePlan plan;
  plan.entries.push_back({Kind::file, "/sys/bus/pci/devices/0000:01:00.0/label", gpu, "", 0444});
  plan.entries.push_back(
      {Kind::file, std::string(kCpu) + "/online", "0-" + std::to_string(cpus - 1), "", 0444});
  for (int i = 0; i < cpus; ++i) {
    const std::string cpu = std::string(kCpu) + "/cpu" + std::to_string(i);
    plan.entries.push_back({Kind::dir, cpu, "", "", 0755});
    plan.entries.push_back({Kind::file, cpu + "/online", "1\n", "", 0644});
    plan.entries.push_back({Kind::link, cpu + "/node0", "", "../../node/node0", 0777});
    plan.entries.push_back({Kind::file, cpu + "/topology/core_id", std::to_string(i), "", 0444});
  }
  plan.entries.push_back({Kind::file, "/.hwsim/bin/nvidia-smi", "#!/bin/sh\n", "", 0755});
  plan.notes = {"a note"};
  plan.warnings = {"a warning"};
  return plan;
}

TEST(TreeLayers, TheCpuTopologyIsALayerWithAnEmptyFolderInItsPlace) {
  const TreePlan whole = host(300);
  LayeredTree split = split_tree_layers(whole, "build");
  ASSERT_EQ(split.layers.size(), 1u);
  const TreeLayer& layer = split.layers[0];
  EXPECT_EQ(layer.at, kCpu);
  EXPECT_EQ(layer.plan.entries.size(), 1u + 4 * 300);
  for (const auto& e : layer.plan.entries)
    EXPECT_EQ(e.path.rfind(std::string(kLayerTop) + "/", 0), 0u) << e.path;
  EXPECT_EQ(layer.plan.entries[0].path, std::string(kLayerTop) + "/online");
  // The rest keeps its order, notes and warnings, plus the folder for the layer.
  ASSERT_EQ(split.own.entries.size(), 3u);
  EXPECT_EQ(split.own.entries[0].path, "/sys/bus/pci/devices/0000:01:00.0/label");
  EXPECT_EQ(split.own.entries[1].path, "/.hwsim/bin/nvidia-smi");
  EXPECT_EQ(split.own.entries[2].path, kCpu);
  EXPECT_EQ(split.own.entries[2].kind, Kind::dir);
  EXPECT_EQ(split.own.entries[2].mode, 0755u);
  EXPECT_EQ(split.own.notes, whole.notes);
  EXPECT_EQ(split.own.warnings, whole.warnings);
}

TEST(TreeLayers, TheFolderNamedByThePlanKeepsItsModeOnBothSides) {
  TreePlan plan = host(300);
  plan.entries.push_back({Kind::dir, kCpu, "", "", 0711});
  LayeredTree split = split_tree_layers(plan, "build");
  ASSERT_EQ(split.layers.size(), 1u);
  const auto& top = split.layers[0].plan.entries.back();
  EXPECT_EQ(top.path, kLayerTop);
  EXPECT_EQ(top.mode, 0711u);
  EXPECT_EQ(split.own.entries.back().path, kCpu);
  EXPECT_EQ(split.own.entries.back().mode, 0711u);
  EXPECT_EQ(std::count_if(split.own.entries.begin(), split.own.entries.end(),
                          [](const PlannedEntry& e) { return e.path == kCpu; }),
            1);
}

TEST(TreeLayers, TheKeyIsTheLayersEntriesAlone) {
  const auto a = split_tree_layers(host(300, "H100"), "build");
  const auto b = split_tree_layers(host(300, "H200"), "build");
  ASSERT_EQ(a.layers.size(), 1u);
  ASSERT_EQ(b.layers.size(), 1u);
  EXPECT_EQ(a.layers[0].key, b.layers[0].key) << "another GPU, the same CPUs";
  EXPECT_EQ(a.layers[0].key.size(), 64u);
  // Every property of an entry matters.
  EXPECT_NE(split_tree_layers(host(301), "build").layers[0].key, a.layers[0].key);
  EXPECT_NE(split_tree_layers(host(300), "another build").layers[0].key, a.layers[0].key);
  auto changed = [&](auto edit) {
    TreePlan plan = host(300);
    for (auto& e : plan.entries)
      if (e.path == std::string(kCpu) + "/cpu7/online" ||
          e.path == std::string(kCpu) + "/cpu7/node0")
        edit(e);
    return split_tree_layers(plan, "build").layers[0].key;
  };
  EXPECT_NE(changed([](PlannedEntry& e) { e.bytes += "x"; }), a.layers[0].key);
  EXPECT_NE(changed([](PlannedEntry& e) { e.mode ^= 0200; }), a.layers[0].key);
  EXPECT_NE(changed([](PlannedEntry& e) { e.target += "x"; }), a.layers[0].key);
  EXPECT_NE(changed([](PlannedEntry& e) { e.path += "x"; }), a.layers[0].key);
  EXPECT_NE(changed([](PlannedEntry& e) {
              if (e.kind == Kind::file) e.kind = Kind::dir;
            }),
            a.layers[0].key);
}

TEST(TreeLayers, SmallOddOrFailedPlansAreNotSplit) {
  EXPECT_TRUE(split_tree_layers(host(100), "build").layers.empty()) << "400 entries: too small";
  EXPECT_EQ(split_tree_layers(host(100), "build", 10).layers.size(), 1u);
  EXPECT_EQ(split_tree_layers(host(100), "build").own.entries.size(), host(100).entries.size());
  // The folder planned as a link or a file: the plan as it is (write_tree says why).
  for (Kind kind : {Kind::link, Kind::file}) {
    TreePlan plan = host(300);
    plan.entries.push_back({kind, kCpu, "", "elsewhere", 0777});
    EXPECT_TRUE(split_tree_layers(plan, "build").layers.empty());
  }
  // A path that is not plain could land under the layer's place, where it would be hidden.
  for (const char* odd :
       {"/sys/devices/system//cpu/x", "/sys/devices/system/./cpu/x",
        "/sys/devices/x/../system/cpu/y", "/sys/devices/system/cpu/z/", "relative"}) {
    TreePlan plan = host(300);
    plan.entries.push_back({Kind::file, odd, "", "", 0644});
    EXPECT_TRUE(split_tree_layers(plan, "build").layers.empty()) << odd;
  }
  TreePlan failed = host(300);
  failed.error = "refused";
  EXPECT_TRUE(split_tree_layers(failed, "build").layers.empty());
}

}  // namespace
}  // namespace hwaccel
