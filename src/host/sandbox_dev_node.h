// `hwsim run`: a character device at a name in the tree's /dev (a snapshot's
// device node, or one of the basic devices every program needs) that looks like a
// device of this machine: the same type, numbers (st_rdev), mode and owner.
// Made with mknodat(2) where this process may (CAP_MKNOD in the initial user
// namespace: hwsim run as root; the kernel refuses it, EPERM, in a user namespace)
// and the folder's mount lets devices be opened (no MS_NODEV); else, as before,
// this machine's device bound over a plain file there. A node made costs no mount:
// nothing to make at the start nor to tear down with the namespace.
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <cstddef>
#include <string>

namespace hwaccel {

class DevNodeMaker {
 public:
  // `allow_mknod` false: always the bind (tests force the fallback with it).
  explicit DevNodeMaker(bool allow_mknod = true);
  DevNodeMaker(const DevNodeMaker&) = delete;
  DevNodeMaker& operator=(const DevNodeMaker&) = delete;
  // The umask set aside for the nodes is given back.
  ~DevNodeMaker();

  // `name` in the folder `dir` is open on (O_PATH) becomes a character device like
  // `real` (a path of this machine, already stat'ed into `like`). What the folder
  // holds there is replaced: a plain file, a link or a node (never a folder). The
  // first mknodat refused, or a folder on a nodev mount, turns to binds for the rest
  // (`refused` says why). False and `why` (naming `shown_as`, the command's path)
  // when neither works; a plain file may then stay there.
  bool make(int dir, const std::string& name, const std::string& real, const struct stat& like,
            const std::string& shown_as, std::string& why);

  std::size_t made() const { return made_; }
  std::size_t bound() const { return bound_; }
  // "" while mknodat is used (or untried); else why this run binds instead.
  const std::string& refused() const { return refused_; }

 private:
  bool bind_at(int dir, const std::string& name, const std::string& real,
               const std::string& shown_as, std::string& why);

  bool allow_;
  bool nodev_asked_ = false, umask_set_ = false;
  mode_t old_umask_ = 0;
  std::size_t made_ = 0, bound_ = 0;
  std::string refused_;
};

}  // namespace hwaccel
