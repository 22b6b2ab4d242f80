// read_private_file: a file is trusted only when no one but this user could
// have written it; anything else is refused with the reason, nothing read,
// and a FIFO never blocks.
#include "src/host/private_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>

namespace hwaccel {
namespace {

std::string private_dir() {
  char pattern[] = "/tmp/hwaccel-private-XXXXXX";
  const char* dir = ::mkdtemp(pattern);  // 0700
  return dir ? dir : "";
}

void write(const std::string& path, const std::string& text, mode_t mode) {
  std::ofstream(path, std::ios::binary) << text;
  ::chmod(path.c_str(), mode);
}

TEST(PrivateFile, ReadsAPrivateFileAndSaysWhyNotOtherwise) {
  const std::string dir = private_dir();
  ASSERT_FALSE(dir.empty());
  const std::string file = dir + "/detect.json";
  EXPECT_EQ(read_private_file(file, 1024).error().code, ENOENT);
  write(file, "{}", 0600);
  auto ok = read_private_file(file, 1024);
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_EQ(*ok, "{}");
  EXPECT_EQ(read_private_file(file, 1).error().code, EFBIG);

  ::chmod(file.c_str(), 0640);
  auto wide = read_private_file(file, 1024);
  ASSERT_FALSE(wide);
  EXPECT_EQ(wide.error().code, EPERM);
  EXPECT_EQ(wide.error().message, file + " is mode 0640, open to group or others (0600 wanted)");
  ::chmod(file.c_str(), 0600);

  ::chmod(dir.c_str(), 0755);
  auto open_dir = read_private_file(file, 1024);
  ASSERT_FALSE(open_dir);
  EXPECT_EQ(open_dir.error().message,
            dir + ": the folder is mode 0755, open to group or others (0700 wanted)");
  EXPECT_EQ(why_folder_is_not_private(dir),
            "the folder is mode 0755, open to group or others (0700 wanted)");
  ::chmod(dir.c_str(), 0700);
  EXPECT_EQ(why_folder_is_not_private(dir), "");
  EXPECT_EQ(why_folder_is_not_private(dir + "/nope"), "missing");
}

TEST(PrivateFile, RefusesLinksFifosAndLinkedFolders) {
  const std::string dir = private_dir(), other = private_dir();
  write(other + "/detect.json", "{}", 0600);
  const std::string link = dir + "/detect.json";
  ASSERT_EQ(::symlink((other + "/detect.json").c_str(), link.c_str()), 0);
  auto linked = read_private_file(link, 1024);
  ASSERT_FALSE(linked);
  EXPECT_EQ(linked.error().message, link + " is a symbolic link");

  const std::string folder_link = dir + "/cache";
  ASSERT_EQ(::symlink(other.c_str(), folder_link.c_str()), 0);
  auto through = read_private_file(folder_link + "/detect.json", 1024);
  ASSERT_FALSE(through);
  EXPECT_EQ(through.error().message, folder_link + ": the folder is a symbolic link");

  const std::string fifo = dir + "/pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto start = std::chrono::steady_clock::now();
  auto piped = read_private_file(fifo, 1024);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  ASSERT_FALSE(piped);
  EXPECT_EQ(piped.error().message, fifo + " is a FIFO");
}

TEST(PrivateFile, RefusesAFileOfAnotherUser) {
  if (::geteuid() != 0) GTEST_SKIP() << "only root can make a file of another user";
  const std::string dir = private_dir();
  const std::string file = dir + "/detect.json";
  write(file, "{}", 0600);
  ASSERT_EQ(::chown(file.c_str(), 65534, 65534), 0);
  auto foreign = read_private_file(file, 1024);
  ASSERT_FALSE(foreign);
  EXPECT_EQ(foreign.error().message, file + " is owned by uid 65534, not by you (uid 0)");
}

}  // namespace
}  // namespace hwaccel
