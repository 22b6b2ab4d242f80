#include "sim/run_plan.h"

#include <algorithm>
#include <charconv>
#include <map>

#include "sim/dev_nodes.h"
#include "sim/emulate/emulator_plan.h"
#include "sim/kernel_fill.h"
#include "sim/materialize.h"
#include "sim/nvidia_software.h"
#include "src/host/snapshot_host.h"
#include "src/probe/vulkan_probe.h"
#include "src/vocabulary/path.h"

namespace hwaccel::sim {
namespace {

constexpr std::string_view kRunPlanHead = "hwsim-run-plan 1";

// No raw newline (lines) or space (fields) in a value.
std::string plan_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '\n')
      out += "\\n";
    else if (c == ' ')
      out += "\\s";
    else
      out += c;
  }
  return out;
}

bool plan_unescape(std::string_view s, std::string& out) {
  out.clear();
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\') {
      out += s[i];
      continue;
    }
    if (++i == s.size()) return false;
    switch (s[i]) {
      case '\\': out += '\\'; break;
      case 'n': out += '\n'; break;
      case 's': out += ' '; break;
      default: return false;
    }
  }
  return true;
}

bool plan_hex_digest(std::string_view s) {
  if (s.size() != 64) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

// Decimal digits only (no sign), at most `max`.
template <typename T>
bool plan_number(std::string_view s, T& out, T max) {
  if (s.empty() || s.size() > 20 || s[0] < '0' || s[0] > '9') return false;
  const char* end = s.data() + s.size();
  auto [p, ec] = std::from_chars(s.data(), end, out);
  return ec == std::errc() && p == end && out <= max;
}

bool plan_flag(std::string_view s, bool& out) {
  if (s != "0" && s != "1") return false;
  out = s == "1";
  return true;
}

// Paths as make_run_plan() makes them: absolute, under `top` when it is not "".
bool plan_path_ok(const std::string& path, std::string_view top) {
  if (path.empty() || path[0] != '/' || path.find('\0') != std::string::npos) return false;
  if (top.empty()) return true;
  return path.size() > top.size() + 1 && path.compare(1, top.size(), top) == 0 &&
         path[top.size() + 1] == '/';
}

}  // namespace

bool RunPlan::operator==(const RunPlan& o) const {
  auto same_mounts = [](const MountPlan& a, const MountPlan& b) {
    return a.proc_present == b.proc_present && a.proc_absent == b.proc_absent &&
           a.tool_paths == b.tool_paths && a.tools_refused == b.tools_refused &&
           a.proc_skipped == b.proc_skipped && a.not_presented == b.not_presented;
  };
  return snapshot_sha256 == o.snapshot_sha256 && tool_times == o.tool_times &&
         emulated_tools == o.emulated_tools && vulkan_driver == o.vulkan_driver &&
         nvidia_present == o.nvidia_present && nvidia_why == o.nvidia_why &&
         hostname == o.hostname && kernel == o.kernel && arch == o.arch && cpus == o.cpus &&
         device_view.passed == o.device_view.passed &&
         device_view.refused == o.device_view.refused &&
         device_view.not_passed == o.device_view.not_passed && tools_missing == o.tools_missing &&
         same_mounts(mounts, o.mounts) && markers_shown == o.markers_shown &&
         markers_hidden == o.markers_hidden && dev_nodes == o.dev_nodes;
}

const std::vector<std::string>& container_marker_paths() {
  static const std::vector<std::string> paths = {
      "/.dockerenv", "/run/.containerenv", "/run/systemd/container",
      "/run/host/container-manager", "/var/run/secrets/kubernetes.io/serviceaccount"};
  return paths;
}

bool snapshot_has_vulkan_driver(const Snapshot& snapshot) {
  SnapshotHost host(snapshot);
  return !VulkanProbe().run(host).entries.empty();
}

bool recorded_tool_times(const Snapshot& snapshot) {
  for (const auto& [argv, tool] : snapshot.tools)
    if (tool.run.ms > 0) return true;
  return false;
}

