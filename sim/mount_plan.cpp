#include "sim/mount_plan.h"

#include <cctype>
#include <cerrno>

#include "src/host/path.h"

namespace hwaccel::sim {
namespace {

bool per_process(const std::vector<std::string>& parts) {
  if (parts.size() < 2) return false;
  const std::string& second = parts[1];
  if (second == "self" || second == "thread-self") return true;
  for (char c : second)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

}  // namespace

MountPlan plan_mounts(const Snapshot& snapshot) {
  MountPlan plan;
  for (const auto& [path, entry] : snapshot.files) {
    auto parts = path_components(path);
    if (parts.size() < 2 || parts[0] != "proc") continue;
    if (per_process(parts)) {
      plan.proc_skipped.push_back(path + ": a per-process path (it names the reader)");
      continue;
    }
    switch (entry.kind) {
      case FileEntry::Kind::absent:
        plan.proc_absent.push_back(path);
        break;
      case FileEntry::Kind::error:
        if (entry.error_code == ENOENT)
          plan.proc_absent.push_back(path);
        else
          plan.proc_present.push_back(path);
        break;
      case FileEntry::Kind::link:
        plan.proc_skipped.push_back(path + ": a link in procfs (the real one stays)");
        break;
      default:
        plan.proc_present.push_back(path);
    }
  }
  return plan;
}

}  // namespace hwaccel::sim
