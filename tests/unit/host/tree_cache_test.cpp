// `hwsim run`'s tree cache: a hit is the tree a fresh write gives; another key
// misses; a planted or changed entry, a link, or a cache folder that is not this
// user's alone is refused, and nothing outside the cache is touched. And its plan
// cache (src/host/run_plan_cache.h): a plan is found only for the snapshot file
// as it was (a changed byte, a touched time, a replaced file miss), and a cached
// plan that is not as hwsim wrote it is refused.
#include "src/host/tree_cache.h"

#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "src/host/run_plan_cache.h"
#include "src/host/sha256.h"
#include "src/host/tree_cache_budget.h"
#include "src/vocabulary/byte_size.h"

namespace hwaccel {
namespace {

namespace fs = std::filesystem;
using Kind = PlannedEntry::Kind;

// Every entry below `root`: relative path, type, mode, bytes or link target.
std::string listing(const std::string& root) {
  std::ostringstream out;
  std::vector<std::string> lines;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator();
       ++it) {
    const auto& p = it->path();
    auto st = fs::symlink_status(p);
    std::string line = fs::relative(p, root).string() + " " +
                       std::to_string(static_cast<int>(st.type())) + " " +
                       std::to_string(static_cast<unsigned>(st.permissions()));
    if (fs::is_symlink(st)) {
      line += " -> " + fs::read_symlink(p).string();
    } else if (fs::is_regular_file(st)) {
      std::ifstream in(p, std::ios::binary);
      line += " " + std::string(std::istreambuf_iterator<char>(in), {});
    }
    lines.push_back(line);
  }
  std::sort(lines.begin(), lines.end());
  for (auto& l : lines) out << l << "\n";
  return out.str();
}

// plan() below: two files of a page each (4 KiB rounded up) and an empty one.
constexpr std::uint64_t kPlanBytes = 2 * 4096;
constexpr std::uint64_t kRoomy = std::uint64_t{1} << 30;

class TreeCache : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    base_ = make_private_temp_dir("tree-cache-test-", error);
    ASSERT_FALSE(base_.empty()) << error;
    canary_ = base_ + "/canary";
    fs::create_directory(canary_);
    std::ofstream(canary_ + "/keep") << "mine";
    cache_ = open_tree_cache(base_ + "/xdg");
    ASSERT_FALSE(cache_.path.empty()) << cache_.why_not;
  }
  void TearDown() override { EXPECT_EQ(remove_tree(base_), ""); }
  bool canary_untouched() const { return fs::exists(canary_ + "/keep"); }

  TreePlan plan() const {
    return {{{Kind::dir, "/sys", "", "", 0755},
             {Kind::file, "/sys/devices/system/cpu/online", "0-223\n", "", 0644},
             {Kind::link, "/sys/class/dmi/id", "", "../../devices/virtual/dmi/id", 0777},
             {Kind::file, "/dev/nvidia0", "", "", 0600},
             {Kind::file, "/.hwsim/bin/nvidia-smi", "#!/bin/sh\n", "", 0755}},
            {"a note"},
            {"env LD_PRELOAD: left out"},
            ""};
  }
  std::string base_, canary_;
  TreeCacheDir cache_;
  const std::string key_ = sha256_hex("snapshot one");
};

