#include "src/probe/hl_smi_csv.h"

#include "src/probe/nvidia_smi_csv.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {

HlSmiQuery parse_hl_smi_query(std::string_view text) {
  auto table = parse_nvidia_smi_csv(text);
  HlSmiQuery query;
  query.columns = table.columns;
  query.problems = table.problems;
  auto index = table.column("index");
  auto name = table.column("name");
  auto bus = table.column("bus_id");
  auto total = table.column("memory.total");
  auto free = table.column("memory.free");
  auto driver = table.column("driver_version");
  if (!name) return query;  // not the query's table; the caller says so
  for (const auto& row : table.rows) {
    HlSmiDevice d;
    auto cell = [&](std::optional<std::size_t> at) -> std::string_view {
      if (!at || is_no_value(row[*at])) return {};
      return row[*at];
    };
    d.name = std::string(cell(name));
    if (auto i = parse_u64(cell(index)); i && *i < 4096) d.index = int(*i);
    d.bus_id = normalise_pci_bus_id(cell(bus));
    d.driver_version = std::string(cell(driver));
    auto memory = [&](std::optional<std::size_t> at, const char* field) {
      std::optional<std::uint64_t> bytes;
      if (!at || cell(at).empty()) return bytes;
      bytes = parse_memory_bytes(row[*at], table.units[*at]);
      if (!bytes)
        query.problems.push_back(std::string(field) + " \"" + printable_line(row[*at], 40) +
                                 "\" is not a size");
      return bytes;
    };
    d.memory_total_bytes = memory(total, "memory.total");
    d.memory_free_bytes = memory(free, "memory.free");
    if (d.name.empty() && d.bus_id.empty()) {
      query.problems.push_back("a row without name or bus_id skipped");
      continue;
    }
    query.devices.push_back(std::move(d));
  }
  return query;
}

}  // namespace hwaccel
