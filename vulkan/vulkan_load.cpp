// The model of this process, from the snapshot `hwsim run` hands it (vulkan_model.h).
#include "src/host/live_host.h"
#include "src/host/snapshot_host.h"
#include "vulkan/vulkan_model.h"

namespace hwaccel::vulkan {

Model load_model() {
  LiveHost live;
  std::string path;
  if (auto given = live.env("HWSIM_VULKAN_SNAPSHOT"); given && !given->empty()) path = *given;
  if (path.empty()) {
    auto root = live.env("HWSIM_ROOT");
    path = (root && !root->empty() ? *root : std::string()) + "/.hwsim/snapshot.yaml";
  }
  auto loaded = load_snapshot_file(path);
  if (!loaded.snapshot) {
    Model model;
    model.why = "no simulated host: " + (loaded.error ? loaded.error->to_string() : path);
    return model;
  }
  SnapshotHost host(std::move(*loaded.snapshot));
  DetectOptions options;
  options.only = {"cuda", "rocm", "oneapi", "apple", "vulkan", "cpu"};
  Detection detection = detect(host, options);
  std::optional<VulkanSummary> summary;
  if (ToolRun run = host.run({"vulkaninfo", "--summary"}); run.ok())
    summary = parse_vulkaninfo_summary(run.out);
  return make_model(detection, summary ? &*summary : nullptr);
}

}  // namespace hwaccel::vulkan
