#include "src/host/sandbox_cover.h"

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

#include "src/host/sandbox_dev_node.h"
#include "src/host/sandbox_namespace.h"
#include "src/vocabulary/path.h"

namespace hwaccel::sandbox {
namespace {

// This machine's `real` bound onto the tree's `rel` (a placeholder made for it,
// reached without following any link in the tree).
bool bind_into_tree(int tree, const std::string& real, const std::string& rel, Walk walk,
                    std::string& why) {
  Fd onto = open_in_tree(tree, rel, walk, why);
  if (!onto.ok()) return false;
  if (::mount(real.c_str(), onto.proc_path().c_str(), nullptr, MS_BIND | MS_REC, nullptr) == 0)
    return true;
  why = "mount --bind " + real + " (onto the tree's " + rel + "): " + std::strerror(errno);
  return false;
}

// The tree at its own path below the namespace's /dev/shm (HWSIM_ROOT and the
// shims name it), with the files bound into it: the tree alone, not what is
// mounted in it (its /dev/shm would hold it again).
void tree_in_own_shm(const SandboxSpec& spec, int tree, std::vector<std::string>& uncovered) {
  std::string why;
  Fd at = open_in_tree(tree, spec.tree, Walk::make_dirs, why);
  Fd self(::openat(tree, ".", O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!at.ok() ||
      ::mount(self.proc_path().c_str(), at.proc_path().c_str(), nullptr, MS_BIND, nullptr) != 0) {
    uncovered.push_back(spec.tree +
                        " (the tree, in /dev/shm): " + (at.ok() ? std::strerror(errno) : why));
    return;
  }
  Fd copy = open_in_tree(tree, spec.tree, Walk::open, why);
  for (const auto& [from, rel] : spec.tree_binds) {
    Fd to = copy.ok() ? open_in_tree(copy.get(), rel, Walk::open, why) : Fd();
    if (!to.ok() || ::mount(from.c_str(), to.proc_path().c_str(), nullptr, MS_BIND, nullptr) != 0)
      uncovered.push_back(spec.tree + rel +
                          " (in /dev/shm): " + (to.ok() ? std::strerror(errno) : why));
  }
}

bool under_any(const std::string& path, const std::vector<std::string>& dirs) {
  for (const auto& d : dirs)
    if (path == d ||
        (path.size() > d.size() && path.compare(0, d.size(), d) == 0 && path[d.size()] == '/'))
      return true;
  return false;
}

// Folders a missing tool path may be created in with an overlay: vendor trees.
// Laying even a shim into a system folder (/etc, /usr, /lib) changes what every
// program there reads, so those tools are not presented.
bool may_overlay(const std::string& dir) {
  return under_any(dir, {"/opt"}) && dir.find_first_of(",:\\") == std::string::npos;
}

}  // namespace

bool is_dir(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

// Binds the tree's `rel` (reached without following any link in the tree) over
// the real `target`.
bool bind_from_tree(int tree, const std::string& rel, const std::string& target, Walk walk,
                    std::string& why) {
  Fd from = open_in_tree(tree, rel, walk, why);
  if (!from.ok()) return false;
  if (::mount(from.proc_path().c_str(), target.c_str(), nullptr, MS_BIND | MS_REC, nullptr) == 0)
    return true;
  why = "mount --bind (the tree's " + rel + ") " + target + ": " + std::strerror(errno);
  return false;
}

// /dev of the simulated host, plus what any program needs to run at all.
bool cover_dev(const SandboxSpec& spec, int tree, DevNodeMaker& maker,
               std::vector<std::string>& uncovered, std::vector<std::string>& covered) {
  make_dev_nodes(tree, spec.dev_nodes, maker, uncovered, covered);
  std::string why;
  Fd dev = open_in_tree(tree, "/dev", Walk::make_dirs, why);
  if (!dev.ok()) {
    uncovered.push_back("/dev: " + why);
    return false;
  }
  struct stat st {};
  for (const char* name : kBasicDevices) {
    std::string real = std::string("/dev/") + name;
    if (maker.premade(real)) continue;  // before the tree's overlay was mounted
    if (::stat(real.c_str(), &st) != 0) continue;  // before the tree's overlay was mounted
    // Whatever the snapshot put there (a link included) gives way to the device.
    if (!maker.make(dev.get(), name, real, st, real, why))
      uncovered.push_back(real + " (basic device): " + why);
  }
  maker.restore_umask();  // /dev/shm and the rest made under the caller's umask
  // A /dev/shm of its own, as a host's is (this machine's holds other programs'
  // files, and the tree cache); a tree cached there is put at its path in it.
  Fd shm = open_in_tree(tree, "/dev/shm", Walk::make_dirs, why);
  if (!shm.ok() ||
      ::mount("tmpfs", shm.proc_path().c_str(), "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777") != 0)
    uncovered.push_back("/dev/shm: " + (shm.ok() ? std::string(std::strerror(errno)) : why));
  else if (spec.tree.compare(0, 9, "/dev/shm/") == 0)
    tree_in_own_shm(spec, tree, uncovered);
  for (const char* name : {"pts", "mqueue"}) {
    std::string real = std::string("/dev/") + name;
    if (!is_dir(real)) continue;
    if (::fstatat(dev.get(), name, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISDIR(st.st_mode))
      ::unlinkat(dev.get(), name, 0);
    if (!bind_into_tree(tree, real, real, Walk::make_dirs, why))
      uncovered.push_back(real + " (basic device): " + why);
  }
  for (auto [name, target] :
       {std::pair{"fd", "/proc/self/fd"}, std::pair{"stdin", "/proc/self/fd/0"},
        std::pair{"stdout", "/proc/self/fd/1"}, std::pair{"stderr", "/proc/self/fd/2"},
        std::pair{"ptmx", "pts/ptmx"}}) {
    ::symlinkat(target, dev.get(), name);  // where the snapshot has none (else EEXIST)
  }
  if (!bind_from_tree(tree, "/dev", "/dev", Walk::open, why)) {
    uncovered.push_back("/dev: " + why);
    return false;
  }
  covered.push_back("/dev");
  return true;
}

// The recorded /proc paths: each present one bound over the real one; where the
// real one is missing (procfs holds no new files) its nearest folder below /proc
// is replaced by the tree's; where an absent one exists here, the same. Nothing
// in the tree is reached through a link (a snapshot's `/proc/sys: {link: ...}`).
void cover_proc(const SandboxSpec& spec, int tree, std::vector<std::string>& uncovered,
                std::vector<std::string>& covered) {
  std::vector<std::string> replaced;  // folders below /proc now the tree's
  auto replace_folder = [&](const std::string& dir, const std::string& for_path) {
    if (under_any(dir, replaced)) return;
    if (dir == "/proc") {
      uncovered.push_back(for_path + ": procfs cannot be given or hide entries directly in /proc");
      return;
    }
    std::string why;
    if (bind_from_tree(tree, dir, dir, Walk::make_dirs, why)) {
      replaced.push_back(dir);
      covered.push_back(dir + " (the whole folder, for " + for_path + ")");
    } else {
      uncovered.push_back(for_path + ": " + why);
    }
  };
  std::vector<std::string> present = spec.proc_present;
  std::sort(present.begin(), present.end(), [](const std::string& a, const std::string& b) {
    return std::count(a.begin(), a.end(), '/') < std::count(b.begin(), b.end(), '/') ||
           (std::count(a.begin(), a.end(), '/') == std::count(b.begin(), b.end(), '/') && a < b);
  });
  for (const auto& path : spec.proc_absent) {
    if (under_any(path, replaced) || !exists(path)) continue;
    replace_folder(parent_dir(path), path + " (absent in the snapshot)");
  }
  std::vector<std::string> bound;
  for (const auto& path : present) {
    if (under_any(path, replaced) || under_any(path, bound)) continue;
    if (exists(path)) {
      std::string why;
      if (bind_from_tree(tree, path, path, Walk::open, why)) {
        bound.push_back(path);
        covered.push_back(path);
      } else {
        uncovered.push_back(path + ": " + why);
      }
      continue;
    }
    // The highest missing component decides which folder is replaced.
    std::string probe = "/proc";
    for (const auto& part : path_components(path)) {
      if (part == "proc" && probe == "/proc") continue;
      std::string next = probe + "/" + part;
      if (!exists(next)) break;
      probe = next;
    }
    replace_folder(probe, path);
  }
}

// Tools run by absolute path (their shims only, from the tree's .hwsim/paths, which
// holds nothing of the snapshot's files): only where this machine has nothing at
// the path and the nearest real folder is below /opt, that folder gets the shims
// laid over it with a read-only overlay (its real entries stay visible beside
// them). Anything else is not presented, and said so.
void cover_tools(const SandboxSpec& spec, int tree, std::vector<std::string>& uncovered,
                 std::vector<std::string>& covered) {
  // First the refusals, their shims taken out of the layers (with the folders that
  // held only them): an overlay laid for another tool must not bring them in.
  std::vector<std::string> presentable;
  for (const auto& path : spec.tool_paths) {
    std::string why;
    std::string dir = parent_dir(path);
    while (dir != "/" && !exists(dir)) dir = parent_dir(dir);
    // The snapshot adds, never replaces: whatever this machine has at the path (a
    // program, a library, the loader, a link, a configuration) stays its own.
    if (exists(path))
      why = "this machine has a file there, which a snapshot never replaces";
    else if (!is_dir(dir))
      why = dir + " is not a folder here";
    else if (!may_overlay(dir))
      why = "no such file here, and " + dir +
            " is not below /opt (only folders there get a shim laid in)";
    if (why.empty()) {
      presentable.push_back(path);
      continue;
    }
    uncovered.push_back(path + " (tool shim, not presented): " + why);
    std::string rel = spec.shim_paths + path, open_why;
    for (bool file = true; rel != spec.shim_paths; file = false, rel = parent_dir(rel)) {
      Fd parent = open_in_tree(tree, parent_dir(rel), Walk::open, open_why);
      if (!parent.ok() || ::unlinkat(parent.get(), rel.substr(rel.rfind('/') + 1).c_str(),
                                     file ? 0 : AT_REMOVEDIR) != 0)
        break;
    }
  }
  std::vector<std::string> overlaid;
  for (const auto& path : presentable) {
    if (under_any(path, overlaid)) {
      covered.push_back(path + " (tool shim)");
      continue;
    }
    std::string why;
    std::string dir = parent_dir(path);
    while (dir != "/" && !exists(dir)) dir = parent_dir(dir);
    Fd layer = open_in_tree(tree, spec.shim_paths + dir, Walk::open, why);
    if (!layer.ok()) {
      uncovered.push_back(path + " (tool shim, not presented): " + why);
      continue;
    }
    std::string options = "lowerdir=" + layer.proc_path() + ":" + dir;
    if (::mount("overlay", dir.c_str(), "overlay", MS_RDONLY, options.c_str()) == 0) {
      overlaid.push_back(dir);
      covered.push_back(path + " (tool shim, " + dir + " overlaid)");
    } else {
      uncovered.push_back(path + " (tool shim): overlay on " + dir + ": " + std::strerror(errno));
    }
  }
}

void cover_tree_binds(const SandboxSpec& spec, int tree, std::vector<std::string>& uncovered,
                      std::vector<std::string>& covered) {
  for (const auto& [from, rel] : spec.tree_binds) {
    std::string why;
    Fd to = open_in_tree(tree, rel, Walk::open, why);
    if (to.ok() && ::mount(from.c_str(), to.proc_path().c_str(), nullptr, MS_BIND, nullptr) != 0)
      why = "mount --bind " + from + ": " + std::strerror(errno);
    if (why.empty())
      covered.push_back(rel + " (" + from + ")");
    else
      uncovered.push_back(rel + ": " + why);
  }
}

// A tool recorded as not found whose every real copy is now hidden needs no
// stand-in shim: without it a PATH search fails with ENOENT, as on the host.
void hide_stand_in_shims(const SandboxSpec& spec, int tree) {
  std::string why;
  Fd bin = open_in_tree(tree, spec.shim_dir, Walk::open, why);
  if (!bin.ok()) return;
  for (const auto& [name, paths] : spec.hidden_tools) {
    if (std::any_of(paths.begin(), paths.end(), [](const std::string& p) { return exists(p); }))
      continue;
    ::unlinkat(bin.get(), name.c_str(), 0);
  }
}

}  // namespace hwaccel::sandbox