RunPlan make_run_plan(const Snapshot& s) {
  RunPlan p;
  p.tool_times = recorded_tool_times(s);
  p.emulated_tools = has_emulated_tools(s);
  p.vulkan_driver = snapshot_has_vulkan_driver(s);
  const NvidiaSoftware nvidia = nvidia_software(s);
  p.nvidia_present = nvidia.present;
  p.nvidia_why = nvidia.why;
  p.hostname = s.facts.hostname;
  p.kernel = s.facts.kernel;
  p.arch = s.facts.arch;
  p.cpus = static_cast<int>(std::clamp<std::int64_t>(s.facts.cpus, 0, 1 << 30));
  p.device_view = device_view(s);
  p.tools_missing = tools_recorded_missing(s);
  p.mounts = plan_mounts(with_implied_proc(s));
  // A marker the snapshot records (a file or a folder) is shown from the tree;
  // the others are hidden (sandbox_mask.h).
  for (const auto& path : container_marker_paths()) {
    auto it = s.files.find(path);
    bool present = it != s.files.end() && (it->second.kind == FileEntry::Kind::content ||
                                           it->second.kind == FileEntry::Kind::dir);
    (present ? p.markers_shown : p.markers_hidden).push_back(path);
  }
  // The snapshot's character devices in /dev, links followed.
  for (auto it = s.files.lower_bound("/dev/"); it != s.files.end(); ++it) {
    if (it->first.compare(0, 5, "/dev/") != 0) break;
    if (it->second.kind != FileEntry::Kind::node || it->second.node_type != FileKind::char_device)
      continue;
    std::string real = resolve_through_links(s, it->first);
    if (real.compare(0, 5, "/dev/") != 0) continue;
    auto n = device_number(real);
    p.dev_nodes.push_back(
        {{real, n ? n->major : 0, n ? n->minor : 0, n ? n->mode : 0666}, n.has_value()});
  }
  return p;
}

std::string encode_run_plan(const RunPlan& p) {
  std::string out;
  auto line = [&](std::string_view tag, std::initializer_list<std::string_view> fields) {
    out += tag;
    for (auto f : fields) {
      out += ' ';
      out += plan_escape(f);
    }
    out += '\n';
  };
  auto each = [&](std::string_view tag, const auto& values) {
    for (const auto& v : values) line(tag, {v});
  };
  out += kRunPlanHead;
  out += '\n';
  line("sha256", {p.snapshot_sha256});
  line("tool-times", {p.tool_times ? "1" : "0"});
  line("emulated-tools", {p.emulated_tools ? "1" : "0"});
  line("vulkan-driver", {p.vulkan_driver ? "1" : "0"});
  line("nvidia", {p.nvidia_present ? "1" : "0", p.nvidia_why});
  line("hostname", {p.hostname});
  line("kernel", {p.kernel});
  line("arch", {p.arch});
  line("cpus", {std::to_string(p.cpus)});
  for (const auto& [name, value] : p.device_view.passed) line("env", {name, value});
  each("env-refused", p.device_view.refused);
  each("env-not-passed", p.device_view.not_passed);
  each("tool-missing", p.tools_missing);
  each("proc-present", p.mounts.proc_present);
  each("proc-absent", p.mounts.proc_absent);
  each("tool-path", p.mounts.tool_paths);
  for (const auto& [path, why] : p.mounts.tools_refused) line("tool-refused", {path, why});
  each("proc-skipped", p.mounts.proc_skipped);
  each("not-presented", p.mounts.not_presented);
  each("marker-shown", p.markers_shown);
  each("marker-hidden", p.markers_hidden);
  for (const auto& d : p.dev_nodes)
    line("dev-node", {std::to_string(d.node.major), std::to_string(d.node.minor),
                      std::to_string(d.node.mode), d.known ? "1" : "0", d.node.path});
  out += "end\n";
  return out;
}

