#include "src/host/sandbox_mask.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <map>
#include <set>
#include <utility>

#include "src/host/sandbox_dev_node.h"
#include "src/host/tree_fd.h"
#include "src/vocabulary/path.h"

namespace hwaccel {
namespace {

// statfs(2)'s f_type of an overlay (linux/magic.h: OVERLAYFS_SUPER_MAGIC).
constexpr long kOverlayMagic = 0x794c7630;

std::string err(const std::string& what) {
  return what + ": " + std::strerror(errno);
}

bool exists_here(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

std::string base_name(const std::string& path) {
  auto parts = path_components(path);
  return parts.empty() ? std::string() : parts.back();
}

// An empty regular file `name` in the folder `dir` is open on (an O_PATH descriptor).
bool make_file(int dir, const std::string& name) {
  int fd = ::openat(dir, name.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  ::close(fd);
  return true;
}

bool bind(const std::string& from, const std::string& to, std::string& why) {
  if (::mount(from.c_str(), to.c_str(), nullptr, MS_BIND | MS_REC, nullptr) == 0) return true;
  why = err("mount --bind " + from + " " + to);
  return false;
}

// The tree's file at `path` (reached without following links) bound over `target`.
bool show_from_tree(int tree, const std::string& path, const std::string& target,
                    std::string& why) {
  Fd from = open_in_tree(tree, path, Walk::open, why);
  return from.ok() && bind(from.proc_path(), target, why);
}

// A shown path: this machine's file where the spec names one, else the tree's.
bool show_path(int tree, const MaskSpec& spec, const std::string& path, const std::string& target,
               std::string& why) {
  auto it = spec.bind_in.find(path);
  if (it != spec.bind_in.end()) return bind(it->second, target, why);
  return show_from_tree(tree, path, target, why);
}

// Folder `dir` of this machine with `hide` made absent and `show` (names the
// folder lacks) present as the tree's files: a writable overlay whose upper layer
// holds whiteouts and empty files the tree's are then bound over.
void overlay_folder(int tree, const MaskSpec& spec, MaskScratch& scratch, int index,
                    const std::string& dir, const std::set<std::string>& hide,
                    const std::set<std::string>& show, std::vector<std::string>& uncovered,
                    std::vector<std::string>& covered) {
  auto fail = [&](const std::string& why) {
    for (const auto& n : hide) uncovered.push_back(join_path(dir, n) + " (hidden): " + why);
    for (const auto& n : show) uncovered.push_back(join_path(dir, n) + ": " + why);
  };
  std::string why, upper_path, work_path;
  if (dir.find_first_of(",:\\") != std::string::npos)
    return fail("the folder's name cannot be an overlay's");
  if (!scratch.ready(why)) return fail(why);
  Fd upper = scratch.folder("u" + std::to_string(index), upper_path, why);
  if (!upper.ok()) return fail(why);
  Fd work = scratch.folder("w" + std::to_string(index), work_path, why);
  if (!work.ok()) return fail(why);
  for (const auto& n : hide)
    if (::mknodat(upper.get(), n.c_str(), S_IFCHR | 0000, makedev(0, 0)) != 0)
      return fail(err("mknod (a whiteout) " + n));
  for (const auto& n : show)
    if (!make_file(upper.get(), n)) return fail(err("create " + n));
  std::string options = "lowerdir=" + dir + ",upperdir=" + upper_path + ",workdir=" + work_path;
  if (::mount("overlay", dir.c_str(), "overlay", MS_NOSUID, options.c_str()) != 0)
    return fail(err("overlay on " + dir));
  for (const auto& n : hide) covered.push_back(join_path(dir, n) + " (hidden)");
  for (const auto& n : show) {
    if (show_path(tree, spec, join_path(dir, n), join_path(dir, n), why))
      covered.push_back(join_path(dir, n));
    else
      uncovered.push_back(join_path(dir, n) + ": " + why);
  }
}

// Makes the folder `root` is open on the root: pivot_root with the old root
// detached, so that nothing outside it stays reachable or listed in mountinfo;
// chroot where the kernel refuses. "" or why neither worked. Entered by its
// descriptor: /proc may have been moved into it by then (MaskSpec::move_in).
std::string enter_root(int root, bool& pivoted, std::string& refused) {
  pivoted = false;
  if (::fchdir(root) != 0) return err("chdir (the new root)");
  // pivot_root(".", "."): the old root is stacked on the new one, then detached.
  if (::syscall(SYS_pivot_root, ".", ".") != 0) {
    refused = err("pivot_root");
    if (::chroot(".") != 0) return err("chroot (the new root)");
    return "";
  }
  if (::umount2(".", MNT_DETACH) != 0) refused = err("umount (the old root)");
  pivoted = refused.empty();
  return "";
}

// A new root: every top-level entry but the hidden ones, bound in; the shown ones
// from the tree; this machine's foreign mounts taken out of it. Entered with
// pivot_root; `cwd` is entered again inside it.
void new_root(int tree, const MaskSpec& spec, MaskScratch& scratch,
              const std::set<std::string>& hide, const std::set<std::string>& show,
              const std::string& cwd, std::vector<std::string>& uncovered,
              std::vector<std::string>& covered) {
  auto fail = [&](const std::string& why) {
    for (const auto& n : hide) uncovered.push_back("/" + n + " (hidden): " + why);
    for (const auto& n : show) uncovered.push_back("/" + n + ": " + why);
    if (hide.empty() && show.empty()) uncovered.push_back("a new root: " + why);
  };
  std::string why;
  if (scratch.root() < 0 && !scratch.prepare_root(why)) return fail(why);
  const int root = scratch.root();
  const std::string& root_path = scratch.root_path();
  DIR* top = ::opendir("/");
  if (!top) return fail(err("opendir /"));
  std::vector<std::string> names, moves;
  while (dirent* d = ::readdir(top)) {
    std::string name = d->d_name;
    if (name != "." && name != ".." && !hide.count(name) && !show.count(name))
      names.push_back(name);
  }
  ::closedir(top);
  for (const auto& name : names) {
    const std::string real = "/" + name, inside = root_path + "/" + name;
    struct stat st {};
    if (::lstat(real.c_str(), &st) != 0) continue;
    if (S_ISLNK(st.st_mode)) {
      char target[PATH_MAX];
      ssize_t n = ::readlink(real.c_str(), target, sizeof target - 1);
      if (n < 0 || ::symlinkat(std::string(target, n).c_str(), root, name.c_str()) != 0)
        return fail(err("the new root's /" + name + " (a link)"));
      continue;
    }
    if (std::find(spec.foreign.begin(), spec.foreign.end(), real) != spec.foreign.end()) {
      covered.push_back(real + " (this machine's mount, left out)");
      continue;
    }
    bool made = S_ISDIR(st.st_mode)   ? ::mkdirat(root, name.c_str(), 0755) == 0
                : S_ISREG(st.st_mode) ? make_file(root, name)
                                      : false;
    if (!made) continue;  // a socket or node directly in "/": left out
    if (std::find(spec.move_in.begin(), spec.move_in.end(), real) != spec.move_in.end()) {
      moves.push_back(name);  // last: see below
      continue;
    }
    if (!bind(real, inside, why)) return fail(why);
  }
  for (const auto& n : show) {
    if (!make_file(root, n) || !show_path(tree, spec, "/" + n, root_path + "/" + n, why))
      return fail(why.empty() ? err("create /" + n) : why);
  }
  // This machine's mounts a host does not have, deepest first; a user namespace
  // may not take them out (the kernel locks what it was given).
  std::vector<std::string> kept;
  for (const auto& p : spec.foreign) {
    if (parent_dir(p) == "/") continue;  // not bound in at all
    if (::umount2((root_path + p).c_str(), MNT_DETACH | UMOUNT_NOFOLLOW) == 0)
      covered.push_back(p + " (this machine's mount, left out)");
    else if (::geteuid() != 0)  // as root EINVAL only means it is not there
      kept.push_back(p);
  }
  if (!kept.empty())
    uncovered.push_back(std::to_string(kept.size()) + " mount(s) of this machine (" + kept.front() +
                        (kept.size() > 1 ? ", ..." : "") +
                        ") stay in /proc/self/mountinfo: " + std::strerror(EINVAL) +
                        " (a user namespace may not unmount what it was given)");
  // This namespace's own /proc, /dev and /sys, moved in whole, last, /proc the
  // very last (the paths above go through /proc/self/fd); bound as the rest where
  // a move is refused.
  std::stable_partition(moves.begin(), moves.end(),
                        [](const std::string& n) { return n != "proc"; });
  for (const auto& name : moves) {
    const std::string real = "/" + name, inside = root_path + "/" + name;
    Fd at(::openat(root, name.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (at.ok() && ::mount(real.c_str(), at.proc_path().c_str(), nullptr, MS_MOVE, nullptr) == 0)
      continue;
    if (!bind(real, inside, why)) return fail(why);
  }
  bool pivoted = false;
  std::string refused;
  if (auto failed = enter_root(root, pivoted, refused); !failed.empty()) return fail(failed);
  if (::chdir(cwd.empty() ? "/" : cwd.c_str()) != 0 && ::chdir("/") != 0) return fail(err("chdir"));
  scratch.detach_copy();
  if (!pivoted)
    uncovered.push_back("the new root: " + refused +
                        " (a chroot instead: this machine's root stays reachable)");
  for (const auto& n : hide) covered.push_back("/" + n + " (hidden: a new root without it)");
  for (const auto& n : show) covered.push_back("/" + n + " (the snapshot's, in a new root)");
}

}  // namespace

// The masks' scratch in the run's own tmpfs (beside the overlays' "u", "w", "mN").
constexpr const char* kRunScratchFolder = "s";

MaskScratch::MaskScratch(int tree, std::string tree_path, std::string over)
    : tree_(tree), tree_path_(std::move(tree_path)), over_(std::move(over)) {}

bool MaskScratch::ready(std::string& why) {
  if (fd_.ok()) return true;
  if (!over_.empty()) {
    // In a folder of the run's own tmpfs: nothing is made in the tree for it, and
    // what that tmpfs already holds (the cached layers' overlays, bound into the
    // tree later) stays reachable.
    Fd over(::open(over_.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!over.ok() || ::mkdirat(over.get(), kRunScratchFolder, 0755) != 0) {
      why = err("mkdir (scratch)");
      return false;
    }
    const std::string at = over_ + "/" + kRunScratchFolder;
    if (::mount("tmpfs", at.c_str(), "tmpfs", MS_NOSUID, "mode=0755") != 0) {
      why = err("mount tmpfs (scratch)");
      return false;
    }
    fd_ = Fd(::open(at.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!fd_.ok()) why = err("open (scratch)");
    mounted_ = fd_.ok();
    return mounted_;
  }
  Fd at = open_in_tree(tree_, "/.hwsim/scratch", Walk::make_dirs, why);
  if (!at.ok()) return false;
  if (::mount("tmpfs", at.proc_path().c_str(), "tmpfs", MS_NOSUID, "mode=0755") != 0) {
    why = err("mount tmpfs (scratch)");
    return false;
  }
  // The descriptor of the folder below the mount is not the tmpfs: open it again.
  fd_ = open_in_tree(tree_, "/.hwsim/scratch", Walk::open, why);
  mounted_ = fd_.ok();
  return mounted_;
}

Fd MaskScratch::folder(const std::string& name, std::string& path, std::string& why) {
  if (::mkdirat(fd_.get(), name.c_str(), 0755) != 0) {
    why = err("mkdir (scratch) " + name);
    return Fd();
  }
  Fd f(::openat(fd_.get(), name.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!f.ok()) why = err("open (scratch) " + name);
  path = f.proc_path();
  return f;
}

Fd MaskScratch::again(const std::string& name, std::string& path) {
  Fd f(::openat(fd_.get(), name.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  path = f.proc_path();
  return f;
}

bool MaskScratch::prepare_root(std::string& why) {
  if (root_.ok()) return true;
  if (!root_failed_.empty()) {  // tried before: the same answer
    why = root_failed_;
    return false;
  }
  std::string path;
  Fd folder_fd;
  if (!ready(why) || !(folder_fd = folder("root", path, why)).ok()) {
    root_failed_ = why;
    return false;
  }
  // A file system of its own, so that mountinfo gives the root as "/" of it.
  if (::mount("tmpfs", path.c_str(), "tmpfs", 0, "mode=0755") != 0) {
    why = root_failed_ = err("mount tmpfs (the new root)");
    return false;
  }
  root_ = again("root", root_path_);
  if (!root_.ok()) {
    why = root_failed_ = err("open (the new root)");
    return false;
  }
  return true;
}

void MaskScratch::detach_copy() const {
  if (mounted_)
    ::umount2(
        (over_.empty() ? tree_path_ + "/.hwsim/scratch" : over_ + "/" + kRunScratchFolder).c_str(),
        MNT_DETACH);
}

void make_dev_nodes(int tree, const std::vector<DevNode>& nodes, DevNodeMaker& maker,
                    std::vector<std::string>& uncovered, std::vector<std::string>& covered) {
  if (nodes.empty()) return;
  // Never a node with the driver's numbers: on this machine that major may be a
  // real driver (nvidia's 195, or whatever took a dynamic one), which the command
  // could then open. This machine's /dev/null is a character device that reaches
  // nothing (reads end at once, writes vanish); a program comparing majors sees 1:3.
  struct stat null_dev {};
  if (::stat("/dev/null", &null_dev) != 0) {
    for (const auto& node : nodes)
      uncovered.push_back(node.path + " (character device): " + err("stat /dev/null"));
    return;
  }
  const std::size_t made_before = maker.made(), bound_before = maker.bound();
  std::size_t premade = 0;
  // In a folder below /dev of the cached tree's overlay, a node made would copy the
  // folder up: merged from both layers, it would count 1 link, not the written 2 or
  // more. Bound there (sandbox_dev_node.h); /dev itself is merged anyway.
  struct statfs tree_fs {};
  const bool overlay = ::fstatfs(tree, &tree_fs) == 0 && tree_fs.f_type == kOverlayMagic;
  // The nodes' folder, walked once for a run of nodes in it (all of /dev, mostly).
  std::string dir_path, dir_why;
  Fd dir;
  for (const auto& node : nodes) {
    if (dir_path.empty() || parent_dir(node.path) != dir_path) {
      dir_path = parent_dir(node.path);
      dir_why.clear();
      dir = open_in_tree(tree, dir_path, Walk::open, dir_why);
    }
    if (maker.premade(node.path)) {  // made before the overlay was mounted
      ++premade;
      continue;
    }
    const std::string name = base_name(node.path);
    struct stat st {};
    if (!dir.ok() || ::fstatat(dir.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 ||
        !S_ISREG(st.st_mode)) {
      uncovered.push_back(node.path + " (character device): " +
                          (dir_why.empty() ? "no placeholder in the tree" : dir_why));
      continue;
    }
    std::string why;
    if (!maker.make(dir.get(), name, "/dev/null", null_dev, node.path, why,
                    !overlay || dir_path == "/dev"))
      uncovered.push_back(node.path + " (character device): " + why +
                          " (an empty plain file instead)");
  }
  maker.restore_umask();  // what is made next is made as before
  const auto numbers =
      std::to_string(major(null_dev.st_rdev)) + ":" + std::to_string(minor(null_dev.st_rdev));
  if (const auto made = maker.made() - made_before + premade; made > 0)
    covered.push_back(std::to_string(made) + " device node(s): made (mknod) with this machine's " +
                      "/dev/null's numbers and mode (a character device " + numbers +
                      " that reaches no driver), not the driver's");
  if (const auto bound = maker.bound() - bound_before; bound > 0)
    covered.push_back(std::to_string(bound) +
                      " device node(s): each this machine's /dev/null bound in (a character "
                      "device " +
                      numbers + " that reaches no driver), not the driver's numbers" +
                      (maker.refused().empty() ? "" : " (not made: " + maker.refused() + ")"));
}

void apply_masks(int tree, MaskScratch& scratch, const MaskSpec& spec, const std::string& cwd,
                 std::vector<std::string>& uncovered, std::vector<std::string>& covered) {
  std::map<std::string, std::pair<std::set<std::string>, std::set<std::string>>> by_dir;
  std::set<std::string> root_hide, root_show;
  struct stat shell {};
  const bool have_shell = ::stat("/bin/sh", &shell) == 0;
  for (const auto& path : spec.hide) {
    if (!exists_here(path)) continue;  // already absent
    struct stat st {};
    if (have_shell && ::stat(path.c_str(), &st) == 0 && st.st_dev == shell.st_dev &&
        st.st_ino == shell.st_ino) {
      uncovered.push_back(path + " (hidden): it is the shell the shims run (/bin/sh): not hidden");
      continue;
    }
    // /bin/x and /usr/bin/x are one file where /bin links to usr/bin: one folder.
    char real[PATH_MAX];
    std::string dir = parent_dir(path);
    if (::realpath(dir.c_str(), real)) dir = real;
    (dir == "/" ? root_hide : by_dir[dir].first).insert(base_name(path));
  }
  std::vector<std::string> shown = spec.show;
  for (const auto& [path, source] : spec.bind_in) shown.push_back(path);
  for (const auto& path : shown) {
    auto dir = parent_dir(path);
    std::string why;
    if (dir == "/") {
      root_show.insert(base_name(path));
    } else if (exists_here(path)) {
      if (show_path(tree, spec, path, path, why))
        covered.push_back(path);
      else
        uncovered.push_back(path + ": " + why);
    } else if (exists_here(dir)) {
      by_dir[dir].second.insert(base_name(path));
    } else {
      uncovered.push_back(path + ": its folder " + dir + " does not exist on this machine");
    }
  }
  int index = 0;
  for (const auto& [dir, names] : by_dir)
    overlay_folder(tree, spec, scratch, index++, dir, names.first, names.second, uncovered,
                   covered);
  if (spec.new_root || !root_hide.empty() || !root_show.empty())
    new_root(tree, spec, scratch, root_hide, root_show, cwd, uncovered, covered);
}

}  // namespace hwaccel
