#include "src/host/sandbox_dev_node.h"

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "src/host/tree_fd.h"

namespace hwaccel {

DevNodeMaker::DevNodeMaker(bool allow_mknod) : allow_(allow_mknod) {
  if (!allow_) refused_ = "device nodes are bound, as asked";
}

DevNodeMaker::~DevNodeMaker() {
  if (umask_set_) ::umask(old_umask_);
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
                        const struct stat& like, const std::string& shown_as, std::string& why) {
  // Only a character device is made; anything else of this machine is bound.
  if (refused_.empty() && S_ISCHR(like.st_mode)) {
    // A node on a nodev mount cannot be opened (EACCES): bound there instead. Every
    // folder given is the tree's, on its one mount: asked once.
    if (!nodev_asked_) {
      nodev_asked_ = true;
      struct statvfs fs {};
      if (::fstatvfs(dir, &fs) == 0 && (fs.f_flag & ST_NODEV) != 0)
        refused_ = "the tree's mount is nodev";
    }
    if (refused_.empty()) {
      if (!umask_set_) {
        old_umask_ = ::umask(0);  // it would take bits off the mode
        umask_set_ = true;
      }
      // mknodat does not replace: what is there (a placeholder) goes first.
      if (::unlinkat(dir, name.c_str(), 0) != 0 && errno == EISDIR) {
        why = shown_as + ": the tree has a folder there";
        return false;
      }
      if (::mknodat(dir, name.c_str(), S_IFCHR | (like.st_mode & 07777), like.st_rdev) != 0) {
        // EPERM in a user namespace (no CAP_MKNOD in the initial one): the binds.
        refused_ = "mknod " + shown_as + ": " + std::strerror(errno);
      } else if ((like.st_uid != ::geteuid() || like.st_gid != ::getegid()) &&
                 ::fchownat(dir, name.c_str(), like.st_uid, like.st_gid, AT_SYMLINK_NOFOLLOW) !=
                     0) {
        // Made as this process's user and group; this machine's may be another.
        refused_ = "chown " + shown_as + ": " + std::strerror(errno);
      } else {
        ++made_;
        return true;
      }
    }
  }
  return bind_at(dir, name, real, shown_as, why);
}

}  // namespace hwaccel
