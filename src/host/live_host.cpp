#include "src/host/live_host.h"

#include <cstdio>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <optional>

#include "src/host/inside_tree.h"
#include "src/host/process_runner.h"
#include "src/host/root_path.h"
#include "src/host/root_tools.h"
#include "src/host/text_file.h"
#include "src/host/tree_facts.h"

extern char** environ;

namespace hwaccel {
namespace {

// Helpers hwaccel ships (hwaccel-nvml): run from the folder of the running
// program when they are there (a build tree, an unpacked release), else from
// PATH. Snapshots record the bare name either way.
bool is_companion_tool(const std::string& name) {
  return name == "hwaccel-nvml";
}

std::optional<std::string> beside_this_program(const std::string& name) {
  char self[4096];
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return std::nullopt;
  std::string path(self, static_cast<std::size_t>(n));
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return std::nullopt;
  path = path.substr(0, slash + 1) + name;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || ::access(path.c_str(), X_OK) != 0)
    return std::nullopt;
  return path;
}

// A file that never ends (one that grows while read) stops here. Far
// above anything a probe reads: the largest sysfs/procfs files are a few MiB.
constexpr std::size_t kMaxFileBytes = 256u << 20;

class FdCloser {
 public:
  explicit FdCloser(int fd) : fd_(fd) {}
  FdCloser(const FdCloser&) = delete;
  FdCloser& operator=(const FdCloser&) = delete;
  ~FdCloser() {
    if (fd_ >= 0) ::close(fd_);
  }

 private:
  int fd_;
};

// Reads until EOF. st_size is never consulted: sysfs reports 4096 for every
// attribute and procfs 0, whatever the real length. `short_read_is_eof`: a read
// that returns less than asked was the whole file, as for sysfs, whose
// attributes are produced in one piece at the first read. That saves the
// second read() of every sysfs file (24 of the 197 system calls of a detection
// with nothing installed). Only a regular file is read (open_regular_file: one
// fstat per file), so a FIFO or device in a --root tree or a path the user
// named cannot hang the read; sysfs keeps O_NONBLOCK, which its attributes
// ignore, to save the fcntl.
Result<std::string> read_fd_to_eof(int fd, std::string_view path, bool short_read_is_eof) {
  FdCloser closer(fd);
  std::string text;
  char buffer[64 * 1024];
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return make_error(errno, path);  // EIO, ENODATA from drivers...
    if (n == 0) return text;
    if (text.size() + static_cast<std::size_t>(n) > kMaxFileBytes) return make_error(EFBIG, path);
    text.append(buffer, static_cast<std::size_t>(n));
    if (short_read_is_eof && static_cast<std::size_t>(n) < sizeof buffer) return text;
  }
}

