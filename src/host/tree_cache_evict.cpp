#include "src/host/tree_cache_evict.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <map>
#include <set>

namespace hwaccel {
namespace {

bool is_key(std::string_view s) {
  return s.size() == 64 && std::all_of(s.begin(), s.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

}  // namespace

bool parse_seal_head(std::string_view text, SealedEntry& entry) {
  bool bytes_seen = false;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) break;  // a line cut short is not read
    const std::string_view line = text.substr(at, end - at);
    at = end + 1;
    if (line.rfind("bytes ", 0) == 0) {
      const std::string digits(line.substr(6));
      if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
        return false;
      char* stop = nullptr;
      errno = 0;
      const unsigned long long v = std::strtoull(digits.c_str(), &stop, 10);
      if (errno != 0) return false;
      entry.bytes = v;
      bytes_seen = true;
    } else if (line.rfind("layer ", 0) == 0) {
      const std::string_view key = line.substr(6, 64);
      if (!is_key(key)) return false;
      entry.layers.emplace_back(key);
    } else if (line.rfind("tree ", 0) == 0) {
      break;  // the head ends where the entry's stamps begin
    }
  }
  entry.known = bytes_seen;
  return true;
}

void choose_evictions(std::vector<SealedEntry> entries, std::uint64_t budget,
                      const std::function<bool(const SealedEntry&)>& remove) {
  std::sort(entries.begin(), entries.end(), [](const SealedEntry& a, const SealedEntry& b) {
    return a.used != b.used ? a.used > b.used : a.key > b.key;
  });
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < entries.size(); ++i) index.emplace(entries[i].key, i);
  std::set<std::string> kept, gone;
  std::uint64_t total = 0;
  auto bytes_of = [&](const std::string& key) { return entries[index.at(key)].bytes; };
  auto keep = [&](const SealedEntry& e) {
    if (kept.insert(e.key).second) total += e.bytes;
    for (const auto& layer : e.layers)
      if (index.contains(layer) && !gone.contains(layer) && kept.insert(layer).second)
        total += bytes_of(layer);
  };
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const SealedEntry& e = entries[i];
    if (kept.contains(e.key)) continue;  // a layer of a newer tree, counted with it
    bool layer_gone = false;
    std::uint64_t cost = e.bytes;
    for (const auto& layer : e.layers) {
      if (!index.contains(layer) || gone.contains(layer))
        layer_gone = true;
      else if (!kept.contains(layer))
        cost += bytes_of(layer);
    }
    if (i == 0 || (!layer_gone && e.known && total + cost <= budget)) {
      keep(e);
    } else if (remove(e)) {
      gone.insert(e.key);
    } else {
      keep(e);
    }
  }
}

}  // namespace hwaccel
