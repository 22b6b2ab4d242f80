// The writer every command uses for its output files: atomic (old or new,
// never half), no overwriting of a user's file without --force, and an
// interrupted write (kill -9 in the middle) leaves the old file intact.
#include "cli/common/output_file.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "tests/cli/cli_test_util.h"

namespace hwaccel::testing {
namespace {

using cli::ExistingFile;
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
    // Kill as soon as the temporary exists and has some data in it.
    std::string temp = temporary_path_for(path, long(child));
    bool caught_mid_write = false;
    for (int i = 0; i < 20000; ++i) {
      struct stat st {};
      if (::stat(temp.c_str(), &st) == 0 && st.st_size > 0) {
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
    // The next write succeeds and the stale temporary does not get in its way.
    EXPECT_EQ(write_file_atomically(path, "fresh\n", ExistingFile::replace), "");
    EXPECT_EQ(slurp(path).value_or(""), "fresh\n");
    return;
  }
  GTEST_SKIP() << "could not catch the writer in the middle of its write in 3 tries";
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