// A layer (src/host/tree_layers.h) is an entry of its own, stored once however
// many trees name it, verified as a tree is, and kept by eviction with the trees
// that use it (src/host/tree_cache_evict.h).
TEST_F(TreeCache, ALayerIsStoredOnceNamedByItsTreesAndEvictedWithThem) {
  TreePlan layer;
  layer.entries = {{Kind::dir, "/tree", "", "", 0755},
                   {Kind::file, "/tree/cpu0/online", "1\n", "", 0644}};
  const std::string lkey = sha256_hex("layer");
  const std::vector<LayerRef> refs = {{lkey, "/sys/devices/system/cpu"}};
  {
    EntryInUse held;
    ASSERT_EQ(store_cached_layer(cache_, lkey, layer, &held), "");
    EXPECT_NE(store_cached_layer(cache_, lkey, layer), "") << "published by the first";
    ASSERT_EQ(store_cached_tree(cache_, key_, plan(), kRoomy, nullptr, refs), "");
    ASSERT_EQ(store_cached_tree(cache_, sha256_hex("variant"), plan(), kRoomy, nullptr, refs), "");
  }
  CachedTree found = find_cached_tree(cache_, key_);
  ASSERT_TRUE(found.hit);
  EXPECT_EQ(found.layers, refs);
  EXPECT_EQ(find_cached_tree(cache_, sha256_hex("variant")).layers, refs);
  CachedTree shared = find_cached_tree(cache_, lkey);
  ASSERT_TRUE(shared.hit);
  EXPECT_TRUE(shared.layers.empty());
  EXPECT_EQ(listing(cached_tree_path(cache_, lkey)), "tree 2 493\ntree/cpu0 2 493\ntree/cpu0/online 1 420 1\n\n");
  found = {};
  shared = {};
  // Two trees of 2 pages and their layer of 1 fit in 5 pages; a third tree (no
  // layer) in 5: the older tree goes, the layer stays with the newer one.
  ASSERT_EQ(store_cached_tree(cache_, sha256_hex("third"), plan(), 5 * 4096), "");
  EXPECT_FALSE(find_cached_tree(cache_, key_).hit);
  EXPECT_TRUE(find_cached_tree(cache_, sha256_hex("variant")).hit);
  EXPECT_TRUE(find_cached_tree(cache_, lkey).hit);
  // In 2 pages only the newest stays: the layer and the tree that needs it go together.
  ASSERT_EQ(store_cached_tree(cache_, sha256_hex("fourth"), plan(), 2 * 4096), "");
  EXPECT_FALSE(fs::exists(cached_tree_path(cache_, lkey)));
  EXPECT_FALSE(fs::exists(cached_tree_path(cache_, sha256_hex("variant"))));
  // Verified as a tree is: a folder planted at its top is refused.
  ASSERT_EQ(store_cached_layer(cache_, lkey, layer), "");
  fs::create_directory(cached_tree_path(cache_, lkey) + "/planted");
  CachedTree planted = find_cached_tree(cache_, lkey);
  EXPECT_FALSE(planted.hit);
  EXPECT_NE(planted.refused.find("changed since it was sealed"), std::string::npos)
      << planted.refused;
  EXPECT_TRUE(canary_untouched());
}

// Two runs of variants storing one layer at once (tree_layers.h): one publishes,
// the other fails without touching it (a miss at worst, never a refusal); after
// both, the one layer is sealed and found, and no staging folder is left.
TEST_F(TreeCache, TwoRunsStoringOneLayerAtOnceLeaveOneSealedLayer) {
  TreePlan layer;
  for (int i = 0; i < 300; ++i)
    layer.entries.push_back({Kind::file, "/tree/cpu" + std::to_string(i) + "/online", "1\n", "", 0644});
  for (int round = 0; round < 4; ++round) {
    const std::string key = sha256_hex("race " + std::to_string(round));
    pid_t kids[2];
    for (pid_t& kid : kids) {
      kid = ::fork();
      ASSERT_GE(kid, 0);
      if (kid == 0) {
        EntryInUse held;
        if (store_cached_layer(cache_, key, layer, &held).empty()) ::_exit(0);
        CachedTree other = find_cached_tree(cache_, key);
        ::_exit(other.hit || other.refused.empty() ? 0 : 1);
      }
    }
    for (pid_t kid : kids) {
      int status = 0;
      ASSERT_EQ(::waitpid(kid, &status, 0), kid);
      EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << round;
    }
    EXPECT_TRUE(find_cached_tree(cache_, key).hit) << round;
  }
  for (const auto& e : fs::directory_iterator(cache_.path))
    EXPECT_NE(e.path().filename().string().rfind(".new-", 0), 0u) << e.path();
}

TEST(Sha256, KnownDigests) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  // Two blocks, and a length that puts the padding in a block of its own.
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  Sha256 split;
  split.update("ab");
  split.update("c");
  EXPECT_EQ(split.hex(), sha256_hex("abc"));
}

