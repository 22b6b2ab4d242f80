// The writer every command uses for its output files: atomic (old or new,
// never half), no overwriting of a user's file without --force, and an
// interrupted write (kill -9 in the middle) leaves the old file intact.
#include "cli/common/output_file.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>
#include <vector>

#include "tests/cli/cli_test_util.h"

namespace hwaccel::testing {
namespace {

using cli::ExistingFile;
using cli::make_directories;
using cli::temporary_path_for;
using cli::write_file_atomically;
namespace fs = std::filesystem;

TEST(OutputFile, WritesANewFileAndLeavesNoTemporary) {
  std::string dir = make_temp_dir();
  std::string path = dir + "/out.yaml";
  EXPECT_EQ(write_file_atomically(path, "hello\n", ExistingFile::keep), "");
  EXPECT_EQ(slurp(path).value_or(""), "hello\n");
  int files = 0;
  for (const auto& e : fs::directory_iterator(dir)) files += e.is_regular_file();
  EXPECT_EQ(files, 1) << "a temporary was left behind";
}

TEST(OutputFile, RefusesToReplaceAUsersFileWithoutForce) {
  std::string path = make_temp_dir() + "/mine.yaml";
  write_text(path, "precious\n");
  std::string why = write_file_atomically(path, "new\n", ExistingFile::keep);
  EXPECT_NE(why.find("--force"), std::string::npos) << why;
  EXPECT_NE(why.find(path), std::string::npos) << why;
  EXPECT_EQ(slurp(path).value_or(""), "precious\n");
  EXPECT_EQ(write_file_atomically(path, "new\n", ExistingFile::replace), "");
  EXPECT_EQ(slurp(path).value_or(""), "new\n");
}

TEST(OutputFile, ReplacingKeepsTheFilesPermissions) {
  std::string path = make_temp_dir() + "/private.prom";
  write_text(path, "old\n");
  ::chmod(path.c_str(), 0600);
  ASSERT_EQ(write_file_atomically(path, "new\n"), "");
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

TEST(OutputFile, AnUnwritableFolderIsAReasonNotACrash) {
  std::string why = write_file_atomically("/nonexistent-dir-hwaccel/x.yaml", "x");
  EXPECT_NE(why.find("/nonexistent-dir-hwaccel/"), std::string::npos) << why;
  std::string dir = make_temp_dir();
  why = write_file_atomically(dir, "x");
  EXPECT_NE(why.find("is a directory"), std::string::npos) << why;
}

// A child process writes 256 MiB over an existing file and is killed with
// SIGKILL once its temporary holds data: the old file must be intact, whole.
TEST(OutputFile, KillNineInTheMiddleOfAWriteLeavesTheOldFile) {
  std::string dir = make_temp_dir();
  std::string path = dir + "/host.yaml";
  const std::string old_content = "schema: hwaccel-snapshot/1\n# the user's recording\n";
  write_text(path, old_content);

  for (int attempt = 0; attempt < 3; ++attempt) {
    pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      std::string big(256u << 20, 'x');
      std::string why = write_file_atomically(path, big, ExistingFile::replace);
      ::_exit(why.empty() ? 0 : 1);
    }
    // Kill as soon as the temporary exists and has some data in it (its
    // name ends in the child's serial of the write, which it inherited).
    const std::string prefix = fs::path(temporary_path_for(path, long(child))).filename().string();
    std::string temp;
    bool caught_mid_write = false;
    for (int i = 0; i < 20000; ++i) {
      if (temp.empty())
        for (const auto& e : fs::directory_iterator(dir))
          if (e.path().filename().string().rfind(prefix + "-", 0) == 0) temp = e.path().string();
      struct stat st {};
      if (!temp.empty() && ::stat(temp.c_str(), &st) == 0 && st.st_size > 0) {
        caught_mid_write = st.st_size < off_t(256u << 20);
        break;
      }
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
    ::kill(child, SIGKILL);
    int status = 0;
    ::waitpid(child, &status, 0);
    if (!caught_mid_write || !WIFSIGNALED(status)) continue;  // too fast or too slow: retry
    EXPECT_EQ(slurp(path).value_or(""), old_content) << "the old file was damaged";
    // The next write succeeds, and removes the killed writer's temporary.
    ASSERT_TRUE(fs::exists(temp)) << "the killed writer left no temporary to clean";
    EXPECT_EQ(write_file_atomically(path, "fresh\n", ExistingFile::replace), "");
    EXPECT_EQ(slurp(path).value_or(""), "fresh\n");
    EXPECT_FALSE(fs::exists(temp)) << "the stale temporary " << temp << " is still there";
    return;
  }
  GTEST_SKIP() << "could not catch the writer in the middle of its write in 3 tries";
}

bool is_symlink(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}

// A final symbolic link is neither followed (its target keeps its bytes) nor
// replaced (it stays a link), --force or not.
TEST(OutputFile, RefusesASymbolicLinkAndLeavesWhatItPointsAtAlone) {
  std::string dir = make_temp_dir();
  const std::string canary = dir + "/canary", link = dir + "/out.prom";
  write_text(canary, "the user's own bytes\n");
  ASSERT_EQ(::symlink(canary.c_str(), link.c_str()), 0);
  for (auto existing : {ExistingFile::replace, ExistingFile::keep}) {
    std::string why = write_file_atomically(link, "new\n", existing);
    EXPECT_NE(why.find(link + " is a symbolic link"), std::string::npos) << why;
    EXPECT_NE(why.find("nothing was written"), std::string::npos) << why;
    EXPECT_EQ(slurp(canary).value_or(""), "the user's own bytes\n");
    EXPECT_TRUE(is_symlink(link)) << "the link was replaced";
  }
  // A dangling link: the file it names is not created either.
  const std::string dangling = dir + "/dangling";
  ASSERT_EQ(::symlink((dir + "/created-through-the-link").c_str(), dangling.c_str()), 0);
  EXPECT_NE(write_file_atomically(dangling, "x").find("symbolic link"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir + "/created-through-the-link"));
  EXPECT_TRUE(is_symlink(dangling));
}

// A FIFO is not opened (no hang) and not replaced by a regular file.
TEST(OutputFile, RefusesAFifo) {
  std::string fifo = make_temp_dir() + "/pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string why = write_file_atomically(fifo, "x", ExistingFile::replace);
  EXPECT_NE(why.find(fifo + " is a FIFO"), std::string::npos) << why;
  struct stat st {};
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "the FIFO was replaced";
}

// A character device (made in a temporary folder, never /dev/null itself) is
// not replaced: as root that was enough to turn a device node into a file.
TEST(OutputFile, RefusesADeviceNode) {
  std::string node = make_temp_dir() + "/null";
  if (::mknod(node.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0)
    GTEST_SKIP() << "cannot make a device node here (not root, or no CAP_MKNOD)";
  std::string why = write_file_atomically(node, "x", ExistingFile::replace);
  EXPECT_NE(why.find(node + " is a character device"), std::string::npos) << why;
  struct stat st {};
  ASSERT_EQ(::lstat(node.c_str(), &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode)) << "the device node was replaced";
}

// Temporaries of killed writes are cleaned on the next write to the same
// name: only ours (the name, a dead PID, a regular file of this user).
TEST(OutputFile, TheNextWriteRemovesStaleTemporariesOfDeadWriters) {
  std::string dir = make_temp_dir();
  const std::string path = dir + "/host.yaml";
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) ::_exit(0);
  ASSERT_EQ(::waitpid(child, nullptr, 0), child);  // a PID that is no live process now
  const std::string dead = temporary_path_for(path, long(child));
  const std::string dead_serial = temporary_path_for(path, long(child), 7);
  const std::string alive = temporary_path_for(path, long(::getppid()));
  const std::string alive_serial = temporary_path_for(path, long(::getppid()), 3);
  const std::string bad_serial = temporary_path_for(path, long(child)) + "-x1";
  const std::string other_name = temporary_path_for(dir + "/other.yaml", long(child));
  const std::string not_a_pid = dir + "/.host.yaml.tmp-12ab";
  const std::string canary = dir + "/canary";
  for (const auto& f :
       {dead, dead_serial, alive, alive_serial, bad_serial, other_name, not_a_pid, canary})
    write_text(f, "junk\n");
  // A link of our naming is not removed (nor followed): only regular files are.
  const std::string link = temporary_path_for(path, long(child) + 1000000);
  ASSERT_EQ(::symlink(canary.c_str(), link.c_str()), 0);

  ASSERT_EQ(write_file_atomically(path, "fresh\n", ExistingFile::replace), "");
  EXPECT_FALSE(fs::exists(dead)) << "a dead writer's temporary was left";
  EXPECT_FALSE(fs::exists(dead_serial)) << "a dead writer's temporary was left";
  EXPECT_TRUE(fs::exists(alive)) << "a live process's temporary was removed";
  EXPECT_TRUE(fs::exists(alive_serial)) << "a live process's temporary was removed";
  EXPECT_TRUE(fs::exists(bad_serial)) << "a name not of our making was removed";
  EXPECT_TRUE(fs::exists(other_name)) << "another file's temporary was removed";
  EXPECT_TRUE(fs::exists(not_a_pid));
  EXPECT_TRUE(is_symlink(link));
  EXPECT_EQ(slurp(canary).value_or(""), "junk\n");
  EXPECT_EQ(slurp(path).value_or(""), "fresh\n");
}

// 16 threads of one process write one file at once (Python's record() from a
// thread pool): each write has its own temporary, every one succeeds, the
// file is one of them whole, and no temporary is left.
TEST(OutputFile, SixteenThreadsWritingOneFileAllSucceedAndTheLastWins) {
  const std::string dir = make_temp_dir(), path = dir + "/host.yaml";
  for (int round = 0; round < 5; ++round) {
    std::vector<std::string> why(16);
    std::vector<std::thread> threads;
    for (int t = 0; t < 16; ++t)
      threads.emplace_back([&, t] {
        // Big enough that the writes overlap: 256 KiB of one letter each.
        why[t] = write_file_atomically(path, std::string(256 << 10, char('a' + t)),
                                       ExistingFile::replace);
      });
    for (auto& t : threads) t.join();
    for (int t = 0; t < 16; ++t) EXPECT_EQ(why[t], "") << "thread " << t;
    const std::string got = slurp(path).value_or("");
    ASSERT_EQ(got.size(), std::size_t(256 << 10));
    EXPECT_EQ(got.find_first_not_of(got[0]), std::string::npos) << "a mix of two writes";
    int files = 0;
    for (const auto& e : fs::directory_iterator(dir)) files += e.exists();
    EXPECT_EQ(files, 1) << "a temporary was left behind";
  }
}

// make_directories accepts an existing folder, never a link to one elsewhere
// (mkdir's EEXIST says nothing about where the link points).
TEST(OutputFile, MakeDirectoriesRefusesALinkedFolder) {
  std::string dir = make_temp_dir();
  const std::string elsewhere = make_temp_dir(), link = dir + "/cache";
  ASSERT_EQ(::symlink(elsewhere.c_str(), link.c_str()), 0);
  std::string why = make_directories(link, 0700);
  EXPECT_NE(why.find(link + " is a symbolic link"), std::string::npos) << why;
  EXPECT_EQ(make_directories(dir + "/a/b", 0700), "");
  EXPECT_TRUE(fs::is_directory(dir + "/a/b"));
  EXPECT_EQ(make_directories(dir + "/a/b", 0700), "") << "an existing folder is fine";
}

// End to end: every command that writes a file the user named refuses a link
// or a FIFO there, and the exit code says "cannot write".
TEST(HwaccelCli, OutputsRefuseLinksAndFifos) {
  std::string dir = make_temp_dir();
  const std::string canary = dir + "/canary", link = dir + "/link", fifo = dir + "/fifo";
  write_text(canary, "precious\n");
  ASSERT_EQ(::symlink(canary.c_str(), link.c_str()), 0);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string snap = source_path("fixtures/hosts/cpu-only.yaml");
  for (const std::string& target : {link, fifo}) {
    for (const std::string& cmd : {
             bin("hwaccel") + " export prometheus --host " + snap + " -o " + target,
             bin("hwaccel") + " detect --only cpu --record " + target + " --force",
             bin("hwaccel") + " plan --host " + source_path("fixtures/hosts/dgx-h100.yaml") +
                 " --params 8B --svg " + target + " --force",
             bin("hwsim") + " synth --preset cpu-only -o " + target + " --force",
             bin("hwsim") + " mutate " + snap + " --fault hang:vulkaninfo -o " + target +
                 " --force",
         }) {
      auto r = run_command("timeout 20 " + cmd);
      EXPECT_EQ(r.exit_code, 5) << cmd << "\n" << r.err;
      EXPECT_NE(r.err.find(target + " is a"), std::string::npos) << cmd << "\n" << r.err;
    }
  }
  EXPECT_EQ(slurp(canary).value_or(""), "precious\n");
  EXPECT_TRUE(is_symlink(link));
  struct stat st {};
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

TEST(HwaccelCli, RecordRefusesToOverwriteWithoutForce) {
  std::string dir = make_temp_dir();
  std::string snap = dir + "/h.yaml";
  write_text(snap, "my notes\n");
  std::string cmd = bin("hwaccel") + " detect --only cpu --record " + snap;
  auto refused = run_command(cmd);
  EXPECT_EQ(refused.exit_code, 5) << refused.err;
  EXPECT_NE(refused.err.find("--force"), std::string::npos) << refused.err;
  EXPECT_EQ(slurp(snap).value_or(""), "my notes\n");
  auto forced = run_command(cmd + " --force");
  EXPECT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_NE(slurp(snap).value_or("").find("hwaccel-snapshot/1"), std::string::npos);
}

}  // namespace
}  // namespace hwaccel::testing
