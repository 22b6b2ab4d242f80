#include "src/probe/neuron_ls_json.h"

#include <nlohmann/json.hpp>

#include "src/probe/nvidia_smi_csv.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

using nlohmann::json;

std::optional<std::int64_t> integer(const json& v) {
  if (v.is_number_integer()) return v.get<std::int64_t>();
  if (v.is_number_unsigned()) {
    auto u = v.get<std::uint64_t>();
    if (u <= std::uint64_t(INT64_MAX)) return std::int64_t(u);
    return std::nullopt;
  }
  if (v.is_string()) {  // numa_node is printed as a string
    auto text = trim(v.get_ref<const std::string&>());
    bool negative = !text.empty() && text.front() == '-';
    auto n = parse_u64(negative ? text.substr(1) : text);
    if (!n || *n > std::uint64_t(INT64_MAX)) return std::nullopt;
    return negative ? -std::int64_t(*n) : std::int64_t(*n);
  }
  return std::nullopt;
}

std::optional<int> small(const json& object, const char* key, int max,
                         std::vector<std::string>& problems, int device) {
  auto at = object.find(key);
  if (at == object.end() || at->is_null()) return std::nullopt;
  auto v = integer(*at);
  if (!v || *v < 0 || *v > max) {
    if (!(v && *v == -1))  // -1: "none" (numa_node)
      problems.push_back("device " + std::to_string(device) + ": " + key + " is not a count");
    return std::nullopt;
  }
  return int(*v);
}

}  // namespace

NeuronLsOutput parse_neuron_ls_json(std::string_view text) {
  NeuronLsOutput out;
  json doc;
  try {  // without exceptions parse() reports errors by discarding, but be sure
    doc = json::parse(text.begin(), text.end(), nullptr, false);
  } catch (const json::exception&) {
    return out;
  }
  if (doc.is_discarded() || !doc.is_array()) return out;
  out.parsed = true;
  int row = 0;
  for (const auto& item : doc) {
    ++row;
    if (!item.is_object()) {
      out.problems.push_back("item " + std::to_string(row) + " is not an object; skipped");
      continue;
    }
    NeuronLsDevice d;
    d.index = small(item, "neuron_device", 4095, out.problems, row - 1);
    const int id = d.index.value_or(row - 1);
    if (auto bdf = item.find("bdf"); bdf != item.end() && bdf->is_string())
      d.bdf = normalise_pci_bus_id(bdf->get_ref<const std::string&>());
    d.nc_count = small(item, "nc_count", 4096, out.problems, id);
    d.logical_nc_config = small(item, "logical_neuroncore_config", 64, out.problems, id);
    d.numa_node = small(item, "numa_node", 4096, out.problems, id);
    if (auto m = item.find("memory_size"); m != item.end() && !m->is_null()) {
      if (m->is_number_unsigned() || (m->is_number_integer() && m->get<std::int64_t>() >= 0))
        d.memory_bytes = m->get<std::uint64_t>();
      else
        out.problems.push_back("device " + std::to_string(id) + ": memory_size is not bytes");
    }
    if (auto c = item.find("cpu_affinity"); c != item.end() && c->is_string())
      d.cpu_affinity = printable_line(c->get_ref<const std::string&>(), 200);
    if (auto t = item.find("instance_type"); t != item.end() && t->is_string())
      d.instance_type = printable_line(t->get_ref<const std::string&>(), 64);
    if (auto c = item.find("connected_to"); c != item.end() && c->is_array())
      for (const auto& peer : *c)
        if (auto n = integer(peer); n && *n >= 0 && *n < 4096) d.connected_to.push_back(int(*n));
    out.devices.push_back(std::move(d));
  }
  return out;
}

bool is_neuron_no_driver_message(std::string_view text) {
  return contains_ignoring_case(text, "failed to discover Neuron devices");
}

}  // namespace hwaccel