TEST_F(TreeCache, AHitIsTheTreeAFreshWriteGives) {
  EXPECT_FALSE(find_cached_tree(cache_, key_).hit);
  ASSERT_EQ(store_cached_tree(cache_, key_, plan(), kRoomy), "");
  CachedTree found = find_cached_tree(cache_, key_);
  ASSERT_TRUE(found.hit) << found.refused;
  EXPECT_EQ(found.warnings, std::vector<std::string>{"env LD_PRELOAD: left out"});
  EXPECT_EQ(found.notes, std::vector<std::string>{"a note"});
  ASSERT_EQ(write_tree(plan(), base_ + "/fresh"), "");
  EXPECT_EQ(listing(cached_tree_path(cache_, key_)), listing(base_ + "/fresh"));
}

TEST_F(TreeCache, AnotherSnapshotMisses) {
  ASSERT_EQ(store_cached_tree(cache_, key_, plan(), kRoomy), "");
  CachedTree other = find_cached_tree(cache_, sha256_hex("snapshot two"));
  EXPECT_FALSE(other.hit);
  EXPECT_EQ(other.refused, "");
  EXPECT_TRUE(find_cached_tree(cache_, key_).hit);
}

// An entry without a seal is never used. While it is fresh it may be another
// run's, between publishing its entry and writing the seal: a miss that leaves
// it alone (discarding it once removed the tree under that run; entries a minute
// old are discarded, which this test cannot wait for).
TEST_F(TreeCache, AnUnsealedEntryIsNeverUsedNorTakenFromAStoringRun) {
  const std::string entry = cached_tree_path(cache_, key_);
  fs::create_directories(entry + "/sys");
  std::ofstream(entry + "/sys/online") << "0-1023\n";
  CachedTree found = find_cached_tree(cache_, key_);
  EXPECT_FALSE(found.hit);
  EXPECT_EQ(found.refused, "");
  EXPECT_TRUE(fs::exists(entry + "/sys/online")) << "a storing run's tree is left to it";
  EXPECT_NE(store_cached_tree(cache_, key_, plan(), kRoomy), "") << "published by the other run";
  EXPECT_FALSE(find_cached_tree(cache_, key_).hit);
  // A seal copied from another entry does not make it trusted either.
  fs::remove_all(entry);
  ASSERT_EQ(store_cached_tree(cache_, key_, plan(), kRoomy), "");
  fs::rename(entry, base_ + "/moved");
  fs::create_directories(entry + "/sys");
  fs::permissions(entry, fs::perms::owner_all, fs::perm_options::replace);
  EXPECT_NE(find_cached_tree(cache_, key_).refused.find("another folder"), std::string::npos);
}

TEST_F(TreeCache, APlantedLinkIsRefusedNeverFollowed) {
  ASSERT_EQ(store_cached_tree(cache_, key_, plan(), kRoomy), "");
  const std::string entry = cached_tree_path(cache_, key_);
  fs::rename(entry, base_ + "/gone");
  fs::create_directory_symlink(canary_, entry);
  CachedTree found = find_cached_tree(cache_, key_);
  EXPECT_FALSE(found.hit);
  EXPECT_NE(found.refused.find("never followed"), std::string::npos) << found.refused;
  EXPECT_TRUE(canary_untouched());
  EXPECT_FALSE(fs::exists(fs::symlink_status(entry)));
}

TEST_F(TreeCache, AChangedEntryIsRefused) {
  ASSERT_EQ(store_cached_tree(cache_, key_, plan(), kRoomy), "");
  const std::string entry = cached_tree_path(cache_, key_);
  std::ofstream(entry + "/sys/extra") << "planted\n";  // a file added at the top of a folder
  CachedTree found = find_cached_tree(cache_, key_);
  EXPECT_FALSE(found.hit);
  EXPECT_NE(found.refused.find("sys changed"), std::string::npos) << found.refused;
  // Written anew, it is trusted again.
  ASSERT_EQ(store_cached_tree(cache_, key_, plan(), kRoomy), "");
  EXPECT_TRUE(find_cached_tree(cache_, key_).hit);
  // A seal that names another key.
  std::ofstream(cache_.path + "/" + key_ + ".seal", std::ios::trunc)
      << "hwsim-tree-cache 1\nkey 00\n";
  EXPECT_FALSE(find_cached_tree(cache_, key_).hit);
  // The entry opened to others.
  ASSERT_EQ(store_cached_tree(cache_, key_, plan(), kRoomy), "");
  fs::permissions(entry, fs::perms::others_all, fs::perm_options::add);
  EXPECT_NE(find_cached_tree(cache_, key_).refused.find("group or others"), std::string::npos);
}

