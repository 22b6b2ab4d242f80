#include "src/host/cpuinfo_keys.h"

#include "src/vocabulary/text_util.h"

namespace hwaccel {

std::vector<CpuinfoKey> find_cpuinfo_keys(std::string_view text) {
  std::vector<CpuinfoKey> keys;
  for (std::size_t pos = 0; auto line = next_line(text, pos);) {
    const std::string_view rest = trim(*line);
    if (rest.empty()) {
      keys.push_back({CpuinfoKey::Kind::blank, {}});
      continue;
    }
    // The three keys start with 'p' or 'c' (after the line's blanks): the
    // other twenty-odd lines of each CPU are not split.
    if (rest.front() != 'p' && rest.front() != 'c') continue;
    const auto colon = line->find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view key = trim(line->substr(0, colon));
    const std::string_view value = line->substr(colon + 1);
    if (key == "processor") keys.push_back({CpuinfoKey::Kind::processor, value});
    if (key == "physical id") keys.push_back({CpuinfoKey::Kind::package, value});
    if (key == "core id") keys.push_back({CpuinfoKey::Kind::core, value});
  }
  return keys;
}

const std::vector<CpuinfoKey>* CpuinfoKeys::get() {
  if (!read_) {
    read_ = true;
    text_ = tree_.read("/proc/cpuinfo");
    // Found after the text is in place: the views point into it.
    if (text_) keys_ = find_cpuinfo_keys(text_->view());
  }
  return text_ ? &keys_ : nullptr;
}

}  // namespace hwaccel
