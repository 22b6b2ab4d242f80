#include "src/host/tree_cache.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <sstream>

#include "src/host/tree_cache_budget.h"
#include "src/host/tree_cache_evict.h"
#include "src/host/tree_fd.h"

namespace hwaccel {
namespace {

// 2: a tree's seal names the layers it is mounted with ("layer KEY AT").
constexpr const char* kSealHead = "hwsim-tree-cache 2";
constexpr std::size_t kMaxSeal = 1 << 20;

std::string err(const std::string& what) {
  return what + ": " + std::strerror(errno);
}

// Why this folder (an open descriptor) is not this user's alone; "" when it is.
std::string why_not_private(int fd, const std::string& shown) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return err("stat " + shown);
  if (!S_ISDIR(st.st_mode)) return shown + ": not a folder";
  if (st.st_uid != ::geteuid())
    return shown + ": owned by uid " + std::to_string(st.st_uid) + ", not by you";
  if ((st.st_mode & 077) != 0) return shown + ": open to group or others (0700 wanted)";
  return "";
}

// `name` in `dir`, made 0700 when missing, opened without following a link.
Fd private_folder(int dir, const std::string& name, const std::string& shown, std::string& why) {
  if (::mkdirat(dir, name.c_str(), 0700) != 0 && errno != EEXIST) {
    why = err("mkdir " + shown);
    return Fd();
  }
  Fd fd(::openat(dir, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!fd.ok()) {
    why = errno == ELOOP || errno == ENOTDIR
              ? shown + ": not a folder (a symbolic link or a file; never followed)"
              : err("open " + shown);
    return Fd();
  }
  why = why_not_private(fd.get(), shown);
  return why.empty() ? std::move(fd) : Fd();
}

// Holds `seal` (an open seal) shared: waits while an eviction of that entry holds
// it exclusively. False when the seal was unlinked meanwhile (the entry is gone).
bool hold_shared(const Fd& seal) {
  while (::flock(seal.get(), LOCK_SH) != 0)
    if (errno != EINTR) return false;
  struct stat st {};
  return ::fstat(seal.get(), &st) == 0 && st.st_nlink > 0;
}

EntryInUse keep_held(Fd seal) {
  return EntryInUse(new int(seal.release()), [](const int* fd) {
    ::close(*fd);
    delete fd;
  });
}

Fd open_dir(const std::string& path) {
  return Fd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
}

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

std::string unescape(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      out += s[i + 1] == 'n' ? '\n' : s[i + 1];
      ++i;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::string stamp(const struct stat& st) {
  return std::to_string(st.st_ino) + " " + std::to_string(st.st_ctim.tv_sec) + "." +
         std::to_string(st.st_ctim.tv_nsec);
}

// "top NAME INO CTIME" for the entry's folder (".") and every folder directly in it.
std::string top_stamps(int entry, std::string& why) {
  struct stat st {};
  if (::fstat(entry, &st) != 0) {
    why = err("stat the entry");
    return "";
  }
  std::string out = "tree " + std::to_string(st.st_dev) + " " + std::to_string(st.st_ino) + "\n" +
                    "top . " + stamp(st) + "\n";
  DIR* listing = ::fdopendir(::fcntl(entry, F_DUPFD_CLOEXEC, 0));
  if (!listing) {
    why = err("list the entry");
    return "";
  }
  std::vector<std::string> names;
  while (dirent* d = ::readdir(listing)) {
    std::string name = d->d_name;
    if (name == "." || name == "..") continue;
    names.push_back(name);
  }
  ::closedir(listing);
  std::sort(names.begin(), names.end());
  for (const auto& name : names) {
    struct stat sub {};
    if (::fstatat(entry, name.c_str(), &sub, AT_SYMLINK_NOFOLLOW) != 0) continue;
    if (S_ISDIR(sub.st_mode) && name.find_first_of(" \n\\") == std::string::npos)
      out += "top " + name + " " + stamp(sub) + "\n";
  }
  return out;
}

// Checks the seal's "tree" and "top" lines against the entry as it is now.
std::string why_seal_disagrees(int entry, const std::vector<std::string>& lines) {
  struct stat st {};
  if (::fstat(entry, &st) != 0) return err("stat the entry");
  bool tree_seen = false, top_seen = false;
  for (const auto& line : lines) {
    std::istringstream in(line);
    std::string word;
    in >> word;
    if (word == "tree") {
      unsigned long long dev = 0, ino = 0;
      in >> dev >> ino;
      if (dev != st.st_dev || ino != st.st_ino) return "another folder than the one sealed";
      tree_seen = true;
    } else if (word == "top") {
      std::string name, ino, ctime;
      in >> name >> ino >> ctime;
      struct stat sub {};
      if (::fstatat(entry, name.c_str(), &sub, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(sub.st_mode))
        return "its " + name + " is gone or no longer a folder";
      if (stamp(sub) != ino + " " + ctime) return "its " + name + " changed since it was sealed";
      top_seen = true;
    }
  }
  return tree_seen && top_seen ? "" : "the seal is incomplete";
}

// A fresh name in `dir` for a staging or doomed folder.
std::string unique_name(const std::string& prefix) {
  static unsigned counter = 0;
  return prefix + std::to_string(::getpid()) + "-" + std::to_string(++counter);
}

// Moves `name` aside (a link or a folder, never followed) and removes it.
void discard(int dir, const std::string& dir_path, const std::string& name) {
  const std::string doomed = unique_name(".old-");
  if (::renameat(dir, name.c_str(), dir, doomed.c_str()) != 0) return;
  remove_tree(dir_path + "/" + doomed);
}

// A seal's time says when its entry was last used (eviction keeps the newest).
// The clock's own time, not the kernel's default for "now", which is coarse (a
// timer tick: two uses a few milliseconds apart would tie, and a tie is broken by
// the keys' names).
void mark_used(int fd) {
  timespec now[2] = {};
  ::clock_gettime(CLOCK_REALTIME, &now[0]);
  now[1] = now[0];
  ::futimens(fd, now);
}

std::string write_seal(int dir, const std::string& key, const std::string& body) {
  const std::string tmp = unique_name(".seal-");
  int fd = ::openat(dir, tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return err("create the seal");
  bool ok = ::write(fd, body.data(), body.size()) == static_cast<ssize_t>(body.size());
  mark_used(fd);
  ok = ::close(fd) == 0 && ok;
  if (!ok || ::renameat(dir, tmp.c_str(), dir, (key + ".seal").c_str()) != 0) {
    std::string why = err("write the seal");
    ::unlinkat(dir, tmp.c_str(), 0);
    return why;
  }
  return "";
}

// What an entry's seal says of it for eviction (tree_cache_evict.h): its bytes
// and layers, from the seal's head; `known` false for a seal that does not say
// them (another version's) or cannot be read.
SealedEntry sealed_entry(int dir, const std::string& key, const struct stat& seal_stat) {
  SealedEntry entry;
  entry.key = key;
  entry.used = seal_stat.st_mtim.tv_sec * 1000000000LL + seal_stat.st_mtim.tv_nsec;
  Fd seal(::openat(dir, (key + ".seal").c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  if (!seal.ok()) return entry;
  char head[4096];
  ssize_t n = ::read(seal.get(), head, sizeof head);
  if (n <= 0) return entry;
  if (!parse_seal_head(std::string_view(head, static_cast<std::size_t>(n)), entry) ||
      !entry.known) {
    entry.known = false;
    entry.layers.clear();
  }
  return entry;
}

// Removes the entry `key` unless a run holds it (or another eviction has it).
bool remove_unheld(int dir, const std::string& dir_path, const std::string& key) {
  const std::string seal_name = key + ".seal";
  Fd seal(::openat(dir, seal_name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  if (!seal.ok() || ::flock(seal.get(), LOCK_EX | LOCK_NB) != 0) return false;
  ::unlinkat(dir, seal_name.c_str(), 0);
  const std::string doomed = unique_name(".old-");
  const bool moved = ::renameat(dir, key.c_str(), dir, doomed.c_str()) == 0;
  seal = Fd();  // unlocked: a finder waiting on it sees the seal unlinked
  if (moved) remove_tree(dir_path + "/" + doomed);
  return true;
}

// The least recently used entries go while the others take more than `budget`
// bytes, a shared layer counted once (tree_cache_evict.h).
void evict(int dir, const std::string& dir_path, std::uint64_t budget) {
  DIR* listing = ::fdopendir(::fcntl(dir, F_DUPFD_CLOEXEC, 0));
  if (!listing) return;
  std::vector<SealedEntry> entries;
  while (dirent* d = ::readdir(listing)) {
    std::string name = d->d_name;
    if (name.size() <= 5 || name.compare(name.size() - 5, 5, ".seal") != 0 || name[0] == '.')
      continue;
    struct stat st {};
    if (::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0)
      entries.push_back(sealed_entry(dir, name.substr(0, name.size() - 5), st));
  }
  ::closedir(listing);
  choose_evictions(std::move(entries), budget, [&](const SealedEntry& e) {
    return remove_unheld(dir, dir_path, e.key);
  });
}

}  // namespace

std::string default_tree_cache_base(std::string& why_not) {
  const char* set = std::getenv("HWSIM_TREE_CACHE");
  if (set && std::string(set) == "off") {
    why_not = "HWSIM_TREE_CACHE=off";
    return "";
  }
  if (set && set[0] == '/') return set;
  // In memory first: a tree is thousands of small files, and a disk makes each
  // one cost (seconds for a DGX's on a busy disk, against a tenth of that in tmpfs).
  const char* runtime = std::getenv("XDG_RUNTIME_DIR");
  if (runtime && runtime[0] == '/') return runtime;
  struct stat st {};
  if (::stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode))
    return "/dev/shm/hwsim-" + std::to_string(::geteuid());
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && xdg[0] == '/') return xdg;
  const char* home = std::getenv("HOME");
  if (home && *home) return std::string(home) + "/.cache";
  why_not = "no XDG_RUNTIME_DIR, /dev/shm, XDG_CACHE_HOME or HOME";
  return "";
}

TreeCacheDir open_tree_cache(const std::string& base) {
  TreeCacheDir out;
  if (base.empty()) {
    out.why_not = "no folder for it";
    return out;
  }
  // /dev/shm/hwsim-UID: the folder of ours in a shared one, checked as the others.
  const auto slash = base.rfind('/');
  const bool shared = base.rfind("/dev/shm/hwsim-", 0) == 0;
  const std::string parent = shared ? base.substr(0, slash) : base;
  if (!shared && ::mkdir(base.c_str(), 0700) != 0 && errno != EEXIST) {
    out.why_not = err("mkdir " + base);
    return out;
  }
  Fd top(::open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!top.ok()) {
    out.why_not = err("open " + parent);
    return out;
  }
  std::string why;
  if (shared) {
    top = private_folder(top.get(), base.substr(slash + 1), base, why);
    if (!top.ok()) {
      out.why_not = why;
      return out;
    }
  }
  Fd hwsim = private_folder(top.get(), "hwsim", base + "/hwsim", why);
  if (!hwsim.ok()) {
    out.why_not = why;
    return out;
  }
  Fd trees = private_folder(hwsim.get(), "trees", base + "/hwsim/trees", why);
  if (!trees.ok()) {
    out.why_not = why;
    return out;
  }
  out.path = base + "/hwsim/trees";
  if (Fd plans = private_folder(hwsim.get(), "plans", base + "/hwsim/plans", why); plans.ok())
    out.plans = base + "/hwsim/plans";
  return out;
}

std::string cached_tree_path(const TreeCacheDir& cache, const std::string& key) {
  return cache.path + "/" + key;
}

CachedTree find_cached_tree(const TreeCacheDir& cache, const std::string& key) {
  CachedTree out;
  Fd dir = open_dir(cache.path);
  if (!dir.ok() || !why_not_private(dir.get(), cache.path).empty()) {
    out.refused = cache.path + ": no longer a private folder of yours";
    return out;
  }
  Fd seal(::openat(dir.get(), (key + ".seal").c_str(),
                   O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
  // Held before the entry is looked at: an eviction running now ends first.
  if (seal.ok() && !hold_shared(seal)) return out;  // evicted meanwhile: a plain miss
  struct stat st {};
  const bool entry_there = ::fstatat(dir.get(), key.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0;
  if (!entry_there && !seal.ok()) return out;  // a plain miss
  auto refuse = [&](const std::string& why) {
    out.refused = why;
    ::unlinkat(dir.get(), (key + ".seal").c_str(), 0);
    if (entry_there) discard(dir.get(), cache.path, key);
    return out;
  };
  if (!seal.ok()) {
    // A run storing this key publishes its entry and then writes the seal: an
    // entry changed in the last minute is that run's, not garbage to discard
    // (discarding it removed the tree under the run that was about to use it).
    timespec now{};
    ::clock_gettime(CLOCK_REALTIME, &now);
    if (now.tv_sec - st.st_ctim.tv_sec < 60) return out;  // a plain miss
    return refuse("an entry without a seal (not written by hwsim, or unfinished)");
  }
  struct stat sst {};
  if (::fstat(seal.get(), &sst) != 0 || !S_ISREG(sst.st_mode) || sst.st_uid != ::geteuid() ||
      (sst.st_mode & 077) != 0 || static_cast<std::size_t>(sst.st_size) > kMaxSeal)
    return refuse("its seal is not a private regular file of yours (0600, at most 1 MiB)");
  std::string text(static_cast<std::size_t>(sst.st_size), '\0');
  std::size_t got = 0;
  while (got < text.size()) {
    ssize_t n = ::read(seal.get(), text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  text.resize(got);
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  if (lines.size() < 2 || lines[0] != kSealHead || lines[1] != "key " + key)
    return refuse("its seal is not hwsim's for this key");
  if (!entry_there) return refuse("a seal without its entry");
  Fd entry(::openat(dir.get(), key.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!entry.ok()) return refuse("the entry is not a folder (a link or a file; never followed)");
  if (auto why = why_not_private(entry.get(), "the entry"); !why.empty()) return refuse(why);
  if (auto why = why_seal_disagrees(entry.get(), lines); !why.empty())
    return refuse("the entry is " + why);
  SealedEntry head;
  if (!parse_seal_head(text, head)) return refuse("its seal's head is not hwsim's");
  for (const auto& line : lines) {
    if (line.rfind("warning ", 0) == 0) out.warnings.push_back(unescape(line.substr(8)));
    if (line.rfind("note ", 0) == 0) out.notes.push_back(unescape(line.substr(5)));
    if (line.rfind("layer ", 0) == 0 && line.size() > 71)
      out.layers.push_back({line.substr(6, 64), unescape(line.substr(71))});
  }
  mark_used(seal.get());  // recently used: kept longest
  out.in_use = keep_held(std::move(seal));
  out.hit = true;
  return out;
}

namespace {

// Writes, publishes and seals the entry `key` (store_cached_tree); holds it when asked.
std::string store_entry(int dir, const TreeCacheDir& cache, const std::string& key,
                        const TreePlan& plan, const std::vector<LayerRef>& layers,
                        EntryInUse* in_use) {
  const std::string staging = unique_name(".new-");
  if (::mkdirat(dir, staging.c_str(), 0700) != 0) return err("mkdir (cache staging)");
  const std::string staging_path = cache.path + "/" + staging;
  if (auto why = write_tree_parallel(plan, staging_path); !why.empty()) {
    remove_tree(staging_path);
    return why;
  }
  // The tree folder itself 0700 (write_tree leaves the root as it found it).
  ::fchmodat(dir, staging.c_str(), 0700, 0);
  // Published by another run meanwhile (two variants storing one layer): its seal
  // is left alone (removing it left that entry unsealed: a miss for a minute).
  struct stat there {};
  if (::fstatat(dir, key.c_str(), &there, AT_SYMLINK_NOFOLLOW) == 0) {
    remove_tree(staging_path);
    return "publish the cache entry " + key + ": another run published it first";
  }
  ::unlinkat(dir, (key + ".seal").c_str(), 0);
  if (::renameat2(dir, staging.c_str(), dir, key.c_str(), RENAME_NOREPLACE) != 0) {
    std::string why = err("publish the cache entry " + key);
    remove_tree(staging_path);
    return why;
  }
  Fd entry(::openat(dir, key.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  std::string why;
  std::string body = std::string(kSealHead) + "\nkey " + key + "\nbytes " +
                     std::to_string(tree_footprint(plan)) + "\n";
  for (const auto& layer : layers) body += "layer " + layer.key + " " + escape(layer.at) + "\n";
  if (entry.ok()) body += top_stamps(entry.get(), why);
  for (const auto& w : plan.warnings) body += "warning " + escape(w) + "\n";
  for (const auto& n : plan.notes) body += "note " + escape(n) + "\n";
  if (!entry.ok() || !why.empty() || !(why = write_seal(dir, key, body)).empty()) {
    discard(dir, cache.path, key);
    return why.empty() ? err("open the new entry") : why;
  }
  if (in_use) {
    Fd seal(::openat(dir, (key + ".seal").c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
    if (!seal.ok() || !hold_shared(seal)) return err("hold the new entry " + key);
    *in_use = keep_held(std::move(seal));
  }
  return "";
}

Fd private_cache_dir(const TreeCacheDir& cache, std::string& why) {
  Fd dir = open_dir(cache.path);
  if (!dir.ok()) why = err("open " + cache.path);
  else why = why_not_private(dir.get(), cache.path);
  return why.empty() ? std::move(dir) : Fd();
}

}  // namespace

std::string store_cached_tree(const TreeCacheDir& cache, const std::string& key,
                              const TreePlan& plan, std::uint64_t budget, EntryInUse* in_use,
                              const std::vector<LayerRef>& layers) {
  std::string why;
  Fd dir = private_cache_dir(cache, why);
  if (!dir.ok()) return why;
  if (auto failed = store_entry(dir.get(), cache, key, plan, layers, in_use); !failed.empty())
    return failed;
  evict(dir.get(), cache.path, budget);
  return "";
}

std::string store_cached_layer(const TreeCacheDir& cache, const std::string& key,
                               const TreePlan& plan, EntryInUse* in_use) {
  std::string why;
  Fd dir = private_cache_dir(cache, why);
  if (!dir.ok()) return why;
  return store_entry(dir.get(), cache, key, plan, {}, in_use);
}

}  // namespace hwaccel