TEST_F(TreeCache, ACacheFolderThatIsALinkOrNotOursIsRefused) {
  const std::string other = base_ + "/other";
  fs::create_directories(other);
  fs::create_directory_symlink(canary_, other + "/hwsim");
  TreeCacheDir linked = open_tree_cache(other);
  EXPECT_EQ(linked.path, "");
  EXPECT_NE(linked.why_not.find("never followed"), std::string::npos) << linked.why_not;
  EXPECT_TRUE(canary_untouched());

  const std::string open = base_ + "/open";
  fs::create_directories(open + "/hwsim");
  fs::permissions(open + "/hwsim", fs::perms::all);
  EXPECT_NE(open_tree_cache(open).why_not.find("group or others"), std::string::npos);

  const std::string foreign = base_ + "/foreign";
  fs::create_directories(foreign + "/hwsim/trees");
  fs::permissions(foreign + "/hwsim", fs::perms::owner_all, fs::perm_options::replace);
  if (::geteuid() != 0 || ::chown((foreign + "/hwsim").c_str(), 65534, 65534) != 0)
    GTEST_SKIP() << "cannot give a folder to another user here (not root)";
  EXPECT_NE(open_tree_cache(foreign).why_not.find("owned by uid 65534"), std::string::npos);
}

TEST(TreeCacheBudget, FootprintIsWholePagesOfFiles) {
  TreePlan plan{{{PlannedEntry::Kind::dir, "/sys", "", "", 0755},
                 {PlannedEntry::Kind::file, "/a", std::string(4096, 'x'), "", 0644},
                 {PlannedEntry::Kind::file, "/b", std::string(4097, 'x'), "", 0644},
                 {PlannedEntry::Kind::file, "/empty", "", "", 0644},
                 {PlannedEntry::Kind::link, "/l", "", "a", 0777}},
                {},
                {},
                ""};
  EXPECT_EQ(tree_footprint(plan), 3 * 4096u);
}

// The setting reads sizes as --reserve does (src/vocabulary/byte_size.h).
TEST(TreeCacheBudget, SizesReadAsAUserWritesThem) {
  EXPECT_EQ(parse_size("4096"), 4096u);
  EXPECT_EQ(parse_size("512M"), 512ull << 20);
  EXPECT_EQ(parse_size("2g"), 2ull << 30);
  EXPECT_EQ(parse_size("1GB"), 1ull << 30);
  EXPECT_EQ(parse_size("0"), 0u);
  EXPECT_EQ(parse_size("1.5G"), 3ull << 29);
  for (const char* bad : {"", "G", "-1", "8E", "1 G", "12x", "99999999999999999999", "9000000000T"})
    EXPECT_FALSE(parse_size(bad)) << bad;
}

TEST(TreeCacheBudget, TheUsersSettingElseAGibibyteAtMostHalfTheSpaceLeft) {
  const char* saved = std::getenv("HWSIM_TREE_CACHE_SIZE");
  const std::string restore = saved ? saved : "";
  std::string warning;
  ::setenv("HWSIM_TREE_CACHE_SIZE", "64M", 1);
  EXPECT_EQ(tree_cache_budget("/tmp", warning), 64ull << 20);
  EXPECT_EQ(warning, "");
  ::setenv("HWSIM_TREE_CACHE_SIZE", "lots", 1);
  const std::uint64_t fallback = tree_cache_budget("/tmp", warning);
  EXPECT_NE(warning.find("HWSIM_TREE_CACHE_SIZE=lots is not a size"), std::string::npos) << warning;
  ::unsetenv("HWSIM_TREE_CACHE_SIZE");
  warning.clear();
  const std::uint64_t budget = tree_cache_budget("/tmp", warning);
  EXPECT_EQ(warning, "");
  EXPECT_EQ(budget, fallback);
  EXPECT_GT(budget, 0u);
  EXPECT_LE(budget, 1ull << 30);
  if (saved) ::setenv("HWSIM_TREE_CACHE_SIZE", restore.c_str(), 1);
}

