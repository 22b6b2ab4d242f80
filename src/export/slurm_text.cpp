#include "src/export/slurm_text.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "src/export/device_files.h"
#include "src/model/number_text.h"
#include "src/plan/catalogue.h"

namespace hwaccel {

namespace {

// "/dev/nvidia", {0..7} -> "/dev/nvidia[0-7]"; {3} -> "/dev/nvidia3".
std::string range_text(const std::set<long>& n) {
  std::vector<long> v(n.begin(), n.end());
  std::string inner;
  for (std::size_t i = 0; i < v.size();) {
    std::size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    inner += (inner.empty() ? "" : ",") + std::to_string(v[i]);
    if (j > i) inner += "-" + std::to_string(v[j]);
    i = j + 1;
  }
  return inner;
}

std::optional<long> plain_number(const std::string& s) {
  if (s.empty() || (s.size() > 1 && s.front() == '0')) return std::nullopt;
  auto n = parse_integer_in(s, 0, std::numeric_limits<std::int32_t>::max());
  if (!n) return std::nullopt;
  return static_cast<long>(*n);
}

// "AMD Radeon Graphics (Raphael)" -> "raphael", "(Strix Halo)" -> "strix_halo": a
// marketing name without a model number says less than the chip's code name.
std::string code_name(const std::string& name) {
  auto open = name.find('(');
  auto close = name.find(')', open == std::string::npos ? 0 : open);
  if (open == std::string::npos || close == std::string::npos || close - open < 3) return "";
  std::string out;
  for (char c : name.substr(open + 1, close - open - 1)) {
    if (c == ' ' && !out.empty() && out.back() != '_')
      out += '_';
    else if (std::isalpha(static_cast<unsigned char>(c)))
      out += char(std::tolower(static_cast<unsigned char>(c)));
    else
      return "";  // "(2 NeuronCores)", "(TM)"-like marks: not a code name
  }
  return out.size() >= 3 ? out : "";
}

}  // namespace

std::string slurm_type(const Entry& e) {
  const plan::Sku* sku = plan::builtin_catalogue().match(e);
  if (!sku) {
    auto chip = code_name(e.name);
    return chip.empty() ? gres_type(e) : chip;
  }
  std::string id = sku->id;
  if (id.rfind("apple-", 0) == 0) id = id.substr(6);
  // Form factors and memory sizes are not what users ask Slurm for.
  for (const char* suffix : {"-pcie", "-sxm", "-nvl", "-gcd", "-80gb", "-40gb"})
    for (auto at = id.find(suffix); at != std::string::npos; at = id.find(suffix))
      id.erase(at, std::string(suffix).size());
  std::replace(id.begin(), id.end(), '-', '_');
  return id.empty() ? gres_type(e) : id;
}

std::string slurm_cores(const std::string& affinity, std::int64_t cpus) {
  std::set<long> ids;
  std::istringstream in(affinity);
  std::string part;
  while (std::getline(in, part, ',')) {
    auto dash = part.find('-');
    auto lo = plain_number(part.substr(0, dash));
    auto hi = dash == std::string::npos ? lo : plain_number(part.substr(dash + 1));
    // A CPU list from a snapshot is a stranger's: at most 65536 CPUs in all.
    if (!lo || !hi || *hi < *lo || *hi - *lo > 65536 - static_cast<long>(ids.size())) return "";
    for (long i = *lo; i <= *hi; ++i) ids.insert(i);
  }
  if (ids.empty()) return "";
  // Fold second hardware threads onto their cores when every one has its sibling.
  if (cpus > 1 && cpus % 2 == 0) {
    const long half = static_cast<long>(cpus / 2);
    bool siblings = false, all = true;
    for (long i : ids)
      if (i >= half) siblings = true, all = all && ids.count(i - half);
    if (siblings && all) ids.erase(ids.lower_bound(half), ids.end());
  }
  return range_text(ids);
}

std::vector<std::string> slurm_file_ranges(const std::vector<std::string>& files) {
  std::map<std::string, std::set<long>> ranges;
  std::vector<std::string> odd;
  for (const auto& f : files) {
    auto digits = f.find_last_not_of("0123456789");
    std::string prefix = f.substr(0, digits + 1);
    if (auto n = plain_number(f.substr(digits + 1)))
      ranges[prefix].insert(*n);
    else
      odd.push_back(f);
  }
  std::vector<std::string> out;
  for (const auto& [prefix, n] : ranges)
    out.push_back(n.size() == 1 ? prefix + std::to_string(*n.begin())
                                : prefix + "[" + range_text(n) + "]");
  out.insert(out.end(), odd.begin(), odd.end());
  return out;
}

}  // namespace hwaccel
