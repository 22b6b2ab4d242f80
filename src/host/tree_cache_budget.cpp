#include "src/host/tree_cache_budget.h"

#include <sys/statvfs.h>

#include <cstdlib>

#include "src/vocabulary/byte_size.h"

namespace hwaccel {

namespace {
constexpr std::uint64_t kDefaultBudget = std::uint64_t{1} << 30;
constexpr std::uint64_t kPage = 4096;
}  // namespace

std::uint64_t tree_footprint(const TreePlan& plan) {
  std::uint64_t total = 0;
  for (const auto& e : plan.entries)
    if (e.kind == PlannedEntry::Kind::file) total += (e.bytes.size() + kPage - 1) / kPage * kPage;
  return total;
}

std::uint64_t tree_cache_budget(const std::string& cache_path, std::string& warning) {
  if (const char* set = std::getenv("HWSIM_TREE_CACHE_SIZE"); set && *set) {
    if (auto bytes = parse_size(set)) return *bytes;
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
