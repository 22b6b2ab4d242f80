// DevNodeMaker: a character device like this machine's (numbers, mode, owner) made
// with mknodat where the process may, and this machine's device bound over a plain
// file where it may not (a user namespace: EPERM; a nodev mount; asked not to).
// The binds are made in a child process with a mount namespace of its own.
#include "src/host/sandbox_dev_node.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "src/host/tree_fd.h"
#include "src/host/tree_writer.h"

namespace hwaccel {
namespace {

class SandboxDevNode : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    base_ = make_private_temp_dir("dev-node-test-", error);
    ASSERT_FALSE(base_.empty()) << error;
    ASSERT_EQ(::stat("/dev/null", &null_), 0);
    ASSERT_TRUE(S_ISCHR(null_.st_mode));
    std::ofstream(base_ + "/nvidia0") << "";  // the tree's placeholder
  }
  void TearDown() override { EXPECT_EQ(remove_tree(base_), ""); }

  Fd dir() const { return Fd(::open(base_.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC)); }

  // Runs `body` in a child with a mount namespace of its own (and a user namespace
  // mapping this user to root where `user_ns`); its exit code: 0 passed, 77 not
  // possible here, else the check that failed.
  static int in_child(bool user_ns, int (*body)(const std::string&, const struct stat&),
                      const std::string& base, const struct stat& like) {
    pid_t pid = ::fork();
    if (pid == 0) {
      const uid_t uid = ::geteuid();
      const gid_t gid = ::getegid();
      if (::unshare(CLONE_NEWNS | (user_ns ? CLONE_NEWUSER : 0)) != 0) ::_exit(77);
      if (user_ns) {
        auto put = [](const char* file, const std::string& text) {
          int fd = ::open(file, O_WRONLY | O_CLOEXEC);
          bool ok = fd >= 0 && ::write(fd, text.data(), text.size()) == ssize_t(text.size());
          if (fd >= 0) ::close(fd);
          return ok;
        };
        if (!put("/proc/self/setgroups", "deny") ||
            !put("/proc/self/uid_map", "0 " + std::to_string(uid) + " 1\n") ||
            !put("/proc/self/gid_map", "0 " + std::to_string(gid) + " 1\n"))
          ::_exit(77);
      }
      if (::mount("none", "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) ::_exit(77);
      ::_exit(body(base, like));
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0) {
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 100;
  }

  std::string base_;
  struct stat null_ {};
};

// 0 where `path` is a character device with `like`'s numbers, mode and owner.
int like_device(const std::string& path, const struct stat& like) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return 10;
  if (!S_ISCHR(st.st_mode)) return 11;
  if (st.st_rdev != like.st_rdev) return 12;
  if ((st.st_mode & 07777) != (like.st_mode & 07777)) return 13;
  return 0;
}

// In a child (a refused mknod would bind): 78 where mknod is not allowed here.
int made_where_allowed(const std::string& base, const struct stat& like) {
  const mode_t before = ::umask(077);  // would take bits off a node's mode
  {
    DevNodeMaker maker;
    std::string why;
    Fd at(::open(base.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (!maker.make(at.get(), "nvidia0", "/dev/null", like, "/dev/nvidia0", why)) return 1;
    if (maker.made() == 0) return 78;
    if (maker.bound() != 0 || !maker.refused().empty()) return 2;
    // The placeholder was replaced; a name not there yet is made too.
    if (!maker.make(at.get(), "nvidiactl", "/dev/null", like, "/dev/nvidiactl", why)) return 3;
    if (maker.made() != 2) return 4;
  }
  if (::umask(before) != 077) return 5;  // not given back
  for (const char* name : {"/nvidia0", "/nvidiactl"}) {
    struct stat st {};
    if (::lstat((base + name).c_str(), &st) != 0) return 6;
    if (int bad = like_device(base + name, like)) return bad;
    if (st.st_uid != like.st_uid || st.st_gid != like.st_gid) return 7;
  }
  // It is this machine's device: reads end at once, writes are taken.
  int fd = ::open((base + "/nvidia0").c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) return 8;
  char byte = 0;
  const bool as_null = ::read(fd, &byte, 1) == 0 && ::write(fd, "x", 1) == 1;
  ::close(fd);
  // A mount would have been made where a bind was: none.
  std::ifstream mounts("/proc/self/mountinfo");
  for (std::string line; std::getline(mounts, line);)
    if (line.find(base) != std::string::npos) return 9;
  return as_null ? 0 : 10;
}

TEST_F(SandboxDevNode, MadeWithTheSameNumbersModeAndOwnerWhereMknodIsAllowed) {
  int code = in_child(false, made_where_allowed, base_, null_);
  if (code == 77 || code == 78) GTEST_SKIP() << "no mount namespace or no mknod here";
  EXPECT_EQ(code, 0);
}

// Before an overlay is mounted: the nodes directly in /dev made straight in its
// upper layer, over the lower layer's placeholders, /dev made there as the lower's
// is; a node without a plain placeholder, one below a link, and one in a folder
// below /dev left to later.
int made_in_upper(const std::string& base, const struct stat& like) {
  namespace fs = std::filesystem;
  const std::string lower = base + "/lower", upper = base + "/upper";
  fs::create_directories(lower + "/dev/dri");
  fs::create_directories(upper);
  ::chmod((lower + "/dev").c_str(), 0755);
  for (const char* f : {"/dev/nvidia0", "/dev/dri/card0", "/dev/full"})
    std::ofstream(lower + f) << "";
  fs::create_symlink("/etc", lower + "/dev/linked");
  fs::create_symlink("elsewhere", lower + "/dev/null");  // a basic device replaces it
  fs::create_directory(lower + "/dev/nvidiactl");        // not a placeholder
  Fd low(::open(lower.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  Fd up(::open(upper.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  const mode_t before = ::umask(077);
  DevNodeMaker maker;
  make_nodes_in_upper(
      low.get(), up.get(),
      {"/dev/nvidia0", "/dev/dri/card0", "/dev/nvidiactl", "/dev/linked/x", "/dev/missing"}, maker);
  if (maker.made() == 0) return 78;
  maker.restore_umask();
  if (::umask(before) != 077) return 1;
  for (const char* f : {"/dev/nvidia0", "/dev/null"})
    if (int bad = like_device(upper + f, like)) return bad;
  struct stat st {
  }, real{};
  if (::stat("/dev/full", &real) == 0 && S_ISCHR(real.st_mode) &&
      like_device(upper + "/dev/full", real) != 0)
    return 2;
  if (::stat((upper + "/dev").c_str(), &st) != 0 || (st.st_mode & 07777) != 0755) return 3;
  // Only nodes directly in /dev: a folder below it made there would be merged (its
  // link count 1 in the overlay).
  for (const char* f : {"/dev/nvidiactl", "/dev/linked", "/dev/missing", "/dev/dri"})
    if (::lstat((upper + f).c_str(), &st) == 0) return 4;
  // Known later as made (through the overlay: not made again, not asked again).
  if (::lstat((upper + "/dev/nvidia0").c_str(), &st) != 0 || !DevNodeMaker::is_like(st, like))
    return 5;
  if (!maker.premade("/dev/nvidia0") || !maker.premade("/dev/null") ||
      maker.premade("/dev/dri/card0") || maker.premade("/dev/nvidiactl"))
    return 6;
  maker.forget_premade();
  if (maker.premade("/dev/nvidia0")) return 7;
  return 0;
}

TEST_F(SandboxDevNode, MadeInAnUpperLayerBeforeTheOverlayIsMounted) {
  int code = in_child(false, made_in_upper, base_, null_);
  if (code == 77 || code == 78) GTEST_SKIP() << "no mount namespace or no mknod here";
  EXPECT_EQ(code, 0);
}

// A folder where the node goes is said, not replaced.
TEST_F(SandboxDevNode, AFolderAtTheNameIsRefused) {
  ASSERT_EQ(::mkdir((base_ + "/nvidia1").c_str(), 0755), 0);
  DevNodeMaker maker;
  std::string why;
  Fd at = dir();
  EXPECT_FALSE(maker.make(at.get(), "nvidia1", "/dev/null", null_, "/dev/nvidia1", why));
  EXPECT_NE(why.find("/dev/nvidia1: the tree has a folder there"), std::string::npos) << why;
  struct stat st {};
  ASSERT_EQ(::lstat((base_ + "/nvidia1").c_str(), &st), 0);
  EXPECT_TRUE(S_ISDIR(st.st_mode));
}

int bind_when_asked(const std::string& base, const struct stat& like) {
  DevNodeMaker maker(false);
  std::string why;
  Fd at(::open(base.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!maker.make(at.get(), "nvidia0", "/dev/null", like, "/dev/nvidia0", why)) return 1;
  if (!maker.make(at.get(), "null", "/dev/null", like, "/dev/null", why)) return 2;
  if (maker.made() != 0 || maker.bound() != 2 || maker.refused().empty()) return 3;
  if (int bad = like_device(base + "/nvidia0", like)) return bad;
  return like_device(base + "/null", like);
}

TEST_F(SandboxDevNode, BoundWhenAskedTo) {
  int code = in_child(false, bind_when_asked, base_, null_);
  if (code == 77) GTEST_SKIP() << "no mount namespace here";
  EXPECT_EQ(code, 0);
}

int bind_on_nodev(const std::string& base, const struct stat& like) {
  const std::string at_path = base + "/nodev";
  if (::mkdir(at_path.c_str(), 0755) != 0 ||
      ::mount("tmpfs", at_path.c_str(), "tmpfs", MS_NODEV, "mode=0755") != 0)
    return 77;
  DevNodeMaker maker;
  std::string why;
  Fd at(::open(at_path.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!maker.make(at.get(), "nvidia0", "/dev/null", like, "/dev/nvidia0", why)) return 1;
  if (maker.made() != 0 || maker.bound() != 1) return 2;
  if (maker.refused() != "the tree's mount is nodev") return 3;
  if (int bad = like_device(at_path + "/nvidia0", like)) return bad;
  // Opened, not EACCES: the bind is this machine's device.
  int fd = ::open((at_path + "/nvidia0").c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 4;
  ::close(fd);
  return 0;
}

TEST_F(SandboxDevNode, BoundOnANodevMount) {
  int code = in_child(false, bind_on_nodev, base_, null_);
  if (code == 77) GTEST_SKIP() << "no mount namespace here";
  EXPECT_EQ(code, 0);
}

// A user namespace has no CAP_MKNOD in the initial one: mknodat gives EPERM, and
// this machine's device is bound instead, over the placeholder and on a free name.
int bind_in_user_namespace(const std::string& base, const struct stat& like) {
  DevNodeMaker maker;
  std::string why;
  Fd at(::open(base.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!maker.make(at.get(), "nvidia0", "/dev/null", like, "/dev/nvidia0", why)) return 1;
  if (!maker.make(at.get(), "nvidiactl", "/dev/null", like, "/dev/nvidiactl", why)) return 2;
  if (maker.made() != 0 || maker.bound() != 2) return 3;
  if (maker.refused().find("mknod /dev/nvidia0: ") != 0) return 4;
  if (int bad = like_device(base + "/nvidia0", like)) return bad;
  return like_device(base + "/nvidiactl", like);
}

TEST_F(SandboxDevNode, BoundInAUserNamespace) {
  int code = in_child(true, bind_in_user_namespace, base_, null_);
  if (code == 77) GTEST_SKIP() << "no user namespace here";
  EXPECT_EQ(code, 0);
}

}  // namespace
}  // namespace hwaccel
