// Reads that stay inside a tree. The running machine's /sys, /proc and /dev, a
// folder of snapshots (`hwsim fleet DIR`, `hwsim check DIR`) and a model folder
// (`plan --model DIR`) are each a tree: a link in one may lead anywhere inside it,
// never out. A link that does is not followed; the call fails with EXDEV and a
// message that names the path and says so, never with a byte of the target.
//
// The kernel resolves (openat2 with RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS: one
// system call, and no window for a link swapped in meanwhile). Where it refuses a
// step (an absolute link, which may still lead back inside) or has no openat2 (a
// kernel before 5.6, a seccomp filter), resolve_beneath() walks component by
// component and decides; the path it returns holds no link, and is opened with
// O_NOFOLLOW. Either way the verdict is the walk's.
//
// A --root tree is different: there an absolute link means "from the tree's
// root" and ".." stops at it (src/host/root_path.h), so nothing leads out.
#pragma once

#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "src/host/text_file.h"
#include "src/host/tree_fd.h"
#include "src/vocabulary/result.h"

namespace hwaccel {

// Resolves `path` (absolute) inside `trees` (absolute folders free of links:
// canonical paths), following every link on the way (the last one when
// `follow_last`). Only the trees and what is below them may be reached; an
// absolute link may pass through their parents on its way back in
// ("/sys/devices/..." from /sys), nothing else. Fails with EXDEV ("PATH: a link
// leads outside SHOWN") when a step would leave them, ELOOP past 40 links, else
// the errno of the failing step. Returns the link-free real path.
Result<std::string> resolve_beneath(const std::vector<std::string>& trees, std::string_view path,
                                    bool follow_last, std::string_view shown);

class InsideTree {
 public:
  // `tree`: an absolute folder. The links of its own path are followed once
  // (whoever named the folder chose them); nothing below it leads out.
  // `shown`: how messages spell the tree (the user's DIR); the tree itself when
  // empty. `also`: other trees (canonical) a link may lead into: the kernel's
  // /sys, /proc and /dev link to each other (/proc/device-tree is
  // /sys/firmware/devicetree/base, /dev/fd is /proc/self/fd).
  explicit InsideTree(std::string tree, std::string shown = "", std::vector<std::string> also = {});
  InsideTree(const InsideTree&) = delete;
  InsideTree& operator=(const InsideTree&) = delete;

  const std::string& tree() const { return tree_; }
  // Whether `path` is the tree or below it, by its spelling (before any link).
  bool holds(std::string_view path) const;
  // Opens `path` (absolute, as holds() allows) with `flags` (O_CLOEXEC added),
  // every link on the way resolved inside the tree, the last one only when
  // `follow_last` (pass O_PATH | O_NOFOLLOW to look at a link itself).
  Result<Fd> open(std::string_view path, int flags, bool follow_last = true);

 private:
  void open_tree();
  std::string tree_;  // as given, without a trailing slash ("/" stays "/")
  std::string shown_;
  std::vector<std::string> also_;
  std::once_flag once_;
  std::string real_;  // its canonical path, once opened
  Fd dir_;
  int error_ = 0;  // errno of opening the tree itself
};

// Opens `path` of `tree` for reading if it is a regular file: it is looked at
// first (an O_PATH descriptor, fstat), so a device node is never opened (that can
// act), a FIFO never waited on; then opened through that very descriptor. A
// directory is EISDIR, a FIFO, socket or device EINVAL ("PATH: a FIFO, not a
// regular file"). O_NONBLOCK is kept only when `keep_nonblock`. The caller closes it.
Result<RegularFile> open_regular_inside(InsideTree& tree, std::string_view path,
                                        bool keep_nonblock = false);

// realpath(3) of an absolute path: every link followed, ".." resolved.
Result<std::string> canonical_path(const std::string& path);

// Whether openat2 is tried (it is unless the kernel said ENOSYS). Tests turn it
// off to run the step-by-step walk on a kernel that has openat2.
void set_openat2_enabled(bool on);
bool openat2_enabled();

// The link target of an O_PATH | O_NOFOLLOW descriptor (readlinkat with ""),
// the buffer grown as needed. EINVAL when it is not a link.
Result<std::string> read_link_of(const Fd& fd, std::string_view shown);

}  // namespace hwaccel
