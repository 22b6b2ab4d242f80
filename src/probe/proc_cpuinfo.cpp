#include "src/probe/proc_cpuinfo.h"

#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

// One pass over the text, no allocation per line or per block: a host with 224
// logical CPUs has a 300 KB /proc/cpuinfo, read once per detection and once per
// host of a simulated fleet. What it keeps: the first value of each key the
// probe reads (the same as the first block that has it, since blocks come in
// order and the first occurrence in a block wins) and, per block, the first CPU
// implementer and part (arm64 lists the kinds of core per processor).
struct Scan {
  std::optional<std::string_view> model_name, vendor_id, flags, features, cpu;
  struct Ids {
    std::optional<std::string_view> implementer, part;
  };
  std::vector<Ids> blocks;  // per block with both arm ids; x86 has none
};

// Blocks are separated by blank lines; a second "processor" key in one block
// also starts a new one, for files that lost their blank lines.
Scan scan_cpuinfo(std::string_view text) {
  Scan scan;
  bool block_open = false, block_has_processor = false;
  Scan::Ids ids;
  auto close_block = [&] {
    if (ids.implementer && ids.part) scan.blocks.push_back(ids);
    ids = {};
    block_open = block_has_processor = false;
  };
  auto keep_first = [](std::optional<std::string_view>& slot, std::string_view value) {
    if (!slot) slot = value;
  };
  bool rest_searched = false;
  std::size_t pos = 0;
  while (pos < text.size()) {
    // Once the first block gave x86's three keys, only a later block with both
    // arm ids could change the answer (the "cpu" and "Features" keys are read
    // only without a model name or flags), and it needs a "CPU implementer"
    // line: where the rest has none, the other blocks (223 on the recorded DGX
    // H100, 446 KB, one pass in twelve of a detection) need not be read.
    if (!rest_searched && scan.model_name && scan.vendor_id && scan.flags && !ids.implementer) {
      rest_searched = true;
      if (text.find("CPU implementer", pos) == std::string_view::npos) break;
    }
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) {
      if (trim(line).empty() && block_open) close_block();
      continue;
    }
    const std::string_view key = trim(line.substr(0, colon));
    if (key.empty()) continue;
    const std::string_view value = trim(line.substr(colon + 1));
    if (key == "processor") {
      if (block_has_processor) close_block();
      block_has_processor = true;
    }
    block_open = true;
    switch (key.front()) {
      case 'm':
        if (key == "model name") keep_first(scan.model_name, value);
        break;
      case 'v':
        if (key == "vendor_id") keep_first(scan.vendor_id, value);
        break;
      case 'f':
        if (key == "flags") keep_first(scan.flags, value);
        break;
      case 'F':
        if (key == "Features") keep_first(scan.features, value);
        break;
      case 'c':
        if (key == "cpu") keep_first(scan.cpu, value);
        break;
      case 'C':
        if (key == "CPU implementer") keep_first(ids.implementer, value);
        if (key == "CPU part") keep_first(ids.part, value);
        break;
      default:
        break;
    }
  }
  if (block_open) close_block();
  return scan;
}

bool has_word(std::string_view list, std::string_view word) {
  std::size_t pos = 0;
  while (pos <= list.size()) {
    std::size_t sp = list.find(' ', pos);
    if (sp == std::string_view::npos) sp = list.size();
    if (trim(list.substr(pos, sp - pos)) == word) return true;
    pos = sp + 1;
  }
  return false;
}

std::string hex(std::uint64_t value, int min_digits) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string digits;
  do {
    digits.insert(digits.begin(), kDigits[value & 0xf]);
    value >>= 4;
  } while (value != 0);
  while (static_cast<int>(digits.size()) < min_digits) digits.insert(digits.begin(), '0');
  return "0x" + digits;
}