TEST_F(TreeCache, AppliesTheBudgetInBytesNotTrees) {
  // Ten small trees fit a budget of ten (a count of 8 dropped two of them).
  for (int i = 0; i < 10; ++i)
    ASSERT_EQ(
        store_cached_tree(cache_, sha256_hex("s" + std::to_string(i)), plan(), 10 * kPlanBytes),
        "");
  for (int i = 0; i < 10; ++i)
    EXPECT_TRUE(find_cached_tree(cache_, sha256_hex("s" + std::to_string(i))).hit) << i;
  // A tree of three small ones' size, under a budget of four: it and the newest
  // small one stay, the older ones go.
  TreePlan large = plan();
  large.entries.push_back(
      {PlannedEntry::Kind::file, "/large", std::string(4 * 4096, 'x'), "", 0644});
  ASSERT_EQ(tree_footprint(large), 3 * kPlanBytes);
  ASSERT_EQ(store_cached_tree(cache_, sha256_hex("large"), large, 4 * kPlanBytes), "");
  EXPECT_TRUE(find_cached_tree(cache_, sha256_hex("large")).hit);
  EXPECT_TRUE(find_cached_tree(cache_, sha256_hex("s9")).hit);
  for (int i = 0; i < 9; ++i)
    EXPECT_FALSE(find_cached_tree(cache_, sha256_hex("s" + std::to_string(i))).hit) << i;
}

// An entry whose seal does not say its size (written by another version of
// hwsim, whose runs never look it up) goes before any entry that does.
TEST_F(TreeCache, AnEntryOfUnknownSizeGoesFirst) {
  const std::string old_key = sha256_hex("old");
  ASSERT_EQ(store_cached_tree(cache_, old_key, plan(), kRoomy), "");
  const std::string seal = cache_.path + "/" + old_key + ".seal";
  std::ifstream in(seal);
  std::string text, line;
  while (std::getline(in, line))
    if (line.rfind("bytes ", 0) != 0) text += line + "\n";
  in.close();
  std::ofstream(seal, std::ios::trunc) << text;
  ASSERT_TRUE(find_cached_tree(cache_, old_key).hit) << "still a valid entry";
  ASSERT_EQ(store_cached_tree(cache_, sha256_hex("new"), plan(), kRoomy), "");
  EXPECT_FALSE(fs::exists(cached_tree_path(cache_, old_key)));
  EXPECT_TRUE(find_cached_tree(cache_, sha256_hex("new")).hit);
}

TEST_F(TreeCache, KeepsOnlyTheNewestEntries) {
  for (int i = 0; i < 4; ++i)
    ASSERT_EQ(store_cached_tree(cache_, sha256_hex(std::to_string(i)), plan(), 2 * kPlanBytes), "");
  EXPECT_FALSE(find_cached_tree(cache_, sha256_hex("0")).hit);
  EXPECT_FALSE(find_cached_tree(cache_, sha256_hex("1")).hit);
  EXPECT_TRUE(find_cached_tree(cache_, sha256_hex("3")).hit);
}

// Runs of many snapshots at once (a test suite, a fleet check): an entry a run
// is using must not be evicted under its command, whose files would vanish.
TEST_F(TreeCache, AnEntryInUseIsNeverEvicted) {
  EntryInUse first_run;
  ASSERT_EQ(store_cached_tree(cache_, sha256_hex("0"), plan(), kPlanBytes, &first_run), "");
  ASSERT_TRUE(first_run);
  CachedTree second_run = find_cached_tree(cache_, sha256_hex("0"));
  ASSERT_TRUE(second_run.hit && second_run.in_use);
  for (int i = 1; i < 4; ++i)
    ASSERT_EQ(store_cached_tree(cache_, sha256_hex(std::to_string(i)), plan(), kPlanBytes), "");
  const std::string held = cached_tree_path(cache_, sha256_hex("0"));
  EXPECT_TRUE(fs::exists(held + "/sys/devices/system/cpu/online"));
  // Held twice: released once, still held.
  first_run.reset();
  ASSERT_EQ(store_cached_tree(cache_, sha256_hex("4"), plan(), kPlanBytes), "");
  EXPECT_TRUE(fs::exists(held + "/sys/devices/system/cpu/online"));
  // Released by both: the next store evicts it, as the least recently used.
  second_run = {};
  ASSERT_EQ(store_cached_tree(cache_, sha256_hex("5"), plan(), kPlanBytes), "");
  EXPECT_FALSE(fs::exists(held));
  EXPECT_FALSE(find_cached_tree(cache_, sha256_hex("0")).hit);
  EXPECT_TRUE(find_cached_tree(cache_, sha256_hex("5")).hit);
}

