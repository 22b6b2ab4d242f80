// Eviction in `hwsim run`'s tree cache with shared layers (src/host/tree_cache_evict.h):
// a layer counted once, kept while a kept tree uses it, and a tree never kept
// without its layer; held entries stay.
#include "src/host/tree_cache_evict.h"

#include <gtest/gtest.h>

#include <set>

namespace hwaccel {
namespace {

std::string key(char c) {
  return std::string(64, c);
}

SealedEntry tree(char c, long long used, std::uint64_t bytes,
                 std::vector<std::string> layers = {}) {
  return {key(c), used, true, bytes, std::move(layers)};
}

// The keys removed, all removals succeeding but those of `held`.
std::set<std::string> evicted(const std::vector<SealedEntry>& entries, std::uint64_t budget,
                              const std::set<std::string>& held = {}) {
  std::set<std::string> out;
  choose_evictions(entries, budget, [&](const SealedEntry& e) {
    if (held.contains(e.key)) return false;
    out.insert(e.key);
    return true;
  });
  return out;
}

TEST(TreeCacheEvict, ALayerIsCountedOnceForAllTheTreesThatUseIt) {
  // Layer L (90) used by trees a, b, c (10 each): 120 in all, within 120.
  const std::vector<SealedEntry> entries = {tree('l', 50, 90), tree('a', 40, 10, {key('l')}),
                                            tree('b', 30, 10, {key('l')}),
                                            tree('c', 20, 10, {key('l')})};
  EXPECT_TRUE(evicted(entries, 120).empty());
  // 110: the least recently used tree goes, the layer stays with the others.
  EXPECT_EQ(evicted(entries, 110), std::set<std::string>{key('c')});
}

TEST(TreeCacheEvict, ATreeIsNeverKeptWithoutItsLayer) {
  // The layer was used last but does not fit beside the newest tree: it goes, and
  // so does the older tree that needs it, though that tree alone would fit.
  const std::vector<SealedEntry> entries = {tree('n', 60, 50), tree('l', 50, 90),
                                            tree('a', 40, 10, {key('l')})};
  EXPECT_EQ(evicted(entries, 100), (std::set<std::string>{key('l'), key('a')}));
  // A tree whose layer is missing goes however small.
  EXPECT_EQ(evicted({tree('n', 60, 5), tree('a', 40, 1, {key('z')})}, 1000),
            std::set<std::string>{key('a')});
}

TEST(TreeCacheEvict, TheNewestTreeAndItsLayerStayAndHeldOnesAreCounted) {
  // Just stored: the tree (newest) with its layer, over budget: both stay, the rest goes.
  const std::vector<SealedEntry> entries = {tree('t', 90, 20, {key('l')}), tree('l', 80, 500),
                                            tree('o', 70, 1)};
  EXPECT_EQ(evicted(entries, 100), std::set<std::string>{key('o')});
  // A layer no tree uses any more stays while it fits (a variant may come back).
  EXPECT_TRUE(evicted({tree('n', 60, 5), tree('l', 50, 90)}, 100).empty());
  // Held by a run: kept and counted, so an older one goes instead.
  EXPECT_EQ(evicted({tree('n', 60, 50), tree('h', 50, 50), tree('o', 40, 10)}, 100, {key('h')}),
            std::set<std::string>{key('o')});
  // An entry whose seal does not say its bytes goes (another version's).
  SealedEntry unknown = tree('u', 50, 0);
  unknown.known = false;
  EXPECT_EQ(evicted({tree('n', 60, 5), unknown}, 1000), std::set<std::string>{key('u')});
}

TEST(TreeCacheEvict, ASealHeadGivesBytesAndLayers) {
  SealedEntry e;
  EXPECT_TRUE(parse_seal_head("hwsim-tree-cache 2\nkey k\nbytes 8192\nlayer " + key('a') +
                                  " /sys/devices/system/cpu\ntree 1 2\nlayer " + key('b') + " x\n",
                              e));
  EXPECT_EQ(e.bytes, 8192u);
  EXPECT_EQ(e.layers, std::vector<std::string>{key('a')}) << "the head ends at the stamps";
  SealedEntry bad;
  EXPECT_FALSE(parse_seal_head("bytes 1\nlayer ../../etc /x\n", bad));
  SealedEntry none;
  EXPECT_TRUE(parse_seal_head("hwsim-tree-cache 1\nkey k\n", none));
  EXPECT_FALSE(none.known) << "another version's seal";
  SealedEntry not_a_number;
  EXPECT_FALSE(parse_seal_head("bytes 12x\n", not_a_number));
}

}  // namespace
}  // namespace hwaccel