std::string x86_vendor(std::string_view vendor_id) {
  if (vendor_id == "GenuineIntel") return "Intel";
  if (vendor_id == "AuthenticAMD") return "AMD";
  if (vendor_id == "HygonGenuine") return "Hygon";
  if (vendor_id == "CentaurHauls") return "Centaur";
  if (vendor_id == "Shanghai") return "Zhaoxin";  // "  Shanghai  ", trimmed
  return printable_line(vendor_id);
}

std::string x86_isa_class(std::string_view flags) {
  if (has_word(flags, "avx512f")) return "avx512";
  if (has_word(flags, "avx2")) return "avx2";
  if (has_word(flags, "sse2")) return "sse2";
  return {};
}

std::string arm_isa_class(std::string_view features) {
  if (has_word(features, "sve2")) return "sve2";
  if (has_word(features, "sve")) return "sve";
  if (has_word(features, "asimd")) return "neon";
  return {};
}

struct CoreKind {
  std::uint64_t implementer = 0;
  std::uint64_t part = 0;
  int count = 0;
};

// The kinds of core, in order of first appearance, with how many of each.
std::vector<CoreKind> arm_core_kinds(const Scan& scan) {
  std::vector<CoreKind> kinds;
  for (const auto& block : scan.blocks) {
    auto implementer_id = parse_hex(*block.implementer);
    auto part_id = parse_hex(*block.part);
    if (!implementer_id || !part_id) continue;
    bool seen = false;
    for (auto& kind : kinds) {
      if (kind.implementer == *implementer_id && kind.part == *part_id) {
        ++kind.count;
        seen = true;
      }
    }
    if (!seen) kinds.push_back({*implementer_id, *part_id, 1});
  }
  return kinds;
}

std::string implementer_label(std::uint64_t implementer) {
  auto name = arm_implementer_name(implementer);
  return name.empty() ? "CPU implementer " + hex(implementer, 2) : name;
}

std::string part_label(const CoreKind& kind) {
  auto name = arm_part_name(kind.implementer, kind.part);
  return name.empty() ? "CPU part " + hex(kind.part, 3) : name;
}

// "Arm Neoverse-V2"; "Arm Cortex-X925 x10 + Cortex-A725 x10" for mixed cores.
std::string arm_name(const std::vector<CoreKind>& kinds) {
  bool one_implementer = true;
  for (const auto& kind : kinds) one_implementer &= kind.implementer == kinds[0].implementer;
  std::string name;
  if (one_implementer) name = implementer_label(kinds[0].implementer) + " ";
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    if (i > 0) name += " + ";
    if (!one_implementer) name += implementer_label(kinds[i].implementer) + " ";
    name += part_label(kinds[i]);
    if (kinds.size() > 1) name += " x" + std::to_string(kinds[i].count);
  }
  return name;
}

// ppc64le: "cpu : POWER9 (raw), altivec supported" -> "POWER9".
std::string power_name(std::string_view cpu) {
  auto name = trim(cpu.substr(0, cpu.find(',')));
  if (auto raw = name.find(" (raw)"); raw != std::string_view::npos) name = name.substr(0, raw);
  return printable_line(name);
}

}  // namespace

std::string arm_implementer_name(std::uint64_t implementer) {
  switch (implementer) {
    case 0x41:
      return "Arm";
    case 0x42:
      return "Broadcom";
    case 0x43:
      return "Cavium";
    case 0x46:
      return "Fujitsu";
    case 0x48:
      return "HiSilicon";
    case 0x4e:
      return "NVIDIA";
    case 0x50:
      return "APM";
    case 0x51:
      return "Qualcomm";
    case 0x61:
      return "Apple";
    case 0x6d:
      return "Microsoft";
    case 0xc0:
      return "Ampere";
    default:
      return {};
  }
}

