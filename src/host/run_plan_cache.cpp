#include "src/host/run_plan_cache.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <vector>

#include "src/host/private_file.h"
#include "src/host/text_file.h"
#include "src/host/tree_fd.h"

namespace hwaccel {
namespace {

constexpr std::string_view kPlanCacheHead = "hwsim-run-plan-cache 1";
constexpr std::size_t kMaxPlanBytes = std::size_t{16} << 20;

constexpr std::uint64_t kXxhP1 = 0x9E3779B185EBCA87ULL;
constexpr std::uint64_t kXxhP2 = 0xC2B2AE3D27D4EB4FULL;
constexpr std::uint64_t kXxhP3 = 0x165667B19E3779F9ULL;
constexpr std::uint64_t kXxhP4 = 0x85EBCA77C2B2AE63ULL;
constexpr std::uint64_t kXxhP5 = 0x27D4EB2F165667C5ULL;

std::uint64_t xxh_rotl(std::uint64_t x, int r) {
  return (x << r) | (x >> (64 - r));
}
std::uint64_t xxh_read64(const unsigned char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return v;  // little-endian hosts only (x86-64, aarch64): what hwsim runs on
}
std::uint32_t xxh_read32(const unsigned char* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
std::uint64_t xxh_round(std::uint64_t acc, std::uint64_t input) {
  acc += input * kXxhP2;
  acc = xxh_rotl(acc, 31);
  return acc * kXxhP1;
}
std::uint64_t merge_round(std::uint64_t acc, std::uint64_t val) {
  acc ^= xxh_round(0, val);
  return acc * kXxhP1 + kXxhP4;
}

std::string hex_of_u64(std::uint64_t v) {
  char text[17];
  static const char digits[] = "0123456789abcdef";
  for (int i = 15; i >= 0; --i, v >>= 4) text[i] = digits[v & 15];
  text[16] = '\0';
  return text;
}

std::string plan_cache_error(const std::string& what) {
  return what + ": " + std::strerror(errno);
}

std::int64_t timespec_ns(const struct timespec& t) {
  return static_cast<std::int64_t>(t.tv_sec) * 1000000000LL + t.tv_nsec;
}

bool same_file_state(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino && a.st_size == b.st_size &&
         timespec_ns(a.st_mtim) == timespec_ns(b.st_mtim) &&
         timespec_ns(a.st_ctim) == timespec_ns(b.st_ctim);
}

std::string plan_entry_name(const FileStamp& stamp) {
  return std::to_string(stamp.dev) + "-" + std::to_string(stamp.ino);
}

// The next line of `text` (without its newline); false when there is none.
bool next_plan_line(std::string_view& text, std::string_view& line) {
  auto nl = text.find('\n');
  if (nl == std::string_view::npos) return false;
  line = text.substr(0, nl);
  text.remove_prefix(nl + 1);
  return true;
}

std::string unique_plan_temp_name() {
  static unsigned counter = 0;
  return ".plan-" + std::to_string(::getpid()) + "-" + std::to_string(++counter);
}

// The oldest used entries go while there are more than kMaxCachedPlans.
void evict_plans(int dir) {
  DIR* listing = ::fdopendir(::fcntl(dir, F_DUPFD_CLOEXEC, 0));
  if (!listing) return;
  std::vector<std::pair<std::int64_t, std::string>> entries;
  while (dirent* d = ::readdir(listing)) {
    if (d->d_name[0] == '.') continue;
    struct stat st {};
    if (::fstatat(dir, d->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0)
      entries.emplace_back(timespec_ns(st.st_mtim), d->d_name);
  }
  ::closedir(listing);
  if (entries.size() <= kMaxCachedPlans) return;
  std::sort(entries.begin(), entries.end());  // oldest first
  for (std::size_t i = 0; i + kMaxCachedPlans < entries.size(); ++i)
    ::unlinkat(dir, entries[i].second.c_str(), 0);
}

}  // namespace

void Xxh64::update(std::string_view bytes) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  const auto* const end = p + bytes.size();
  total_ += bytes.size();
  if (held_ > 0) {  // first fill the stripe left over from the last call
    const std::size_t take = std::min<std::size_t>(32 - held_, bytes.size());
    std::memcpy(stripe_ + held_, p, take);
    held_ += take;
    p += take;
    if (held_ < 32) return;
    v_[0] = xxh_round(v_[0], xxh_read64(stripe_));
    v_[1] = xxh_round(v_[1], xxh_read64(stripe_ + 8));
    v_[2] = xxh_round(v_[2], xxh_read64(stripe_ + 16));
    v_[3] = xxh_round(v_[3], xxh_read64(stripe_ + 24));
    held_ = 0;
  }
  for (; end - p >= 32; p += 32) {
    v_[0] = xxh_round(v_[0], xxh_read64(p));
    v_[1] = xxh_round(v_[1], xxh_read64(p + 8));
    v_[2] = xxh_round(v_[2], xxh_read64(p + 16));
    v_[3] = xxh_round(v_[3], xxh_read64(p + 24));
  }
  held_ = static_cast<std::size_t>(end - p);
  if (held_ > 0) std::memcpy(stripe_, p, held_);
}

std::uint64_t Xxh64::digest() const {
  const unsigned char* p = stripe_;
  const unsigned char* const end = stripe_ + held_;
  std::uint64_t h;
  if (total_ >= 32) {
    h = xxh_rotl(v_[0], 1) + xxh_rotl(v_[1], 7) + xxh_rotl(v_[2], 12) + xxh_rotl(v_[3], 18);
    h = merge_round(h, v_[0]);
    h = merge_round(h, v_[1]);
    h = merge_round(h, v_[2]);
    h = merge_round(h, v_[3]);
  } else {
    h = kXxhP5;
  }
  h += total_;
  for (; p + 8 <= end; p += 8) {
    h ^= xxh_round(0, xxh_read64(p));
    h = xxh_rotl(h, 27) * kXxhP1 + kXxhP4;
  }
  if (p + 4 <= end) {
    h ^= static_cast<std::uint64_t>(xxh_read32(p)) * kXxhP1;
    h = xxh_rotl(h, 23) * kXxhP2 + kXxhP3;
    p += 4;
  }
  for (; p < end; ++p) {
    h ^= (*p) * kXxhP5;
    h = xxh_rotl(h, 11) * kXxhP1;
  }
  h ^= h >> 33;
  h *= kXxhP2;
  h ^= h >> 29;
  h *= kXxhP3;
  h ^= h >> 32;
  return h;
}

std::uint64_t xxh64(std::string_view bytes) {
  Xxh64 hash;
  hash.update(bytes);
  return hash.digest();
}

std::string FileStamp::identity() const {
  return std::to_string(dev) + " " + std::to_string(ino) + " " + std::to_string(size) + " " +
         std::to_string(mtime_ns) + " " + std::to_string(ctime_ns);
}

std::string FileStamp::text() const {
  return identity() + " " + hex_of_u64(content);
}

namespace {

// The one reader behind both: the file read through a small buffer, hashed as
// it goes, its bytes kept in `keep` when given; fstat'ed before and after, so a
// file changed while read is EAGAIN.
Result<FileStamp> read_and_stamp(const std::string& path, std::size_t max_bytes,
                                 std::string* keep) {
  if (auto special = refuse_special_file(path, path)) return *special;
  auto opened = open_regular_file(path, path);
  if (!opened) return opened.error();
  Fd fd(opened->fd);
  struct stat before {
  }, after{};
  if (::fstat(fd.get(), &before) != 0) return make_error(errno, path);
  auto too_large = [&] {
    return Error{EFBIG, path + ": larger than " + std::to_string(max_bytes >> 20) + " MiB"};
  };
  if (static_cast<std::uint64_t>(before.st_size) > max_bytes) return too_large();
  if (keep) keep->reserve(static_cast<std::size_t>(before.st_size));
  // A small buffer used again and again: where the bytes are only hashed they are
  // never held (a buffer the file's size is one page fault per 4 KiB, each run).
  char chunk[16384];
  Xxh64 hash;
  std::size_t got = 0;
  for (;;) {
    ssize_t n = ::read(fd.get(), chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return make_error(errno, path);
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
    if (got > max_bytes) return too_large();
    const std::string_view piece(chunk, static_cast<std::size_t>(n));
    hash.update(piece);
    if (keep) keep->append(piece);
  }
  if (::fstat(fd.get(), &after) != 0) return make_error(errno, path);
  if (!same_file_state(before, after) || static_cast<std::uint64_t>(after.st_size) != got)
    return Error{EAGAIN, path + ": changed while it was read"};
  FileStamp stamp;
  stamp.dev = after.st_dev;
  stamp.ino = after.st_ino;
  stamp.size = got;
  stamp.mtime_ns = timespec_ns(after.st_mtim);
  stamp.ctime_ns = timespec_ns(after.st_ctim);
  stamp.content = hash.digest();
  return stamp;
}

}  // namespace

Result<StampedFile> read_stamped_file(const std::string& path, std::size_t max_bytes) {
  StampedFile out;
  auto stamp = read_and_stamp(path, max_bytes, &out.text);
  if (!stamp) return stamp.error();
  out.stamp = *stamp;
  return out;
}

Result<FileStamp> stamp_file(const std::string& path, std::size_t max_bytes) {
  return read_and_stamp(path, max_bytes, nullptr);
}

Result<FileStamp> stat_file_stamp(const std::string& path, std::size_t max_bytes) {
  if (auto special = refuse_special_file(path, path)) return *special;
  auto opened = open_regular_file(path, path);
  if (!opened) return opened.error();
  Fd fd(opened->fd);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return make_error(errno, path);
  if (static_cast<std::uint64_t>(st.st_size) > max_bytes)
    return Error{EFBIG, path + ": larger than " + std::to_string(max_bytes >> 20) + " MiB"};
  FileStamp stamp;
  stamp.dev = st.st_dev;
  stamp.ino = st.st_ino;
  stamp.size = static_cast<std::uint64_t>(st.st_size);
  stamp.mtime_ns = timespec_ns(st.st_mtim);
  stamp.ctime_ns = timespec_ns(st.st_ctim);
  stamp.hashed = false;
  return stamp;
}

CachedPlan find_cached_plan(const TreeCacheDir& cache, const FileStamp& stamp) {
  CachedPlan out;
  if (cache.plans.empty()) return out;
  const std::string path = cache.plans + "/" + plan_entry_name(stamp);
  struct stat entry {};
  auto text = read_private_file(path, kMaxPlanBytes, &entry);
  auto refuse = [&](const std::string& why) {
    out.miss = why;
    out.refused = true;
    // A link is removed, never followed; nothing outside a private folder of ours.
    if (why_folder_is_not_private(cache.plans).empty()) ::unlink(path.c_str());
    return out;
  };
  if (!text) {
    if (text.error().code == ENOENT) return out;
    return refuse(text.error().message);
  }
  std::string_view rest = *text, line;
  if (!next_plan_line(rest, line) || line != kPlanCacheHead)
    return refuse("not a plan hwsim wrote");
  if (!next_plan_line(rest, line) || line.substr(0, 6) != "build ") return refuse("no build line");
  if (line.substr(6) != program_build_id()) {
    out.miss = "made by another build of hwsim";
    return out;
  }
  if (!next_plan_line(rest, line) || line.substr(0, 5) != "file ") return refuse("no file line");
  if (stamp.hashed ? line.substr(5) != stamp.text()
                   : !line.substr(5).starts_with(stamp.identity() + " ")) {
    out.miss = "the snapshot file changed since (size, times or content)";
    return out;
  }
  // Unread bytes are trusted only well after the file's last change (above).
  if (!stamp.hashed && timespec_ns(entry.st_mtim) - stamp.ctime_ns <= kSettleNs) {
    out.miss = "the snapshot changed too recently to be trusted unread";
    out.unsettled = true;
    return out;
  }
  // "body LEN XXH64": the rest is exactly that, whole.
  if (!next_plan_line(rest, line) || line.substr(0, 5) != "body ") return refuse("no body line");
  std::string_view fields = line.substr(5);
  auto space = fields.find(' ');
  std::size_t length = 0;
  const char* end = fields.data() + (space == std::string_view::npos ? fields.size() : space);
  auto [p, ec] = std::from_chars(fields.data(), end, length);
  if (space == std::string_view::npos || ec != std::errc() || p != end || length != rest.size() ||
      fields.substr(space + 1) != hex_of_u64(xxh64(rest)))
    return refuse("cut short or changed (its length or hash is not its body's)");
  out.body = std::string(rest);
  out.hit = true;
  // Recently used: kept longest.
  ::utimensat(AT_FDCWD, path.c_str(), nullptr, AT_SYMLINK_NOFOLLOW);
  return out;
}

std::string store_cached_plan(const TreeCacheDir& cache, const FileStamp& stamp,
                              std::string_view body) {
  if (cache.plans.empty()) return "no folder for plans";
  if (auto why = why_folder_is_not_private(cache.plans); !why.empty())
    return cache.plans + ": " + why;
  Fd dir(::open(cache.plans.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!dir.ok()) return plan_cache_error("open " + cache.plans);
  std::string text = std::string(kPlanCacheHead) + "\nbuild " + program_build_id() + "\nfile " +
                     stamp.text() + "\nbody " + std::to_string(body.size()) + " " +
                     hex_of_u64(xxh64(body)) + "\n";
  text += body;
  const std::string tmp = unique_plan_temp_name();
  Fd file(
      ::openat(dir.get(), tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
  if (!file.ok()) return plan_cache_error("create " + cache.plans + "/" + tmp);
  std::size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(file.get(), text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      std::string why = plan_cache_error("write " + cache.plans + "/" + tmp);
      ::unlinkat(dir.get(), tmp.c_str(), 0);
      return why;
    }
    done += static_cast<std::size_t>(n);
  }
  const int fd = file.release();
  if (::close(fd) != 0 ||
      ::renameat(dir.get(), tmp.c_str(), dir.get(), plan_entry_name(stamp).c_str()) != 0) {
    std::string why = plan_cache_error("store the plan " + plan_entry_name(stamp));
    ::unlinkat(dir.get(), tmp.c_str(), 0);
    return why;
  }
  evict_plans(dir.get());
  return "";
}

void drop_cached_plan(const TreeCacheDir& cache, const FileStamp& stamp) {
  if (!cache.plans.empty()) ::unlink((cache.plans + "/" + plan_entry_name(stamp)).c_str());
}

}  // namespace hwaccel
