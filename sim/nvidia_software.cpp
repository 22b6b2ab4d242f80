#include "sim/nvidia_software.h"

#include "src/probe/cuda_nvml_doc.h"

namespace hwaccel::sim {

namespace {

bool ends_with(const std::string& text, const std::string& tail) {
  return text.size() >= tail.size() &&
         text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

// Recorded as there (a snapshot also records what was looked up and absent).
bool there(const FileEntry& entry) {
  return entry.kind != FileEntry::Kind::absent;
}

bool recorded_below(const Snapshot& snapshot, const std::string& dir) {
  if (auto it = snapshot.files.find(dir); it != snapshot.files.end() && there(it->second))
    return true;
  for (auto it = snapshot.files.lower_bound(dir + "/");
       it != snapshot.files.end() && it->first.starts_with(dir + "/"); ++it)
    if (there(it->second)) return true;
  return false;
}

}  // namespace

NvidiaSoftware nvidia_software(const Snapshot& snapshot) {
  for (const auto& [argv, tool] : snapshot.tools) {
    if (argv.empty()) continue;
    const std::string& name = argv[0];
    if ((name == "nvidia-smi" || ends_with(name, "/nvidia-smi")) &&
        tool.run.outcome != ToolOutcome::not_found)
      return {true, "nvidia-smi is recorded as found"};
    // A recording of hwaccel detect on the NVML path runs no nvidia-smi: its
    // helper found the library where it says anything but "no_library".
    if ((name == "hwaccel-nvml" || ends_with(name, "/hwaccel-nvml")) &&
        tool.run.outcome == ToolOutcome::exited && tool.run.exit_code == 0) {
      const NvmlDocument doc = parse_nvml_document(tool.run.out);
      if (doc.parsed && !doc.status.empty() && doc.status != "no_library")
        return {true,
                "hwaccel-nvml recorded loading libnvidia-ml.so.1 (status " + doc.status + ")"};
    }
  }
  for (const char* dir : {"/proc/driver/nvidia", "/sys/module/nvidia"})
    if (recorded_below(snapshot, dir)) return {true, std::string("the snapshot records ") + dir};
  for (const auto& [path, entry] : snapshot.files)
    if ((ends_with(path, "/libnvidia-ml.so.1") || ends_with(path, "/libcuda.so.1")) && there(entry))
      return {true, "the snapshot records " + path};
  return {false, "no nvidia-smi, nvidia module or NVIDIA library is recorded"};
}

}  // namespace hwaccel::sim