std::optional<RunPlan> decode_run_plan(std::string_view text, std::string& why) {
  RunPlan p;
  std::size_t line_no = 0;
  auto fail = [&](const std::string& what) {
    why = "line " + std::to_string(line_no) + ": " + what;
    return std::nullopt;
  };
  std::set<std::string> seen;  // scalars, each exactly once
  const std::set<std::string_view> scalars = {"sha256", "tool-times", "emulated-tools",
                                              "vulkan-driver", "nvidia", "hostname",
                                              "kernel", "arch", "cpus"};
  bool ended = false;
  std::vector<std::string> f;
  while (!text.empty()) {
    ++line_no;
    auto nl = text.find('\n');
    if (nl == std::string_view::npos) return fail("no newline at the end");
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl + 1);
    if (ended) return fail("text after `end`");
    if (line_no == 1) {
      if (line != kRunPlanHead) return fail("not a `" + std::string(kRunPlanHead) + "` plan");
      continue;
    }
    if (line == "end") {
      ended = true;
      continue;
    }
    // The tag, then its fields, each unescaped.
    auto sp = line.find(' ');
    if (sp == std::string_view::npos) return fail("a tag without a value");
    const std::string tag(line.substr(0, sp));
    std::string_view rest = line.substr(sp + 1);
    f.clear();
    while (true) {
      auto next = rest.find(' ');
      std::string field;
      if (!plan_unescape(rest.substr(0, next), field)) return fail("a bad escape");
      f.push_back(std::move(field));
      if (next == std::string_view::npos) break;
      rest.remove_prefix(next + 1);
    }
    auto fields = [&](std::size_t n) { return f.size() == n; };
    if (scalars.count(tag) && !seen.insert(tag).second) return fail(tag + " twice");
    if (tag == "sha256") {
      if (!fields(1) || !plan_hex_digest(f[0])) return fail("a bad sha256");
      p.snapshot_sha256 = f[0];
    } else if (tag == "tool-times" || tag == "emulated-tools" || tag == "vulkan-driver") {
      bool& b = tag == "tool-times"       ? p.tool_times
                : tag == "emulated-tools" ? p.emulated_tools
                                          : p.vulkan_driver;
      if (!fields(1) || !plan_flag(f[0], b)) return fail("a bad " + tag);
    } else if (tag == "nvidia") {
      if (!fields(2) || !plan_flag(f[0], p.nvidia_present)) return fail("a bad nvidia");
      p.nvidia_why = f[1];
    } else if (tag == "hostname" || tag == "kernel" || tag == "arch") {
      if (!fields(1)) return fail("a bad " + tag);
      (tag == "hostname" ? p.hostname : tag == "kernel" ? p.kernel : p.arch) = f[0];
    } else if (tag == "cpus") {
      if (!fields(1) || !plan_number(f[0], p.cpus, 1 << 30)) return fail("a bad cpus");
    } else if (tag == "env") {
      // Only the allow-list's names, each value of its shape (run_environment.h).
      if (!fields(2)) return fail("a bad env");
      const DeviceVariable* v = find_device_variable(f[0]);
      if (!v || !v->valid(f[1])) return fail("env " + f[0] + ": not a device-view value");
      if (!p.device_view.passed.emplace(f[0], f[1]).second) return fail("env " + f[0] + " twice");
    } else if (tag == "tool-refused") {
      if (!fields(2) || !plan_path_ok(f[0], "")) return fail("a bad tool-refused");
      p.mounts.tools_refused.emplace_back(f[0], f[1]);
    } else if (tag == "dev-node") {
      RunDevNode d;
      if (!fields(5) || !plan_number(f[0], d.node.major, 0xffffffffu) ||
          !plan_number(f[1], d.node.minor, 0xffffffffu) || !plan_number(f[2], d.node.mode, 07777u) ||
          !plan_flag(f[3], d.known) || !plan_path_ok(f[4], "dev"))
        return fail("a bad dev-node");
      d.node.path = f[4];
      p.dev_nodes.push_back(std::move(d));
    } else {
      if (!fields(1)) return fail("a bad " + tag);
      std::string& v = f[0];
      if (tag == "env-refused") {
        p.device_view.refused.push_back(v);
      } else if (tag == "env-not-passed") {
        p.device_view.not_passed.push_back(v);
      } else if (tag == "tool-missing") {
        if (!p.tools_missing.insert(v).second) return fail("tool-missing " + v + " twice");
      } else if (tag == "proc-present" || tag == "proc-absent") {
        if (!plan_path_ok(v, "proc")) return fail("a bad " + tag);
        (tag == "proc-present" ? p.mounts.proc_present : p.mounts.proc_absent).push_back(v);
      } else if (tag == "tool-path") {
        // Never a path a shim may not be put at (mount_plan.h).
        auto normal = normalize_absolute(v);
        if (!plan_path_ok(v, "") || !normal || *normal != v || !tool_path_refusal(v).empty())
          return fail("a bad tool-path");
        p.mounts.tool_paths.push_back(v);
      } else if (tag == "proc-skipped") {
        p.mounts.proc_skipped.push_back(v);
      } else if (tag == "not-presented") {
        p.mounts.not_presented.push_back(v);
      } else if (tag == "marker-shown" || tag == "marker-hidden") {
        (tag == "marker-shown" ? p.markers_shown : p.markers_hidden).push_back(v);
      } else {
        return fail("an unknown tag " + tag);
      }
    }
  }
  if (line_no == 0) return fail("empty");
  if (!ended) return fail("no `end` (cut short)");
  if (seen.size() != scalars.size()) return fail("a value is missing");
  // The markers: each of the list exactly once, shown or hidden.
  std::vector<std::string> all = p.markers_shown;
  all.insert(all.end(), p.markers_hidden.begin(), p.markers_hidden.end());
  std::sort(all.begin(), all.end());
  std::vector<std::string> want = container_marker_paths();
  std::sort(want.begin(), want.end());
  if (all != want) return fail("not the container markers");
  why.clear();
  return p;
}

}  // namespace hwaccel::sim
