#include "src/host/tree_facts.h"

#include <algorithm>
#include <charconv>
#include <set>

#include "src/host/cpuinfo_keys.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

constexpr const char* kCpuDir = "/sys/devices/system/cpu";

// The value of the first "key<blanks>: value" line.
std::optional<std::string> field(std::string_view text, std::string_view key) {
  for (auto line : split_lines(text)) {
    auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    if (trim(line.substr(0, colon)) == key) return std::string(trim(line.substr(colon + 1)));
  }
  return std::nullopt;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// The leading decimal number of `s` ("7", "8 (AArch64)"), nullopt when none.
std::optional<int> leading_int(std::string_view s) {
  int v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p == s.data()) return std::nullopt;
  return v;
}

std::string arm_arch(std::string_view cpuinfo, std::string& why) {
  // A 32-bit kernel names the core "ARMv7 Processor rev 1 (v7l)" (model name, or
  // Processor on old kernels): the suffix is its uname -m.
  for (const char* key : {"model name", "Processor"}) {
    auto name = field(cpuinfo, key);
    if (!name) continue;
    auto open = name->rfind("(v");
    if (open != std::string::npos && name->back() == ')' && name->size() - open <= 8) {
      why = std::string("/proc/cpuinfo ") + key + " \"" + *name + "\"";
      return "arm" + name->substr(open + 1, name->size() - open - 2);
    }
  }
  auto version = field(cpuinfo, "CPU architecture");
  auto n = version ? leading_int(*version) : std::nullopt;
  if (n && *n < 8) {
    why = "/proc/cpuinfo CPU architecture: " + *version;
    return "armv" + std::to_string(*n) + "l";
  }
  why = version ? "/proc/cpuinfo CPU architecture: " + *version : "/proc/cpuinfo CPU implementer";
  return "aarch64";
}

}  // namespace

NofileInfo parse_hwloc_nofile_info(std::string_view text) {
  NofileInfo info;
  auto printable = [](std::string_view v) {
    // A name that could be printed as is: no control bytes, bounded.
    std::string out = printable_line(v, 256);
    return out == std::string(v) ? out : std::string();
  };
  for (auto line : split_lines(text)) {
    auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view key = trim(line.substr(0, colon));
    std::string_view value = trim(line.substr(colon + 1));
    if (key == "Architecture" && info.architecture.empty()) info.architecture = printable(value);
    if (key == "OSRelease" && info.os_release.empty()) info.os_release = printable(value);
    if (key == "HostName" && info.hostname.empty()) info.hostname = printable(value);
    if (key == "PageSize" && !info.page_size) {
      auto v = parse_u64(value);
      if (v && *v >= 1024 && *v <= (std::uint64_t{1} << 30) && (*v & (*v - 1)) == 0)
        info.page_size = static_cast<std::int64_t>(*v);
    }
    if (key == "FallbackNbProcessors" && !info.processors) {
      auto v = parse_u64(value);
      if (v && *v >= 1 && *v <= (1u << 20)) info.processors = static_cast<std::int64_t>(*v);
    }
  }
  return info;
}

