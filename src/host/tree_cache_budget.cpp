#include "src/host/tree_cache_budget.h"

#include <sys/statvfs.h>

#include <cstdlib>

namespace hwaccel {

namespace {
constexpr std::uint64_t kDefaultBudget = std::uint64_t{1} << 30;
constexpr std::uint64_t kPage = 4096;
}  // namespace

bool parse_size(const std::string& text, std::uint64_t& bytes) {
  std::size_t i = 0;
  std::uint64_t value = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
    if (value > (std::uint64_t{1} << 62) / 10) return false;
    value = value * 10 + static_cast<std::uint64_t>(text[i] - '0');
    ++i;
  }
  if (i == 0) return false;
  int shift = 0;
  if (i < text.size()) {
    switch (text[i]) {
      case 'K':
      case 'k':
        shift = 10;
        break;
      case 'M':
      case 'm':
        shift = 20;
        break;
      case 'G':
      case 'g':
        shift = 30;
        break;
      case 'T':
      case 't':
        shift = 40;
        break;
      default:
        return false;
    }
    ++i;
    if (i < text.size() && (text[i] == 'B' || text[i] == 'b')) ++i;  // "512MB"
  }
  if (i != text.size()) return false;
  if (shift && value > ((std::uint64_t{1} << 63) >> shift)) return false;
  bytes = value << shift;
  return true;
}

std::uint64_t tree_footprint(const TreePlan& plan) {
  std::uint64_t total = 0;
  for (const auto& e : plan.entries)
    if (e.kind == PlannedEntry::Kind::file) total += (e.bytes.size() + kPage - 1) / kPage * kPage;
  return total;
}

std::uint64_t tree_cache_budget(const std::string& cache_path, std::string& warning) {
  if (const char* set = std::getenv("HWSIM_TREE_CACHE_SIZE"); set && *set) {
    std::uint64_t bytes = 0;
    if (parse_size(set, bytes)) return bytes;
    warning = "HWSIM_TREE_CACHE_SIZE=" + std::string(set).substr(0, 40) +
              " is not a size (bytes, or with K, M, G or T): the default is used";
  }
  std::uint64_t budget = kDefaultBudget;
  struct statvfs fs {};
  if (::statvfs(cache_path.c_str(), &fs) == 0) {
    const std::uint64_t left = static_cast<std::uint64_t>(fs.f_bavail) * fs.f_frsize;
    if (left / 2 < budget) budget = left / 2;
  }
  return budget;
}

}  // namespace hwaccel
