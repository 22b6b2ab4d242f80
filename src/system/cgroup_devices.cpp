#include "src/system/cgroup_devices.h"

#include <algorithm>

#include "src/system/cgroup_limits.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

constexpr std::size_t kMaxRules = 4096;  // a container's list has a dozen

// "195", "*" -> value, nullopt; false when neither.
bool parse_number_or_star(std::string_view text, std::optional<unsigned>& out) {
  if (text == "*") {
    out.reset();
    return true;
  }
  auto v = parse_u64(text);
  if (!v || *v > 0xfffff) return false;  // majors are 12 bits, minors 20
  out = static_cast<unsigned>(*v);
  return true;
}

bool grants_rw(const DeviceRule& r) {
  return r.access.find('r') != std::string::npos && r.access.find('w') != std::string::npos;
}

}  // namespace

std::vector<DeviceRule> parse_devices_list(std::string_view text, std::size_t* skipped) {
  std::vector<DeviceRule> rules;
  std::size_t bad = 0;
  for (auto line : split_lines(text)) {
    line = trim(line);
    if (line.empty()) continue;
    if (rules.size() >= kMaxRules) {
      ++bad;
      continue;
    }
    auto words = split(line, ' ');
    words.erase(std::remove(words.begin(), words.end(), std::string_view{}), words.end());
    DeviceRule rule;
    bool ok = words.size() == 3 && words[0].size() == 1 &&
              (words[0][0] == 'a' || words[0][0] == 'b' || words[0][0] == 'c');
    if (ok) {
      rule.type = words[0][0];
      auto colon = words[1].find(':');
      ok = colon != std::string_view::npos &&
           parse_number_or_star(words[1].substr(0, colon), rule.major) &&
           parse_number_or_star(words[1].substr(colon + 1), rule.minor) && !words[2].empty() &&
           words[2].size() <= 3 && words[2].find_first_not_of("rwm") == std::string_view::npos;
    }
    if (!ok) {
      ++bad;
      continue;
    }
    rule.access = std::string(words[2]);
    rules.push_back(std::move(rule));
  }
  if (skipped) *skipped = bad;
  return rules;
}

bool char_device_allowed(const std::vector<DeviceRule>& rules, unsigned major, unsigned minor) {
  return std::any_of(rules.begin(), rules.end(), [&](const DeviceRule& r) {
    return (r.type == 'a' || r.type == 'c') && (!r.major || *r.major == major) &&
           (!r.minor || *r.minor == minor) && grants_rw(r);
  });
}

std::optional<std::vector<unsigned>> allowed_char_minors(const std::vector<DeviceRule>& rules,
                                                         unsigned major) {
  std::vector<unsigned> minors;
  for (const auto& r : rules) {
    if ((r.type != 'a' && r.type != 'c') || (r.major && *r.major != major) || !grants_rw(r))
      continue;
    if (!r.minor || !r.major) return std::nullopt;
    minors.push_back(*r.minor);
  }
  std::sort(minors.begin(), minors.end());
  minors.erase(std::unique(minors.begin(), minors.end()), minors.end());
  return minors;
}

DeviceCgroup read_device_cgroup(Host& host) {
  DeviceCgroup out;
  const CgroupFolder at = locate_cgroup_folder(host, "devices");
  out.path = at.path;
  if (at.version == 2) {
    out.version = 2;
    out.note = "cgroup v2 " + at.path +
               ": device access is an eBPF program attached to the cgroup, which no file shows";
    return out;
  }
  if (at.version != 1) return out;
  const std::string file = at.dir == "/" ? "/devices.list" : at.dir + "/devices.list";
  auto text = host.read(file);
  if (!text.ok()) {
    out.note = file + " cannot be read (" + text.error().errno_name() + ")";
    return out;
  }
  std::size_t skipped = 0;
  out.rules = parse_devices_list(*text, &skipped);
  if (out.rules.empty()) {
    out.note =
        file + ": expected lines such as \"c 195:0 rw\", got \"" + printable_line(*text, 40) + "\"";
    return out;
  }
  out.version = 1;
  out.file = file;
  return out;
}

}  // namespace hwaccel
