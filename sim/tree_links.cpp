#include "sim/tree_links.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "src/vocabulary/path.h"

namespace hwaccel::sim {
namespace {

bool at_or_below(const std::string& path, const std::string& top) {
  return path.rfind(top, 0) == 0 && (path.size() == top.size() || path[top.size()] == '/');
}

std::string join(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& part : parts) out += "/" + part;
  return out.empty() ? "/" : out;
}

bool all_digits(const std::string& word) {
  return !word.empty() &&
         std::all_of(word.begin(), word.end(), [](unsigned char c) { return std::isdigit(c); });
}

// A process's own descriptors: what /dev/fd and /dev/std{in,out,err} link to.
bool own_descriptors(const std::string& path) {
  if (path == "/proc/self/fd") return true;
  return path.rfind("/proc/self/fd/", 0) == 0 && all_digits(path.substr(14));
}

// Names at the top of the real /proc that are links or per-process folders
// (its root, cwd, exe and fds): `hwsim run` never covers them.
bool per_process(const std::string& top) {
  return top == "self" || top == "thread-self" || top == "net" || top == "mounts" ||
         all_digits(top);
}

// A place the walk may stand on: what the tree lays (all of /sys and /dev, the
// recorded files and folders of /proc and the procfs folders above them), and
// "/" and "/proc" on the way through. The rest of /proc is this machine's, and so
// is everything else. A recorded /proc link is not laid (procfs keeps its own).
bool laid(const Snapshot& snapshot, const std::string& path) {
  if (path == "/" || path == "/proc") return true;
  if (at_or_below(path, "/sys") || at_or_below(path, "/dev")) return true;
  if (!at_or_below(path, "/proc")) return false;
  if (per_process(path_components(path)[1])) return false;
  for (std::string p = path; p != "/proc"; p = parent_dir(p)) {
    auto it = snapshot.files.find(p);
    if (it == snapshot.files.end()) continue;
    const auto kind = it->second.kind;
    return kind == FileEntry::Kind::content || kind == FileEntry::Kind::dir ||
           kind == FileEntry::Kind::node;
  }
  // A procfs folder above a recorded path (/proc/driver above /proc/driver/nvidia).
  auto below = snapshot.files.upper_bound(path + "/");
  return below != snapshot.files.end() && below->first.rfind(path + "/", 0) == 0;
}

}  // namespace

std::string link_leaves_view(const Snapshot& snapshot, const std::string& where,
                             const std::string& target) {
  if (target.empty()) return "";  // opens fail with ENOENT, as on Linux
  if (target.front() == '/' && !has_dotdot(target) && own_descriptors(*normalize_absolute(target)))
    return "";
  std::vector<std::string> done;
  if (target.front() != '/') done = path_components(parent_dir(where));
  std::vector<std::string> todo;
  auto push = [&todo](const std::string& text) {
    auto parts = path_components(text);
    todo.insert(todo.end(), parts.rbegin(), parts.rend());
  };
  push(target);
  int hops = 0;
  auto outside = [&](const std::string& at) {
    return "leads to " + at + ", outside the simulated /sys, /proc and /dev";
  };
  // As the kernel walks it in the command's view: the snapshot's links
  // followed (laid or not: one that leads out is refused on its own), ".."
  // from where the walk stands, every step inside what the tree lays.
  while (!todo.empty()) {
    std::string name = std::move(todo.back());
    todo.pop_back();
    if (name == ".") continue;
    if (name == "..") {
      if (!done.empty()) done.pop_back();
    } else {
      done.push_back(name);
    }
    const std::string at = join(done);
    if (!laid(snapshot, at)) return outside(at);
    if (name == "..") continue;
    auto it = snapshot.files.find(at);
    if (it == snapshot.files.end() || it->second.kind != FileEntry::Kind::link) continue;
    if (++hops > 40) return "";  // a loop: every open fails with ELOOP, as recorded
    const std::string& next = it->second.target;
    if (next.empty()) return "";
    done.pop_back();
    if (next.front() == '/') done.clear();
    push(next);
  }
  const std::string end = join(done);
  if (end == "/" || end == "/proc") return outside(end);
  return "";
}

}  // namespace hwaccel::sim