std::string arch_from_cpuinfo(std::string_view cpuinfo, std::string_view meminfo,
                              std::string& why) {
  if (auto arch = field(cpuinfo, "arch"); arch && *arch == "IA-64") {
    why = "/proc/cpuinfo arch: IA-64";
    return "ia64";
  }
  if (field(cpuinfo, "CPU implementer") || field(cpuinfo, "CPU architecture"))
    return arm_arch(cpuinfo, why);
  if (auto flags = field(cpuinfo, "flags")) {
    std::string padded = " " + *flags + " ";
    if (padded.find(" lm ") == std::string::npos) {
      why = "/proc/cpuinfo flags without lm";
      return "i686";
    }
    // A 64-bit kernel has no high memory: HighTotal above 0 is a 32-bit kernel
    // on a CPU that could run a 64-bit one.
    auto high = field(meminfo, "HighTotal");
    auto kib = high ? parse_u64(high->substr(0, high->find(' '))) : std::nullopt;
    if (kib && *kib > 0) {
      why = "/proc/cpuinfo flags with lm, but /proc/meminfo HighTotal " + *high +
            " (a 32-bit kernel)";
      return "i686";
    }
    why = "/proc/cpuinfo flags with lm";
    return "x86_64";
  }
  if (auto cpu = field(cpuinfo, "cpu");
      cpu && (starts_with(*cpu, "Cell Broadband Engine") || starts_with(*cpu, "PA6T") ||
              starts_with(*cpu, "RS64"))) {
    // 64-bit PowerPC cores that Linux runs big-endian only: the PlayStation 3's
    // Cell ("Cell Broadband Engine, altivec supported"), PA Semi's PA6T, IBM's
    // RS64. hwloc-nofile-info says only the family, "ppc".
    why = "/proc/cpuinfo cpu: " + cpu->substr(0, cpu->find(','));
    return "ppc64";
  }
  if (auto cpu = field(cpuinfo, "cpu");
      cpu && (starts_with(*cpu, "POWER") || starts_with(*cpu, "PPC"))) {
    // Little-endian Linux starts with POWER8; anything older is big-endian ppc64.
    auto generation = starts_with(*cpu, "POWER") ? leading_int(std::string_view(*cpu).substr(5))
                                                 : std::optional<int>(0);
    why = "/proc/cpuinfo cpu: " + cpu->substr(0, cpu->find(' '));
    if (generation && *generation < 8) return "ppc64";
    why += " (little-endian assumed from POWER8 on)";
    return "ppc64le";
  }
  if (auto isa = field(cpuinfo, "isa")) {
    why = "/proc/cpuinfo isa: " + *isa;
    if (starts_with(*isa, "rv64")) return "riscv64";
    if (starts_with(*isa, "rv32")) return "riscv32";
  }
  if (auto vendor = field(cpuinfo, "vendor_id"); vendor && starts_with(*vendor, "IBM/S390")) {
    auto features = field(cpuinfo, "features").value_or("");
    why = "/proc/cpuinfo vendor_id: " + *vendor;
    return (" " + features + " ").find(" zarch ") != std::string::npos ? "s390x" : "s390";
  }
  why.clear();
  return "";
}

std::string arch_from_sysfs(const TreeFiles& tree, std::string& why) {
  // Only ia64's cache code (arch/ia64/kernel/topology.c) has an `attributes`
  // file in each cache folder ("WriteBack", "WriteThrough"); the common
  // cacheinfo of every other architecture names it write_policy.
  const std::string file = std::string(kCpuDir) + "/cpu0/cache/index0/attributes";
  if (auto text = tree.read(file);
      text && (trim(*text) == "WriteBack" || trim(*text) == "WriteThrough")) {
    why = file + " (only ia64 kernels write it)";
    return "ia64";
  }
  why.clear();
  return "";
}

std::optional<std::vector<int>> parse_cpu_list(std::string_view text, int limit) {
  std::string_view list = trim(text);
  std::vector<int> cpus;
  if (list.empty()) return cpus;  // an empty cpuset: no CPU
  for (auto range : split(list, ',')) {
    auto dash = range.find('-');
    auto parse = [](std::string_view s) -> std::optional<int> {
      int v = 0;
      auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
      if (ec != std::errc() || p != s.data() + s.size() || v < 0) return std::nullopt;
      return v;
    };
    auto first = parse(dash == std::string_view::npos ? range : range.substr(0, dash));
    auto last = dash == std::string_view::npos ? first : parse(range.substr(dash + 1));
    if (!first || !last || *last < *first || *last >= limit) return std::nullopt;
    if (cpus.size() + static_cast<std::size_t>(*last - *first + 1) >
        static_cast<std::size_t>(limit))
      return std::nullopt;  // overlapping ranges repeated past any machine
    for (int c = *first; c <= *last; ++c) cpus.push_back(c);
  }
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  return cpus;
}

std::vector<int> online_cpus(const TreeFiles& tree, std::string& source, CpuinfoKeys* cpuinfo) {
  const std::string online_path = std::string(kCpuDir) + "/online";
  if (auto online = tree.read(online_path)) {
    if (auto cpus = parse_cpu_list(*online); cpus && !cpus->empty()) {
      source = online_path;
      return *cpus;
    }
  }
  std::vector<int> cpus;
  for (const auto& name : tree.list(kCpuDir)) {
    if (name.size() < 4 || !starts_with(name, "cpu")) continue;
    auto id = parse_u64(std::string_view(name).substr(3));
    if (!id || *id >= 65536 || std::to_string(*id) != name.substr(3)) continue;
    // cpu0 usually has no online file (it cannot be taken offline): online.
    auto flag = tree.read(std::string(kCpuDir) + "/" + name + "/online");
    if (flag && trim(*flag) == "0") continue;
    cpus.push_back(static_cast<int>(*id));
  }
  if (!cpus.empty()) {
    std::sort(cpus.begin(), cpus.end());
    source = std::string(kCpuDir) + "/cpuN folders (no online list)";
    return cpus;
  }
  std::optional<CpuinfoKeys> own;
  if (!cpuinfo) cpuinfo = &own.emplace(tree);
  if (const auto* keys = cpuinfo->get()) {
    std::set<int> ids;
    for (const CpuinfoKey& key : *keys) {
      if (key.kind != CpuinfoKey::Kind::processor) continue;
      auto id = parse_u64(trim(key.value));
      if (id && *id < 65536) ids.insert(static_cast<int>(*id));
    }
    if (!ids.empty()) {
      source = "/proc/cpuinfo processor lines";
      return {ids.begin(), ids.end()};
    }
  }
  source.clear();
  return {};
}