TEST(Xxh64, KnownDigests) {
  // The low 32 bits are what zstd --check writes as a frame's checksum.
  EXPECT_EQ(xxh64(""), 0xEF46DB3751D8E999ULL);
  EXPECT_EQ(xxh64("a"), 0xD24EC4F1A98C6E5BULL);
  EXPECT_EQ(xxh64("abc"), 0x44BC2CF5AD770999ULL);
  // Past one 32-byte stripe, with 8-, 4- and 1-byte tails.
  EXPECT_EQ(xxh64("Nobody inspects the spammish repetition"), 0xFBCEA83C8A378BF1ULL);
  std::string long_text;
  for (int i = 0; i < 1000; ++i) long_text += static_cast<char>(33 + (i * 7) % 90);
  EXPECT_EQ(xxh64(long_text) & 0xffffffffu, 0xe6ddf4f1u);
}

// Any split of the bytes into pieces hashes as the whole (stamp_file's reads).
TEST(Xxh64, PiecesHashAsTheWhole) {
  std::string text;
  for (int i = 0; i < 300; ++i) text += static_cast<char>(i * 31 + 7);
  for (std::size_t size : {0u, 1u, 3u, 31u, 32u, 33u, 64u, 100u, 300u}) {
    const std::string_view whole(text.data(), size);
    for (std::size_t piece : {1u, 5u, 8u, 31u, 32u, 33u, 70u}) {
      Xxh64 hash;
      for (std::size_t at = 0; at < size; at += piece)
        hash.update(whole.substr(at, std::min(piece, size - at)));
      EXPECT_EQ(hash.digest(), xxh64(whole)) << size << " bytes in pieces of " << piece;
    }
  }
}

class RunPlanCache : public TreeCache {
 protected:
  void SetUp() override {
    TreeCache::SetUp();
    ASSERT_FALSE(cache_.plans.empty());
    snapshot_ = base_ + "/host.yaml";
    write(snapshot_, "hostname: a\n");
  }
  static void write(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  }
  static void set_mtime(const std::string& path, std::int64_t sec, long nsec) {
    const timespec times[2] = {{sec, nsec}, {sec, nsec}};
    ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0);
  }
  FileStamp stamp() const {
    auto read = read_stamped_file(snapshot_, 1 << 20);
    EXPECT_TRUE(read) << read.error().message;
    return read ? read->stamp : FileStamp{};
  }
  std::string entry() const { return cache_.plans + "/" + only_entry_name(); }
  std::string only_entry_name() const {
    std::string name;
    for (const auto& e : fs::directory_iterator(cache_.plans)) name = e.path().filename();
    return name;
  }
  std::string snapshot_;
};

