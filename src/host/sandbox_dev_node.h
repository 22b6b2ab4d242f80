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
#include <set>
#include <string>
#include <vector>

namespace hwaccel {

// What every program needs in /dev: this machine's own, by name.
inline constexpr const char* kBasicDevices[] = {"null", "zero", "full", "random", "urandom", "tty"};

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
  // `mknod_here` false: bound, even where nodes could be made (a folder of an
  // overlay that a node would copy up, see make_dev_nodes).
  bool make(int dir, const std::string& name, const std::string& real, const struct stat& like,
            const std::string& shown_as, std::string& why, bool mknod_here = true);

  // `name` made in `dir` (nothing there yet, no nodev check: an overlay's upper
  // layer before the overlay is mounted) like `like`; false (and refused() says
  // why, for the rest too) where mknodat or chown is refused.
  bool make_fresh(int dir, const std::string& name, const struct stat& like,
                  const std::string& shown_as);
  // A node made before the overlay was mounted (make_nodes_in_upper), at the
  // tree's `path`: counted as made, not asked again.
  void note_made(const std::string& path) { premade_.insert(path); }
  bool premade(const std::string& path) const { return premade_.count(path) != 0; }
  // The overlay could not be mounted after all: nothing of it counts.
  void forget_premade() { premade_.clear(); }
  // `st` is a character device like `like`: the same numbers, mode and owner.
  static bool is_like(const struct stat& st, const struct stat& like);
  // The umask set aside (it would take bits off the modes given) until
  // restore_umask, which gives it back: called as soon as the nodes are made
  // (anything else the run makes is made under the caller's umask, as before).
  void clear_umask();
  void restore_umask();

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
  uid_t uid_;
  gid_t gid_;
  std::size_t made_ = 0, bound_ = 0;
  std::string refused_;
  std::set<std::string> premade_;
};

// Before an overlay of the tree is mounted: the device nodes (`nodes`, the tree's
// paths of the snapshot's, made like this machine's /dev/null) and the basic
// devices made straight in its upper layer `upper` (plain calls of a tmpfs),
// each over the lower layer's placeholder, the folders on the way made as the
// lower's are. Through the mounted overlay each would cost a whiteout and a node
// made over it. Nothing where `maker` may not make nodes; what is not made here is
// made (or bound) through the overlay later. Only nodes directly in /dev: that
// folder is merged from both layers anyway (the basic devices are made there); a
// folder below it made in the upper layer would be merged too, and an overlay
// gives a merged folder the link count 1, not the one written (2 and more).
void make_nodes_in_upper(int lower, int upper, const std::vector<std::string>& nodes,
                         DevNodeMaker& maker);

}  // namespace hwaccel