Facts facts_from_tree(const TreeFiles& tree, std::vector<std::string>& notes) {
  Facts facts;
  auto nofile_text = tree.read("/proc/hwloc-nofile-info");
  NofileInfo nofile = nofile_text ? parse_hwloc_nofile_info(*nofile_text) : NofileInfo{};
  auto cpuinfo = tree.read("/proc/cpuinfo");
  facts.os = "linux";

  std::string source;
  auto cpus = online_cpus(tree, source);
  facts.cpus = static_cast<std::int64_t>(cpus.size());
  if (!cpus.empty() && source != std::string(kCpuDir) + "/online")
    notes.push_back("facts.cpus: " + std::to_string(facts.cpus) + " counted from " + source);
  if (cpus.empty() && nofile.processors) {
    facts.cpus = nofile.processors;
    notes.push_back("facts.cpus: from /proc/hwloc-nofile-info FallbackNbProcessors");
  }
  if (facts.cpus == 0) notes.push_back("facts.cpus: unknown (no cpu list, no /proc/cpuinfo)");

  std::string why;
  std::string guessed =
      cpuinfo ? arch_from_cpuinfo(*cpuinfo, tree.read("/proc/meminfo").value_or(FileText()), why)
              : "";
  facts.arch = nofile.architecture;
  // Hand-written nofile-info files name only the family ("arm", "ppc"): the
  // CPU's own fields then tell the member (armv7l, ppc64).
  if (!facts.arch.empty() && !guessed.empty() && guessed != facts.arch &&
      starts_with(guessed, facts.arch) && (facts.arch == "arm" || facts.arch == "ppc")) {
    notes.push_back("facts.arch: " + guessed + " (hwloc-nofile-info says \"" + facts.arch + "\"; " +
                    why + ")");
    facts.arch = guessed;
  }
  if (facts.arch.empty()) facts.arch = guessed;
  if (facts.arch.empty() && !cpuinfo) {
    // No /proc at all (some gathers kept only /sys): what /sys alone tells.
    facts.arch = arch_from_sysfs(tree, why);
    if (!facts.arch.empty()) notes.push_back("facts.arch: " + facts.arch + " from " + why);
  }
  if (facts.arch.empty()) notes.push_back("facts.arch: unknown (give --arch)");

  if (auto release = tree.read("/proc/sys/kernel/osrelease")) {
    facts.kernel = std::string(trim(*release));
  } else if (auto version = tree.read("/proc/version")) {
    // "Linux version 6.8.0-45-generic (buildd@...) ..."
    std::string_view line = split_lines(*version).empty() ? "" : split_lines(*version).front();
    constexpr std::string_view prefix = "Linux version ";
    if (starts_with(line, prefix)) {
      line.remove_prefix(prefix.size());
      facts.kernel = std::string(line.substr(0, line.find(' ')));
    }
  }
  if (facts.kernel.empty()) facts.kernel = nofile.os_release;
  if (facts.kernel.empty()) notes.push_back("facts.kernel: unknown (give --kernel)");

  if (auto hostname = tree.read("/proc/sys/kernel/hostname"))
    facts.hostname = std::string(trim(*hostname));
  if (facts.hostname.empty()) facts.hostname = nofile.hostname;
  facts.page_size = nofile.page_size;
  return facts;
}

TreeFiles tree_files_of(Host& host) {
  TreeFiles files;
  files.read = [&host](const std::string& path) -> std::optional<FileText> {
    auto text = host.read_text(path);
    if (!text.ok()) return std::nullopt;
    return std::move(text).value();
  };
  files.list = [&host](const std::string& dir) {
    auto names = host.list(dir);
    return names.ok() ? *names : std::vector<std::string>{};
  };
  return files;
}

}  // namespace hwaccel
