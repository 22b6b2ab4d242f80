#include "sim/mount_plan.h"

#include <cctype>
#include <cerrno>
#include <map>

#include "sim/shim_script.h"
#include "src/vocabulary/path.h"

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

bool starts_with(const std::string& s, const char* prefix) {
  return s.rfind(prefix, 0) == 0;
}

}  // namespace

std::string tool_path_refusal(const std::string& path) {
  auto parts = path_components(path);
  if (parts.empty()) return "not a file";
  const std::string& top = parts[0];
  if (top == "etc") return "a configuration folder (/etc)";
  if (starts_with(top, "lib") || (top == "usr" && parts.size() > 1 && starts_with(parts[1], "lib")))
    return "a library folder (/lib*, /usr/lib*)";
  const std::string& base = parts.back();
  if (starts_with(base, "ld-") || starts_with(base, "ld.so") || starts_with(base, "ld64.so"))
    return "the name of a dynamic loader";
  auto so = base.find(".so");
  if (so != std::string::npos && (so + 3 == base.size() || base[so + 3] == '.'))
    return "the name of a shared library";
  return "";
}

MountPlan plan_mounts(const Snapshot& snapshot) {
  MountPlan plan;
  for (const auto& [path, entry] : snapshot.files) {
    auto parts = path_components(path);
    if (!parts.empty() && parts[0] != "proc" && parts[0] != "sys" && parts[0] != "dev")
      plan.not_presented.push_back(path);
    if (parts.size() < 2 || parts[0] != "proc") continue;
    // PID 1's cgroup is not the reader's: container checks read it, so it is the host's.
    if (per_process(parts) && path != "/proc/1/cgroup") {
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
  std::map<std::string, bool> missing;  // absolute tool path -> recorded as not found every time
  for (const auto& [argv, tool] : snapshot.tools) {
    if (argv.empty() || argv[0].empty() || argv[0][0] != '/' || !shim_answerable(argv)) continue;
    auto normal = normalize_absolute(argv[0]);
    if (!normal || has_dotdot(argv[0])) continue;
    auto it = missing.try_emplace(*normal, true).first;
    it->second = it->second && tool.run.outcome == ToolOutcome::not_found;
  }
  for (const auto& [path, not_found] : missing) {
    auto parts = path_components(path);
    if (not_found || parts.empty() || parts[0] == "sys" || parts[0] == "dev" ||
        parts[0] == "proc" || parts[0] == ".hwsim")
      continue;
    if (auto why = tool_path_refusal(path); !why.empty())
      plan.tools_refused.emplace_back(path, why);
    else
      plan.tool_paths.push_back(path);
  }
  return plan;
}

}  // namespace hwaccel::sim