Result<std::string> read_head_of(int fd, std::string_view path, std::size_t max_bytes) {
  FdCloser closer(fd);
  std::string text;
  char buffer[64 * 1024];
  while (text.size() < max_bytes) {
    const std::size_t want = std::min(sizeof buffer, max_bytes - text.size());
    ssize_t n = ::read(fd, buffer, want);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return make_error(errno, path);
    if (n == 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
  }
  return text;
}

Result<std::vector<std::string>> list_opened(DIR* opened, std::string_view path) {
  std::unique_ptr<DIR, int (*)(DIR*)> dir(opened, &::closedir);
  if (!dir) return make_error(errno, path);
  std::vector<std::string> names;
  for (;;) {
    errno = 0;
    const dirent* entry = ::readdir(dir.get());
    if (entry == nullptr) break;
    std::string_view name = entry->d_name;
    if (name != "." && name != "..") names.emplace_back(name);
  }
  if (errno != 0) return make_error(errno, path);
  std::sort(names.begin(), names.end());
  return names;
}

// Where a Host path lives on disk: itself, or under the root with every link
// resolved inside it.
Result<std::string> real_path(const std::string& root, std::string_view path, bool follow_last) {
  if (root.empty()) {
    if (auto bad = check_host_path(path)) return *bad;
    return std::string(path);
  }
  return resolve_in_root(root, path, follow_last);
}

FileKind kind_of(mode_t mode) {
  switch (mode & S_IFMT) {
    case S_IFDIR:
      return FileKind::directory;
    case S_IFLNK:
      return FileKind::symlink;
    case S_IFCHR:
      return FileKind::char_device;
    case S_IFBLK:
      return FileKind::block_device;
    case S_IFIFO:
      return FileKind::fifo;
    case S_IFSOCK:
      return FileKind::socket;
    default:
      return FileKind::regular;
  }
}

// A file of the running machine's sysfs or procfs, where no device node lives.
bool kernel_file(std::string_view path) {
  return path.rfind("/sys/", 0) == 0 || path.rfind("/proc/", 0) == 0;
}

bool at_or_below(std::string_view path, std::string_view top) {
  return path.rfind(top, 0) == 0 && (path.size() == top.size() || path[top.size()] == '/');
}

// The running machine's /sys, /proc and /dev: trees the kernel (or `hwsim run`,
// from a snapshot) makes. Their links stay among them (/proc/device-tree is
// /sys/firmware/devicetree/base, /dev/fd is /proc/self/fd), bar the magic links
// of a process (its root, cwd, exe, fds: followed only by what they say, and
// only into these trees); a link elsewhere is a planted one, and is not followed.
InsideTree* kernel_tree(std::string_view path) {
  static const std::string shown = "/sys, /proc and /dev";
  static InsideTree sys("/sys", shown, {"/proc", "/dev"}), proc("/proc", shown, {"/sys", "/dev"}),
      dev("/dev", shown, {"/sys", "/proc"});
  if (at_or_below(path, "/sys")) return &sys;
  if (at_or_below(path, "/proc")) return &proc;
  if (at_or_below(path, "/dev")) return &dev;
  return nullptr;
}

std::string lowercase(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// The machine this process runs on (without --root; a tree's facts come from its
// files, src/host/tree_facts.h).
Facts running_machine_facts() {
  Facts facts;
  struct utsname names {};
  if (::uname(&names) == 0) {
    facts.os = lowercase(names.sysname);
    facts.arch = names.machine;
    facts.kernel = names.release;
  }
  facts.page_size = ::sysconf(_SC_PAGESIZE);
  facts.cpus = ::sysconf(_SC_NPROCESSORS_ONLN);
  char hostname[256] = {};
  if (::gethostname(hostname, sizeof hostname - 1) == 0) facts.hostname = hostname;
  return facts;
}

}  // namespace

LiveHost::LiveHost(LiveHostOptions options)
    : options_(std::move(options)),
      stands_for_another_machine_(!options_.root.empty() || std::getenv("HWSIM_ROOT") != nullptr) {
  if (options_.root.empty() && !options_.confine.empty())
    confined_ = std::make_unique<InsideTree>(options_.confine);
}

InsideTree* LiveHost::tree_for(std::string_view path) {
  if (!options_.root.empty()) return nullptr;
  if (confined_) return confined_.get();
  return kernel_tree(path);
}

bool LiveHost::knows(std::string_view path) {
  if (!stands_for_another_machine_) return true;
  for (std::string_view top : {"/sys", "/proc", "/dev"})
    if (at_or_below(path, top)) return true;
  if (options_.root.empty()) return false;  // hwsim run: the rest is this machine's
  // --root: a tree with /etc or /usr is a whole machine's, and what it lacks
  // (a manifest folder, a home folder) that machine lacks.
  for (const char* top : {"/etc", "/usr"}) {
    auto real = real_path(options_.root, top, /*follow_last=*/true);
    struct stat st {};
    if (real.ok() && ::lstat(real->c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return true;
  }
  return false;
}

Result<std::string> LiveHost::read(std::string_view path) {
  // (debugfs and tracefs are mounted below /sys but are not sysfs.)
  const bool sysfs = options_.root.empty() && !confined_ && path.rfind("/sys/", 0) == 0 &&
                     path.rfind("/sys/kernel/debug/", 0) != 0 &&
                     path.rfind("/sys/kernel/tracing/", 0) != 0;
  if (InsideTree* tree = tree_for(path)) {
    // sysfs and procfs hold no device node: opened at once, one call fewer. A
    // node elsewhere is not even opened (opening one can act: a watchdog
    // starts, a tape rewinds): open_regular_inside looks first.
    if (!confined_ && kernel_file(path)) {
      auto fd = tree->open(path, O_RDONLY | O_NONBLOCK);
      if (!fd) return fd.error();
      auto opened = regular_file_of(fd.value().release(), path, /*keep_nonblock=*/sysfs);
      if (!opened) return opened.error();
      return read_fd_to_eof(opened->fd, path, sysfs);
    }
    auto opened = open_regular_inside(*tree, path);
    if (!opened) return opened.error();
    return read_fd_to_eof(opened->fd, path, false);
  }
  auto real = real_path(options_.root, path, /*follow_last=*/true);
  if (!real.ok()) return real.error();
  // A device node is not even opened; a path the user named, or one in a
  // copied tree, is looked at first. open_regular_file's fstat catches a file
  // swapped in since. Under a root the links are already followed (inside it);
  // lstat and O_NOFOLLOW keep one that appeared since from leading out.
  if (auto special = refuse_special_file(*real, path, /*follow_last=*/options_.root.empty()))
    return *special;
  auto opened = open_regular_file(*real, path, options_.root.empty() ? 0 : O_NOFOLLOW);
  if (!opened) return opened.error();
  return read_fd_to_eof(opened->fd, path, false);
}

Result<std::string> LiveHost::read_head(std::string_view path, std::size_t max_bytes) {
  if (InsideTree* tree = tree_for(path)) {
    auto opened = open_regular_inside(*tree, path);
    if (!opened) return opened.error();
    return read_head_of(opened->fd, path, max_bytes);
  }
  auto real = real_path(options_.root, path, /*follow_last=*/true);
  if (!real.ok()) return real.error();
  if (auto special = refuse_special_file(*real, path, /*follow_last=*/options_.root.empty()))
    return *special;
  auto opened = open_regular_file(*real, path, options_.root.empty() ? 0 : O_NOFOLLOW);
  if (!opened) return opened.error();
  return read_head_of(opened->fd, path, max_bytes);
}

Result<std::uint64_t> LiveHost::regular_file_size(std::string_view path) {
  auto real = real_path(options_.root, path, /*follow_last=*/true);
  if (!real.ok()) return real.error();
  if (auto special = refuse_special_file(*real, path, /*follow_last=*/options_.root.empty()))
    return *special;
  auto opened = open_regular_file(*real, path, options_.root.empty() ? 0 : O_NOFOLLOW);
  if (!opened) return opened.error();
  FdCloser closer(opened->fd);
  return opened->size;
}

Result<std::vector<std::string>> LiveHost::list(std::string_view dir) {
  if (InsideTree* tree = tree_for(dir)) {
    auto fd = tree->open(dir, O_RDONLY | O_DIRECTORY);
    if (!fd) return fd.error();
    const int raw = fd.value().release();
    DIR* opened = ::fdopendir(raw);
    if (opened == nullptr) {
      const int code = errno;
      ::close(raw);
      return make_error(code, dir);
    }
    return list_opened(opened, dir);
  }
  auto real = real_path(options_.root, dir, /*follow_last=*/true);
  if (!real.ok()) return real.error();
  return list_opened(::opendir(real->c_str()), dir);
}

Result<std::string> LiveHost::readlink(std::string_view path) {
  if (InsideTree* tree = tree_for(path)) {
    auto fd = tree->open(path, O_PATH | O_NOFOLLOW, /*follow_last=*/false);
    if (!fd) return fd.error();
    return read_link_of(*fd, path);
  }
  auto real = real_path(options_.root, path, /*follow_last=*/false);
  if (!real.ok()) return real.error();
  return read_link_target(*real, path);  // the raw target, even under a root
}

Result<FileKind> LiveHost::stat(std::string_view path) {
  struct stat st {};
  if (InsideTree* tree = tree_for(path)) {
    auto fd = tree->open(path, O_PATH);
    if (!fd) return fd.error();
    if (::fstat(fd->get(), &st) != 0) return make_error(errno, path);
    return kind_of(st.st_mode);
  }
  auto real = real_path(options_.root, path, /*follow_last=*/true);
  if (!real.ok()) return real.error();
  // Under a root the links are already followed (inside it); lstat keeps it so.
  int rc = options_.root.empty() ? ::stat(real->c_str(), &st) : ::lstat(real->c_str(), &st);
  if (rc != 0) return make_error(errno, path);
  return kind_of(st.st_mode);
}

// Tools run from the real machine's PATH. Under --root the tree is the machine:
// a tool runs only where the tree has its program (or with --root-tools), else
// the run is not-found at once with the reason (src/host/root_tools.h). A copied
// tree holds another machine's files, and this machine's tools would describe
// this machine, not it.
ToolRun LiveHost::run(const std::vector<std::string>& argv, Timeout timeout) {
  return start(argv, timeout)->finish();
}

std::unique_ptr<StartedRun> LiveHost::start(const std::vector<std::string>& argv, Timeout timeout) {
  ProcessLimits limits;
  limits.timeout = timeout.value.count() > 0 ? timeout.value : options_.default_timeout;
  limits.output_cap = options_.output_cap;
  if (!options_.root.empty() && !options_.root_tools) {
    const char* path_env = std::getenv("PATH");
    if (auto why = tool_not_in_tree(options_.root, argv.empty() ? "" : argv[0],
                                    path_env ? path_env : "")) {
      ToolRun answer;
      answer.outcome = ToolOutcome::not_found;
      answer.err = *why;
      return finished_run(std::move(answer));
    }
  }
  if (!argv.empty() && is_companion_tool(argv[0])) {
    if (auto beside = beside_this_program(argv[0])) {
      auto resolved = argv;
      resolved[0] = *beside;
      return start_process(resolved, limits);
    }
  }
  return start_process(argv, limits);
}

std::optional<std::string> LiveHost::env(std::string_view name) {
  if (name.empty() || name.find('\0') != std::string_view::npos ||
      name.find('=') != std::string_view::npos) {
    return std::nullopt;
  }
  const char* value = std::getenv(std::string(name).c_str());
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

std::map<std::string, std::string> LiveHost::environment() {
  std::map<std::string, std::string> all;
  for (char** e = environ; e && *e; ++e) {
    std::string_view entry(*e);
    auto eq = entry.find('=');
    if (eq == std::string_view::npos || eq == 0) continue;
    all.emplace(std::string(entry.substr(0, eq)), std::string(entry.substr(eq + 1)));
  }
  return all;
}

const Facts& LiveHost::facts() {
  std::call_once(facts_once_, [this] {
    if (options_.root.empty()) {
      facts_ = running_machine_facts();
      return;
    }
    // A tree stands for another machine: its facts are what its files say,
    // never this machine's uname (an unknown kernel stays unknown).
    std::vector<std::string> notes;
    facts_ = facts_from_tree(tree_files_of(*this), notes);
    if (facts_.page_size == 0) facts_.page_size = 4096;
  });
  return facts_;
}

std::string LiveHost::now() {
  // Civil time from the clock by arithmetic: gmtime_r and strftime call tzset(),
  // which reads /etc/localtime at every start only to be told nothing here.
  using namespace std::chrono;
  const auto seconds = floor<std::chrono::seconds>(system_clock::now());
  const auto day = floor<days>(seconds);
  const year_month_day date{day};
  const hh_mm_ss time{seconds - day};
  char text[32];
  int n = std::snprintf(text, sizeof text, "%04d-%02u-%02uT%02d:%02d:%02dZ",
                        static_cast<int>(date.year()), static_cast<unsigned>(date.month()),
                        static_cast<unsigned>(date.day()), static_cast<int>(time.hours().count()),
                        static_cast<int>(time.minutes().count()),
                        static_cast<int>(time.seconds().count()));
  return n > 0 && n < static_cast<int>(sizeof text) ? std::string(text, n) : "";
}

}  // namespace hwaccel
