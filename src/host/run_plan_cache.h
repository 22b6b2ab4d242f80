// `hwsim run`'s cache of run plans (sim/run_plan.h), beside its tree cache: a warm
// run finds its plan, and through it its tree's key, by the snapshot file's
// identity instead of parsing the snapshot and hashing it with SHA-256 (most of
// a warm run's cost: docs/performance.md).
//
// An entry is BASE/hwsim/plans/DEV-INO (the snapshot's device and inode), and
// is used only when all of these are as they were when the plan was made from
// the file's bytes: the file's device, inode, size, mtime and ctime (ns), an
// XXH64 of its whole content (read on every run: 0.1 ms for a 0.5 MB snapshot),
// and hwsim's build id. Any of them different is a miss, and the run makes the
// plan anew from the bytes it read (and stores it). The content hash is of the
// very bytes the plan was made of, so a file rewritten in place with the same
// size and times (touch -d, a write within one clock tick) still misses.
//
// A settled entry is matched without reading the file (git's rule for "racily
// clean" files): when the entry was last written or used (its own mtime) more
// than kSettleNs after the file's ctime, a change to the file since then would
// have moved its ctime, which no one but the clock sets (touch -d sets the
// mtime, and the ctime to now). So the same device, inode, size, mtime and ctime
// then mean the same bytes, and a warm run skips reading and hashing them (0.5 MB
// for the DGX H100; 0.06 ms). An entry used within kSettleNs of the file's last
// change is checked by the hash, as above. What this trusts: this machine's
// clock, and the snapshot's file system's, not to go back, nor to lag this
// machine's by more than kSettleNs (an NFS server's, say) while the file is
// rewritten within one tick of its ctime.
//
// The entry is read as untrusted bytes: a private regular file of ours (0600, in
// the 0700 folder, never through a link), at most 16 MiB, a version line, the
// header lines above, and a body whose length and XXH64 are in the header.
// Anything else is a miss with a reason; the body is for sim::decode_run_plan,
// which checks it again, and nothing in it is run.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "src/host/tree_cache.h"
#include "src/vocabulary/result.h"

namespace hwaccel {

// XXH64 (Yann Collet's xxHash, 64-bit), seed 0.
std::uint64_t xxh64(std::string_view bytes);

// The same hash over bytes given in pieces: digest() after any split of them into
// update()s is xxh64 of the whole.
class Xxh64 {
 public:
  void update(std::string_view bytes);
  std::uint64_t digest() const;

 private:
  std::uint64_t v_[4] = {0x9E3779B185EBCA87ULL + 0xC2B2AE3D27D4EB4FULL, 0xC2B2AE3D27D4EB4FULL, 0,
                         0 - 0x9E3779B185EBCA87ULL};
  std::uint64_t total_ = 0;
  unsigned char stripe_[32] = {};
  std::size_t held_ = 0;
};

// Which file, in which state: what a cached plan is keyed by.
struct FileStamp {
  std::uint64_t dev = 0, ino = 0, size = 0;
  std::int64_t mtime_ns = 0, ctime_ns = 0;
  std::uint64_t content = 0;  // xxh64 of the bytes
  bool hashed = true;         // false: from fstat alone (stat_file_stamp), `content` unknown
  // "DEV INO SIZE MTIME CTIME XXH64" (decimal, the hash in hex).
  std::string text() const;
  // "DEV INO SIZE MTIME CTIME": all but the hash.
  std::string identity() const;
};

// How long after a file's ctime an entry must have been written or used to be
// matched without its hash (see above).
inline constexpr std::int64_t kSettleNs = std::int64_t{2'000'000'000};

struct StampedFile {
  std::string text;
  FileStamp stamp;
};

// The whole file, as read_text_file (src/host/text_file.h) reads it (a regular
// file only; larger than `max_bytes`: EFBIG), with its stamp. The file is
// fstat'ed before and after the read: when the two differ, or the bytes read
// are not the size it has, it changed while read (EAGAIN).
Result<StampedFile> read_stamped_file(const std::string& path, std::size_t max_bytes);

// The stamp alone, the bytes read through a small buffer and hashed as they come
// (a warm run needs nothing else of them): the same stamp read_stamped_file gives,
// with the same checks and errors.
Result<FileStamp> stamp_file(const std::string& path, std::size_t max_bytes);

// The stamp from fstat alone, the bytes not read (`hashed` false): the same
// checks and errors as stamp_file but for the read ones.
Result<FileStamp> stat_file_stamp(const std::string& path, std::size_t max_bytes);

struct CachedPlan {
  bool hit = false;
  std::string body;  // a hit's
  std::string miss;  // why not, when an entry was there ("" when there was none)
  bool refused = false;  // the entry was not one hwsim wrote (removed)
  bool unsettled = false;  // an entry for an unhashed stamp, not settled: ask with the hash
};

// The plan cached for the file `stamp` describes, for this build. An unhashed
// stamp (stat_file_stamp) hits only a settled entry; an unsettled one that
// matches it otherwise says so (`unsettled`).
CachedPlan find_cached_plan(const TreeCacheDir& cache, const FileStamp& stamp);

// Stores `body` as the plan of the file `stamp` describes (a private file, renamed
// into place whole); then the oldest used entries go past kMaxCachedPlans.
// "" or what failed.
inline constexpr std::size_t kMaxCachedPlans = 256;
std::string store_cached_plan(const TreeCacheDir& cache, const FileStamp& stamp,
                              std::string_view body);

// Removes the entry of the file `stamp` describes (a body that did not decode).
void drop_cached_plan(const TreeCacheDir& cache, const FileStamp& stamp);

}  // namespace hwaccel