std::string arm_part_name(std::uint64_t implementer, std::uint64_t part) {
  // Each id checked against arch/arm64/include/asm/cputype.h (linux-next, 2025).
  static const std::map<std::pair<std::uint64_t, std::uint64_t>, std::string_view> kParts = {
      {{0x41, 0xd03}, "Cortex-A53"},       {{0x41, 0xd04}, "Cortex-A35"},
      {{0x41, 0xd05}, "Cortex-A55"},       {{0x41, 0xd07}, "Cortex-A57"},
      {{0x41, 0xd08}, "Cortex-A72"},       {{0x41, 0xd09}, "Cortex-A73"},
      {{0x41, 0xd0a}, "Cortex-A75"},       {{0x41, 0xd0b}, "Cortex-A76"},
      {{0x41, 0xd0c}, "Neoverse-N1"},      {{0x41, 0xd0d}, "Cortex-A77"},
      {{0x41, 0xd40}, "Neoverse-V1"},      {{0x41, 0xd41}, "Cortex-A78"},
      {{0x41, 0xd42}, "Cortex-A78AE"},     {{0x41, 0xd44}, "Cortex-X1"},
      {{0x41, 0xd46}, "Cortex-A510"},      {{0x41, 0xd47}, "Cortex-A710"},
      {{0x41, 0xd48}, "Cortex-X2"},        {{0x41, 0xd49}, "Neoverse-N2"},
      {{0x41, 0xd4b}, "Cortex-A78C"},      {{0x41, 0xd4c}, "Cortex-X1C"},
      {{0x41, 0xd4d}, "Cortex-A715"},      {{0x41, 0xd4e}, "Cortex-X3"},
      {{0x41, 0xd4f}, "Neoverse-V2"},      {{0x41, 0xd80}, "Cortex-A520"},
      {{0x41, 0xd81}, "Cortex-A720"},      {{0x41, 0xd82}, "Cortex-X4"},
      {{0x41, 0xd84}, "Neoverse-V3"},      {{0x41, 0xd85}, "Cortex-X925"},
      {{0x41, 0xd87}, "Cortex-A725"},      {{0x41, 0xd8e}, "Neoverse-N3"},
      {{0x43, 0x0af}, "ThunderX2"},        {{0x46, 0x001}, "A64FX"},
      {{0x48, 0xd01}, "TSV110"},           {{0x4e, 0x003}, "Denver"},
      {{0x4e, 0x004}, "Carmel"},           {{0x51, 0x001}, "Oryon"},
      {{0x61, 0x022}, "M1 Icestorm"},      {{0x61, 0x023}, "M1 Firestorm"},
      {{0x61, 0x024}, "M1 Pro Icestorm"},  {{0x61, 0x025}, "M1 Pro Firestorm"},
      {{0x61, 0x028}, "M1 Max Icestorm"},  {{0x61, 0x029}, "M1 Max Firestorm"},
      {{0x61, 0x032}, "M2 Blizzard"},      {{0x61, 0x033}, "M2 Avalanche"},
      {{0x61, 0x034}, "M2 Pro Blizzard"},  {{0x61, 0x035}, "M2 Pro Avalanche"},
      {{0x61, 0x038}, "M2 Max Blizzard"},  {{0x61, 0x039}, "M2 Max Avalanche"},
      {{0x6d, 0xd49}, "Azure Cobalt 100"}, {{0xc0, 0xac3}, "AmpereOne"},
  };
  auto it = kParts.find({implementer, part});
  return it == kParts.end() ? std::string() : std::string(it->second);
}

CpuInfo parse_proc_cpuinfo(std::string_view text) {
  const Scan scan = scan_cpuinfo(text);
  CpuInfo info;

  if (auto kinds = arm_core_kinds(scan); !kinds.empty()) {
    info.name = arm_name(kinds);
    info.vendor = implementer_label(kinds[0].implementer);
  } else if (scan.model_name) {
    info.name = printable_line(*scan.model_name);
  } else if (scan.cpu) {
    info.name = power_name(*scan.cpu);
    if (info.name.rfind("POWER", 0) == 0) info.vendor = "IBM";
  }

  if (scan.vendor_id) info.vendor = x86_vendor(*scan.vendor_id);
  if (scan.flags)
    info.isa_class = x86_isa_class(*scan.flags);
  else if (scan.features)
    info.isa_class = arm_isa_class(*scan.features);
  return info;
}

}  // namespace hwaccel
