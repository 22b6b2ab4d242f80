#include "src/probe/qaic_util.h"

#include <algorithm>

#include "src/probe/nvidia_smi_csv.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {

std::optional<std::uint64_t> parse_qaic_size(std::string_view text) {
  text = trim(text);
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  auto number = parse_u64(text.substr(0, digits));
  if (!number) return std::nullopt;
  const std::string unit = to_lower(trim(text.substr(digits)));
  std::uint64_t scale = 0;
  if (unit == "kb")
    scale = 1ull << 10;
  else if (unit == "mb")
    scale = 1ull << 20;
  else if (unit == "gb")
    scale = 1ull << 30;
  else
    return std::nullopt;
  return checked_multiply(*number, scale);
}

QaicUtilOutput parse_qaic_util(std::string_view text) {
  QaicUtilOutput out;
  QaicDevice* current = nullptr;
  // qaic-util lists each QID once: a QID seen again is the output repeating
  // itself (a flood cut at the host's limit ends in a half block), and the
  // first, whole listing is the one kept.
  std::size_t repeated = 0;
  for (auto raw : split_lines(text)) {
    auto line = trim(raw);
    if (line.empty()) continue;
    if (line.size() > 4 && to_lower(line.substr(0, 4)) == "qid ") {
      auto qid = parse_u64(trim(line.substr(4)));
      if (!qid || *qid > 4095) {
        out.problems.push_back("\"" + printable_line(line, 40) + "\" is not a device number");
        current = nullptr;
        continue;
      }
      if (std::any_of(out.devices.begin(), out.devices.end(),
                      [&](const QaicDevice& d) { return d.qid == int(*qid); })) {
        ++repeated;
        current = nullptr;
        continue;
      }
      out.devices.push_back(QaicDevice{});
      current = &out.devices.back();
      current->qid = int(*qid);
      continue;
    }
    if (!current) continue;  // the LRT header lines
    auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string key = to_lower(trim(line.substr(0, colon)));
    const auto value = trim(line.substr(colon + 1));
    auto count = [&](std::optional<int>& into) {
      auto n = parse_u64(value);
      if (n && *n < 4096)
        into = int(*n);
      else
        out.problems.push_back("QID " + std::to_string(current->qid) + ": " + key + " \"" +
                               printable_line(value, 40) + "\" is not a count");
    };
    auto size = [&](std::optional<std::uint64_t>& into) {
      into = parse_qaic_size(value);
      if (!into)
        out.problems.push_back("QID " + std::to_string(current->qid) + ": " + key + " \"" +
                               printable_line(value, 40) + "\" is not a size");
    };
    if (key == "status")
      current->status = printable_line(value, 40);
    else if (key == "pci address")
      current->pci_address = normalise_pci_bus_id(value);
    else if (key == "pci info")
      current->pci_info = printable_line(value, 120);
    else if (key == "dram total")
      size(current->dram_total_bytes);
    else if (key == "dram free")
      size(current->dram_free_bytes);
    else if (key == "nsp total")
      count(current->nsp_total);
    else if (key == "nsp free")
      count(current->nsp_free);
    else if (key == "fw version")
      current->fw_version = printable_line(value, 40);
  }
  if (repeated)
    out.problems.push_back(std::to_string(repeated) +
                           " repeated QID block(s) ignored (the first listing is kept)");
  return out;
}

}  // namespace hwaccel
