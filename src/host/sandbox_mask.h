// `hwsim run`, inside its private mount namespace: paths of this machine outside
// /sys, /proc and /dev that must look like the simulated host's. A path to hide
// (this machine's /.dockerenv, a tool the snapshot records as not found) is made
// absent: its folder gets a writable overlay with a whiteout (writes land in a
// tmpfs that dies with the namespace); a path to show (the snapshot's own
// /.dockerenv) is bound from the tree. Entries directly in "/" cannot be overlaid
// (the root's mounts would vanish): the command then gets a new root, a tmpfs
// holding bind mounts of every other top-level entry, entered with pivot_root(2)
// (chroot(2) where that is refused); the old root is detached, so the command's
// /proc/self/mountinfo lists only what is in the new one.
// Device nodes: the tree's placeholders in /dev become character devices that reach
// no driver of this machine: made with /dev/null's numbers and mode where this
// process may (src/host/sandbox_dev_node.h), else its /dev/null bound over each;
// never the driver's numbers, which this machine's driver of that major would answer.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "src/host/sandbox_dev_node.h"
#include "src/host/tree_fd.h"

namespace hwaccel {

struct DevNode {
  std::string path;  // "/dev/nvidia0"
  // What the driver would give (sim/dev_nodes.h); said, never made.
  unsigned major = 0, minor = 0;
  unsigned mode = 0666;
};

struct MaskSpec {
  std::vector<std::string> hide;  // absolute paths on this machine, made absent
  std::vector<std::string> show;  // absolute paths the tree holds at the same place
  // Absolute path -> a file of this machine put there, as a shown path is (the
  // simulated libnvidia-ml.so.1 at the loader's path: too big to copy into the tree).
  std::map<std::string, std::string> bind_in;
  // Always enter a new root (pivot_root), not only for entries directly in "/": the
  // command's mountinfo then lists the namespace's mounts only, without `foreign`
  // (this machine's mounts a host does not have, src/host/mount_table.h).
  bool new_root = false;
  std::vector<std::string> foreign;
  // Top-level mount points this namespace made itself ("/proc", "/dev", "/sys" with
  // what was laid over them): moved into the new root whole (MS_MOVE), not copied
  // into it with a recursive bind and then torn down with the old root. Where the
  // kernel refuses the move, they are bound as any other entry.
  std::vector<std::string> move_in;
};

// The scratch tmpfs: the mask overlays' layers and the new root live there, and die
// with the namespace. Mounted on `over` (the run's own private folder, already a
// tmpfs of the namespace's: nothing is made in the tree for it) where there is one,
// else in the tree's /.hwsim/scratch.
class MaskScratch {
 public:
  MaskScratch(int tree, std::string tree_path, std::string over = "");
  // Mounted on first use; false and `why` when it cannot be.
  bool ready(std::string& why);
  // A new folder in the scratch tmpfs, open (O_PATH), and its path for mount(2).
  Fd folder(const std::string& name, std::string& path, std::string& why);
  // `name` again after a mount on it: the mount's root (a descriptor of the folder,
  // or its /proc/self/fd name, would stay below the mount).
  Fd again(const std::string& name, std::string& path);
  // The new root: a tmpfs of its own in the scratch ("/" of it in mountinfo). Made
  // before any other mount the command sees: /proc/self/mountinfo lists a
  // namespace's mounts in the order they were made (a moved mount keeps its place),
  // so the root is its first line. False and `why` when it cannot be made.
  bool prepare_root(std::string& why);
  int root() const { return root_.get(); }
  const std::string& root_path() const { return root_path_; }
  // After chroot: the scratch reappears inside the new root where its folder is
  // bound in (the tree cache outside /dev/shm: in /tmp or a home folder); gone.
  void detach_copy() const;

 private:
  int tree_;
  std::string tree_path_, over_;
  Fd fd_;
  bool mounted_ = false;
  Fd root_;
  std::string root_path_, root_failed_;
};

// Before /dev is bound: each node's placeholder in the tree becomes a character
// device like this machine's /dev/null (1:3): made by `maker`, or /dev/null bound
// over it. Lines for what could not be made go to `uncovered`.
void make_dev_nodes(int tree, const std::vector<DevNode>& nodes, DevNodeMaker& maker,
                    std::vector<std::string>& uncovered, std::vector<std::string>& covered);

// After every other mount: hides and shows the paths, entering a new root when
// an entry directly in "/" is concerned (in `scratch`: the one prepared there, if
// any). `cwd` is re-entered in the new root.
void apply_masks(int tree, MaskScratch& scratch, const MaskSpec& spec, const std::string& cwd,
                 std::vector<std::string>& uncovered, std::vector<std::string>& covered);

}  // namespace hwaccel
