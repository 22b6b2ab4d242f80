#include "src/probe/nvidia_smi_mig.h"

#include <cmath>

#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

constexpr std::size_t kMaxRows = 4096;  // 8 GPUs x 7 instances, with room

std::vector<std::string_view> words_of(std::string_view text) {
  std::vector<std::string_view> words;
  std::size_t at = 0;
  while (at < text.size()) {
    while (at < text.size() && (text[at] == ' ' || text[at] == '\t')) ++at;
    std::size_t end = at;
    while (end < text.size() && text[end] != ' ' && text[end] != '\t') ++end;
    if (end > at) words.push_back(text.substr(at, end - at));
    at = end;
  }
  return words;
}

std::optional<int> small_int(std::string_view text) {
  auto v = parse_u64(text);
  if (!v || *v > 100000) return std::nullopt;
  return static_cast<int>(*v);
}

std::optional<int> int_at(const std::vector<std::string_view>& w, std::size_t i) {
  if (i >= w.size()) return std::nullopt;
  return small_int(w[i]);
}

// The cells of a table row "| a | b |"; empty when the line is not a row.
std::vector<std::string_view> cells_of(std::string_view line) {
  line = trim(line);
  if (line.size() < 2 || line.front() != '|' || line.back() != '|') return {};
  return split(line.substr(1, line.size() - 2), '|');
}

// "26MiB", "40448MiB", "1GiB" -> bytes.
std::optional<std::uint64_t> size_of(std::string_view text) {
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  auto n = parse_u64(text.substr(0, digits));
  if (!n) return std::nullopt;
  const auto unit = text.substr(digits);
  std::uint64_t scale = unit == "MiB" ? (1ull << 20) : unit == "GiB" ? (1ull << 30) : 0;
  if (scale == 0) return std::nullopt;
  return checked_multiply(*n, scale);
}

// "9.75" GiB -> bytes, to the MiB; nullopt past 64 TiB or for anything else.
std::optional<std::uint64_t> gib_of(std::string_view text) {
  auto dot = text.find('.');
  auto whole = parse_u64(text.substr(0, dot));
  if (!whole || *whole > 65536) return std::nullopt;
  std::uint64_t hundredths = 0;
  if (dot != std::string_view::npos) {
    auto frac = text.substr(dot + 1);
    if (frac.empty() || frac.size() > 2) return std::nullopt;
    auto f = parse_u64(frac);
    if (!f) return std::nullopt;
    hundredths = frac.size() == 1 ? *f * 10 : *f;
  }
  const double mib = std::round((double(*whole) + double(hundredths) / 100.0) * 1024.0);
  return std::uint64_t(mib) << 20;
}

// "MIG 1g.10gb" at words[1..2]: the profile name, "" when not.
std::string profile_at(const std::vector<std::string_view>& w, std::size_t i) {
  if (w.size() <= i + 1 || w[i] != "MIG") return "";
  return printable_line(w[i + 1], 40);
}

// "0 2 0 0" and "26MiB / 40448MiB": a device row, or nullopt.
std::optional<MigTableDevice> table_row(const std::vector<std::string_view>& ids,
                                        const std::vector<std::string_view>& usage) {
  if (ids.size() != 4 || usage.size() != 3 || usage[1] != "/") return std::nullopt;
  MigTableDevice d;
  int* fields[] = {&d.gpu, &d.gpu_instance, &d.compute_instance, &d.device};
  for (std::size_t i = 0; i < 4; ++i) {
    auto v = small_int(ids[i]);
    if (!v) return std::nullopt;
    *fields[i] = *v;
  }
  auto used = size_of(usage[0]);
  auto total = size_of(usage[2]);
  if (!used || !total || *used > *total) return std::nullopt;
  d.used_bytes = *used;
  d.total_bytes = *total;
  return d;
}

}  // namespace

MigTable parse_nvidia_smi_table_mig(std::string_view text) {
  MigTable out;
  bool in_block = false, in_rows = false;
  for (auto line : split_lines(text)) {
    const auto t = trim(line);
    if (!in_block) {
      if (t.find("MIG devices:") != std::string_view::npos) in_block = out.has_block = true;
      continue;
    }
    if (t.empty() || t.find("Processes:") != std::string_view::npos) break;
    if (t.rfind("|==", 0) == 0) {
      in_rows = true;
      continue;
    }
    if (!in_rows) continue;
    auto cells = cells_of(t);
    if (cells.size() < 2) continue;  // a "+----+" rule
    auto ids = words_of(cells[0]);
    if (ids.empty()) continue;  // the BAR1 line under a device
    if (out.devices.size() >= kMaxRows) break;
    auto d = table_row(ids, words_of(cells[1]));
    if (!d) {
      out.problems.push_back("MIG devices row not read: \"" + printable_line(t, 80) + "\"");
      continue;
    }
    out.devices.push_back(*d);
  }
  return out;
}

MigListing parse_nvidia_smi_mig_lgip(std::string_view text) {
  MigListing out;
  for (auto line : split_lines(text)) {
    auto cells = cells_of(line);
    if (cells.size() != 1) continue;
    auto w = words_of(cells[0]);
    const std::string name = profile_at(w, 1);
    if (name.empty()) continue;  // headers, and each profile's second line
    if (out.profiles.size() >= kMaxRows) break;
    MigProfile p;
    auto gpu = small_int(w[0]);
    auto id = int_at(w, 3);
    std::optional<int> free, total;
    if (w.size() > 4)
      if (auto slash = w[4].find('/'); slash != std::string_view::npos) {
        free = small_int(w[4].substr(0, slash));
        total = small_int(w[4].substr(slash + 1));
      }
    std::optional<std::uint64_t> memory;
    if (w.size() > 5) memory = gib_of(w[5]);
    if (!gpu || !id || !free || !total || !memory) {
      out.problems.push_back("profile row not read: \"" + printable_line(trim(line), 80) + "\"");
      continue;
    }
    p.gpu = *gpu;
    p.name = name;
    p.id = *id;
    p.free_instances = *free;
    p.total_instances = *total;
    p.memory_bytes = *memory;
    p.memory_text = std::string(w[5]);
    out.profiles.push_back(std::move(p));
  }
  return out;
}

MigListing parse_nvidia_smi_mig_lgi(std::string_view text) {
  MigListing out;
  for (auto line : split_lines(text)) {
    auto cells = cells_of(line);
    if (cells.size() != 1) continue;
    auto w = words_of(cells[0]);
    const std::string name = profile_at(w, 1);
    if (name.empty()) continue;
    if (out.instances.size() >= kMaxRows) break;
    auto gpu = small_int(w[0]);
    auto profile_id = int_at(w, 3);
    auto instance = int_at(w, 4);
    if (!gpu || !profile_id || !instance) {
      out.problems.push_back("instance row not read: \"" + printable_line(trim(line), 80) + "\"");
      continue;
    }
    MigGpuInstance gi;
    gi.gpu = *gpu;
    gi.profile = name;
    gi.profile_id = *profile_id;
    gi.instance = *instance;
    if (w.size() > 5) gi.placement = printable_line(w[5], 16);
    out.instances.push_back(std::move(gi));
  }
  return out;
}

}  // namespace hwaccel