TEST_F(RunPlanCache, AStoredPlanIsFoundForTheSameFile) {
  auto read = read_stamped_file(snapshot_, 1 << 20);
  ASSERT_TRUE(read);
  EXPECT_EQ(read->text, "hostname: a\n");
  EXPECT_EQ(read->stamp.size, 12u);
  EXPECT_EQ(read->stamp.content, xxh64("hostname: a\n"));
  EXPECT_FALSE(find_cached_plan(cache_, read->stamp).hit);
  EXPECT_EQ(find_cached_plan(cache_, read->stamp).miss, "");
  ASSERT_EQ(store_cached_plan(cache_, read->stamp, "the plan\n"), "");
  CachedPlan found = find_cached_plan(cache_, stamp());
  ASSERT_TRUE(found.hit) << found.miss;
  EXPECT_EQ(found.body, "the plan\n");
  struct stat st {};
  ASSERT_EQ(::stat(entry().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
}

// The stamp alone, read through a small buffer, is read_stamped_file's, for a file
// of many buffers too.
TEST_F(RunPlanCache, AStampAloneIsTheReadFilesStamp) {
  std::string big;
  for (int i = 0; i < 100000; ++i) big += "line " + std::to_string(i) + "\n";
  write(snapshot_, big);
  auto read = read_stamped_file(snapshot_, 16 << 20);
  auto stamp = stamp_file(snapshot_, 16 << 20);
  ASSERT_TRUE(read);
  ASSERT_TRUE(stamp) << stamp.error().message;
  EXPECT_EQ(stamp->text(), read->stamp.text());
  EXPECT_EQ(stamp->content, xxh64(big));
  EXPECT_EQ(stamp_file(snapshot_, 1000).error().code, EFBIG);
  EXPECT_EQ(stamp_file(base_ + "/none.yaml", 1000).error().code, ENOENT);
}

// The same size and the same mtime, one byte different: the content hash misses.
TEST_F(RunPlanCache, ASnapshotChangedInPlaceMisses) {
  set_mtime(snapshot_, 1700000000, 5);
  ASSERT_EQ(store_cached_plan(cache_, stamp(), "plan of a\n"), "");
  ASSERT_TRUE(find_cached_plan(cache_, stamp()).hit);
  {
    std::fstream f(snapshot_, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(10);
    f.put('b');
  }
  set_mtime(snapshot_, 1700000000, 5);
  const FileStamp changed = stamp();
  EXPECT_EQ(changed.size, 12u);
  EXPECT_EQ(changed.mtime_ns, 1700000000LL * 1000000000LL + 5);
  CachedPlan found = find_cached_plan(cache_, changed);
  EXPECT_FALSE(found.hit);
  EXPECT_NE(found.miss.find("changed"), std::string::npos) << found.miss;
  EXPECT_FALSE(found.refused);
}

// Unread (fstat alone): an entry last used within kSettleNs of the file's last
// change is not trusted without the hash; one used later is, since any change
// to the file since would have moved its ctime, and then it misses.
TEST_F(RunPlanCache, AnUnreadStampHitsOnlyASettledEntry) {
  ASSERT_EQ(store_cached_plan(cache_, stamp(), "plan\n"), "");
  auto unread = stat_file_stamp(snapshot_, 1 << 20);
  ASSERT_TRUE(unread) << unread.error().message;
  EXPECT_FALSE(unread->hashed);
  EXPECT_EQ(unread->identity(), stamp().identity());
  EXPECT_EQ(stat_file_stamp(snapshot_, 5).error().code, EFBIG);
  EXPECT_EQ(stat_file_stamp(base_ + "/none.yaml", 1000).error().code, ENOENT);
  CachedPlan fresh = find_cached_plan(cache_, *unread);
  EXPECT_FALSE(fresh.hit);
  EXPECT_TRUE(fresh.unsettled) << fresh.miss;
  EXPECT_FALSE(fresh.refused);
  EXPECT_TRUE(find_cached_plan(cache_, stamp()).hit);  // the hash settles nothing by itself

  // The entry last used well after the file's ctime: settled.
  const std::int64_t later = unread->ctime_ns + kSettleNs + 1'000'000'000;
  set_mtime(entry(), later / 1'000'000'000, static_cast<long>(later % 1'000'000'000));
  CachedPlan settled = find_cached_plan(cache_, *unread);
  ASSERT_TRUE(settled.hit) << settled.miss;
  EXPECT_EQ(settled.body, "plan\n");

  // One byte rewritten a clock tick later, size and mtime put back: the ctime moved.
  struct stat before {};
  ASSERT_EQ(::stat(snapshot_.c_str(), &before), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  {
    std::fstream f(snapshot_, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(10);
    f.put('b');
  }
  set_mtime(snapshot_, before.st_mtim.tv_sec, before.st_mtim.tv_nsec);
  set_mtime(entry(), later / 1'000'000'000, static_cast<long>(later % 1'000'000'000));
  auto changed = stat_file_stamp(snapshot_, 1 << 20);
  ASSERT_TRUE(changed);
  EXPECT_EQ(changed->size, unread->size);
  EXPECT_EQ(changed->mtime_ns, unread->mtime_ns);
  CachedPlan missed = find_cached_plan(cache_, *changed);
  EXPECT_FALSE(missed.hit);
  EXPECT_FALSE(missed.unsettled);
  EXPECT_NE(missed.miss.find("changed"), std::string::npos) << missed.miss;
}

TEST_F(RunPlanCache, ATouchedSnapshotMisses) {
  ASSERT_EQ(store_cached_plan(cache_, stamp(), "plan\n"), "");
  set_mtime(snapshot_, 1600000000, 0);  // the same bytes, another time
  EXPECT_FALSE(find_cached_plan(cache_, stamp()).hit);
}

// Another file at the path (an editor's save: write a copy, rename it over):
// another inode, and no plan of it.
TEST_F(RunPlanCache, AReplacedSnapshotMisses) {
  const FileStamp before = stamp();
  ASSERT_EQ(store_cached_plan(cache_, before, "plan\n"), "");
  write(base_ + "/copy.yaml", "hostname: a\n");
  fs::rename(base_ + "/copy.yaml", snapshot_);
  const FileStamp after = stamp();
  EXPECT_NE(after.ino, before.ino);
  EXPECT_EQ(after.content, before.content);
  EXPECT_FALSE(find_cached_plan(cache_, after).hit);
}

TEST_F(RunPlanCache, ACorruptPlanIsRefusedAndRemoved) {
  const FileStamp s = stamp();
  ASSERT_EQ(store_cached_plan(cache_, s, "line one\nline two\n"), "");
  std::string good;
  {
    std::ifstream in(entry(), std::ios::binary);
    good.assign(std::istreambuf_iterator<char>(in), {});
  }
  const std::string name = entry();
  auto put = [&](const std::string& text) {
    ::unlink(name.c_str());
    int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
    ::close(fd);
  };
  std::string flipped = good;
  flipped[flipped.size() - 3] ^= 1;
  for (const std::string& bad :
       {good.substr(0, good.size() - 5), flipped, good + "more\n", std::string("garbage"),
        std::string(""), "hwsim-run-plan-cache 1\n" + good.substr(good.find('\n') + 1, 10)}) {
    put(bad);
    CachedPlan found = find_cached_plan(cache_, s);
    EXPECT_FALSE(found.hit) << bad;
    EXPECT_TRUE(found.refused) << bad;
    EXPECT_FALSE(found.miss.empty());
    EXPECT_FALSE(fs::exists(name)) << "a refused plan is removed";
  }
  put(good);
  EXPECT_TRUE(find_cached_plan(cache_, s).hit);
  // Another build's plan: a miss (the run then stores its own over it).
  std::string other = good;
  other.replace(other.find("\nbuild ") + 7, 4, "0000");
  put(other);
  CachedPlan found = find_cached_plan(cache_, s);
  EXPECT_FALSE(found.hit);
  EXPECT_FALSE(found.refused);
  EXPECT_NE(found.miss.find("another build"), std::string::npos) << found.miss;
}

TEST_F(RunPlanCache, APlanThatIsALinkOrNotPrivateIsRefusedNeverFollowed) {
  const FileStamp s = stamp();
  ASSERT_EQ(store_cached_plan(cache_, s, "plan\n"), "");
  const std::string name = entry();
  // A link to a good plan elsewhere: refused, the link removed, its target left.
  fs::rename(name, canary_ + "/plan");
  fs::create_symlink(canary_ + "/plan", name);
  CachedPlan found = find_cached_plan(cache_, s);
  EXPECT_FALSE(found.hit);
  EXPECT_TRUE(found.refused);
  EXPECT_FALSE(fs::exists(fs::symlink_status(name)));
  EXPECT_TRUE(fs::exists(canary_ + "/plan"));
  EXPECT_TRUE(canary_untouched());
  // Readable by others: refused.
  ASSERT_EQ(store_cached_plan(cache_, s, "plan\n"), "");
  ::chmod(name.c_str(), 0644);
  EXPECT_FALSE(find_cached_plan(cache_, s).hit);
}

TEST_F(RunPlanCache, KeepsAtMostTheNewestPlans) {
  FileStamp s = stamp();
  for (std::size_t i = 0; i < kMaxCachedPlans + 3; ++i) {
    s.ino = 1000 + i;
    ASSERT_EQ(store_cached_plan(cache_, s, "plan\n"), "");
  }
  std::size_t count = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(cache_.plans)) ++count;
  EXPECT_EQ(count, kMaxCachedPlans);
  EXPECT_TRUE(find_cached_plan(cache_, s).hit);
}

TEST_F(RunPlanCache, ASnapshotLargerThanTheCapIsRefusedUnread) {
  write(snapshot_, std::string(3000, 'x'));
  auto read = read_stamped_file(snapshot_, 2048);
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().code, EFBIG);
  EXPECT_FALSE(read_stamped_file(base_, 2048));  // a folder
}

}  // namespace
}  // namespace hwaccel
