#include "src/host/sandbox_dev_node.h"

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "src/host/tree_fd.h"
#include "src/vocabulary/path.h"

namespace hwaccel {

DevNodeMaker::DevNodeMaker(bool allow_mknod)
    : allow_(allow_mknod), uid_(::geteuid()), gid_(::getegid()) {
  if (!allow_) refused_ = "device nodes are bound, as asked";
}

DevNodeMaker::~DevNodeMaker() {
  restore_umask();
}

void DevNodeMaker::restore_umask() {
  if (umask_set_) ::umask(old_umask_);
  umask_set_ = false;
}

void DevNodeMaker::clear_umask() {
  if (!umask_set_) old_umask_ = ::umask(0);
  umask_set_ = true;
}

bool DevNodeMaker::is_like(const struct stat& st, const struct stat& like) {
  return S_ISCHR(st.st_mode) && st.st_rdev == like.st_rdev &&
         (st.st_mode & 07777) == (like.st_mode & 07777) && st.st_uid == like.st_uid &&
         st.st_gid == like.st_gid;
}

bool DevNodeMaker::make_fresh(int dir, const std::string& name, const struct stat& like,
                              const std::string& shown_as) {
  if (!refused_.empty() || !S_ISCHR(like.st_mode)) return false;
  clear_umask();
  if (::mknodat(dir, name.c_str(), S_IFCHR | (like.st_mode & 07777), like.st_rdev) != 0) {
    // EPERM in a user namespace (no CAP_MKNOD in the initial one): the binds.
    refused_ = "mknod " + shown_as + ": " + std::strerror(errno);
    return false;
  }
  // Made as this process's user and group; this machine's may be another.
  if ((like.st_uid != uid_ || like.st_gid != gid_) &&
      ::fchownat(dir, name.c_str(), like.st_uid, like.st_gid, AT_SYMLINK_NOFOLLOW) != 0) {
    refused_ = "chown " + shown_as + ": " + std::strerror(errno);
    ::unlinkat(dir, name.c_str(), 0);
    return false;
  }
  ++made_;
  return true;
}

// The fallback: this machine's device bound over a plain file at `name` (the one
// there, or a new one where the name is free, a link or a node).
bool DevNodeMaker::bind_at(int dir, const std::string& name, const std::string& real,
                           const std::string& shown_as, std::string& why) {
  auto create = [&] {
    return Fd(
        ::openat(dir, name.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0666));
  };
  Fd onto = create();
  if (!onto.ok() && errno == EEXIST) {
    // Opened in the folder already open, never through a link.
    onto = Fd(::openat(dir, name.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC));
    struct stat st {};
    if (onto.ok() && ::fstat(onto.get(), &st) == 0 && !S_ISREG(st.st_mode)) {
      onto = Fd();
      if (S_ISDIR(st.st_mode)) {
        why = shown_as + ": the tree has a folder there";
        return false;
      }
      if (::unlinkat(dir, name.c_str(), 0) == 0) onto = create();
    }
  }
  if (!onto.ok()) {
    why = shown_as + ": the tree's " + shown_as + ": " + std::strerror(errno);
    return false;
  }
  if (::mount(real.c_str(), onto.proc_path().c_str(), nullptr, MS_BIND | MS_REC, nullptr) != 0) {
    why = "mount --bind " + real + " (onto the tree's " + shown_as + "): " + std::strerror(errno);
    return false;
  }
  ++bound_;
  return true;
}

bool DevNodeMaker::make(int dir, const std::string& name, const std::string& real,
                        const struct stat& like, const std::string& shown_as, std::string& why,
                        bool mknod_here) {
  // Only a character device is made; anything else of this machine is bound.
  if (refused_.empty() && mknod_here && S_ISCHR(like.st_mode)) {
    // A node on a nodev mount cannot be opened (EACCES): bound there instead. Every
    // folder given is the tree's, on its one mount: asked once.
    if (!nodev_asked_) {
      nodev_asked_ = true;
      struct statvfs fs {};
      if (::fstatvfs(dir, &fs) == 0 && (fs.f_flag & ST_NODEV) != 0)
        refused_ = "the tree's mount is nodev";
    }
    // mknodat does not replace: what is there (a placeholder) goes first.
    if (refused_.empty()) {
      if (::unlinkat(dir, name.c_str(), 0) != 0 && errno == EISDIR) {
        why = shown_as + ": the tree has a folder there";
        return false;
      }
      if (make_fresh(dir, name, like, shown_as)) return true;
    }
  }
  return bind_at(dir, name, real, shown_as, why);
}

namespace {

// The upper layer's folder for the tree's `dir` ("/dev", "/dev/dri"), made on the
// way as the lower layer's is (mode and owner, as a copy-up would): !ok() where a
// component of the lower one is missing, a link or not a folder.
Fd upper_folder(int lower, int upper, const std::string& dir) {
  std::string why, at;
  Fd cur(::openat(upper, ".", O_PATH | O_DIRECTORY | O_CLOEXEC));
  for (const auto& part : path_components(dir)) {
    at += "/" + part;
    Fd low = open_in_tree(lower, at, Walk::open, why);
    struct stat st {};
    if (!cur.ok() || !low.ok() || ::fstat(low.get(), &st) != 0 || !S_ISDIR(st.st_mode)) return Fd();
    if (::mkdirat(cur.get(), part.c_str(), st.st_mode & 07777) == 0) {
      if ((st.st_uid != ::geteuid() || st.st_gid != ::getegid()) &&
          ::fchownat(cur.get(), part.c_str(), st.st_uid, st.st_gid, AT_SYMLINK_NOFOLLOW) != 0)
        return Fd();
    } else if (errno != EEXIST) {
      return Fd();
    }
    cur = Fd(::openat(cur.get(), part.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  }
  return cur;
}

}  // namespace

void make_nodes_in_upper(int lower, int upper, const std::vector<std::string>& nodes,
                         DevNodeMaker& maker) {
  struct stat null_dev {};
  if (!maker.refused().empty() || ::stat("/dev/null", &null_dev) != 0 || !S_ISCHR(null_dev.st_mode))
    return;
  std::vector<std::pair<std::string, struct stat>> wanted;  // the tree's path, like what
  maker.clear_umask();  // the folders too are made with the lower's modes
  for (const auto& path : nodes)
    if (parent_dir(path) == "/dev") wanted.emplace_back(path, null_dev);
  const std::size_t placeholders = wanted.size();
  for (const char* name : kBasicDevices) {
    const std::string real = std::string("/dev/") + name;
    struct stat st {};
    if (::stat(real.c_str(), &st) == 0 && S_ISCHR(st.st_mode)) wanted.emplace_back(real, st);
  }
  std::string dir_path, why;
  Fd lower_dir, upper_dir;
  for (std::size_t i = 0; i < wanted.size(); ++i) {
    const auto& [path, like] = wanted[i];
    const std::string dir = parent_dir(path), name = path.substr(path.rfind('/') + 1);
    if (dir != dir_path) {
      dir_path = dir;
      lower_dir = open_in_tree(lower, dir, Walk::open, why);
      upper_dir = lower_dir.ok() ? upper_folder(lower, upper, dir) : Fd();
    }
    if (!upper_dir.ok()) continue;  // said when the overlay's folder is worked on
    // A node's placeholder must be a plain file; a basic device takes the place of
    // anything but a folder (as through the overlay).
    struct stat there {};
    const bool present = ::fstatat(lower_dir.get(), name.c_str(), &there, AT_SYMLINK_NOFOLLOW) == 0;
    if (i < placeholders ? !present || !S_ISREG(there.st_mode) : present && S_ISDIR(there.st_mode))
      continue;
    if (!maker.make_fresh(upper_dir.get(), name, like, path)) break;
    maker.note_made(path);
  }
  maker.restore_umask();
}

}  // namespace hwaccel
