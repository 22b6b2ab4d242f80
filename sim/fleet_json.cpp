#include "sim/fleet_json.h"

#include <algorithm>

namespace hwaccel::sim {

using nlohmann::json;

namespace {

json table(const std::map<std::string, std::size_t>& rows) {
  json out = json::object();
  for (const auto& [k, v] : rows) out[k] = v;
  return out;
}

// A count: a whole number, 0 to kMaxFleetCount.
std::string read_count(const json& v, const std::string& place, std::size_t& out) {
  if (!v.is_number_unsigned() || v.get<std::uint64_t>() > kMaxFleetCount)
    return place + ": expected a count (a whole number from 0 to 2^53)";
  out = std::size_t(v.get<std::uint64_t>());
  return {};
}

bool row_name_ok(const std::string& name) {
  if (name.empty() || name.size() > 4096) return false;
  for (unsigned char c : name)
    if (c < 0x20 || c == 0x7f) return false;  // nothing that moves a terminal's cursor
  return true;
}

std::string read_table(const json& parent, const std::string& key, const std::string& place,
                       std::map<std::string, std::size_t>& out) {
  const std::string here = place + "." + key;
  auto it = parent.find(key);
  if (it == parent.end()) return place + ": expected a field \"" + key + "\"";
  if (!it->is_object()) return here + ": expected an object of counts by name";
  for (const auto& [name, value] : it->items()) {
    if (!row_name_ok(name))
      return here + ": expected row names of 1 to 4096 characters without control characters";
    std::size_t n = 0;
    if (auto e = read_count(value, here + "[" + json(name).dump() + "]", n); !e.empty()) return e;
    out[name] = n;
  }
  return {};
}

std::string only_fields(const json& object, const std::string& place,
                        std::initializer_list<const char*> known) {
  for (const auto& [key, value] : object.items()) {
    bool ok = false;
    for (const char* k : known) ok = ok || key == k;
    if (!ok) return place + ": unexpected field " + json(key).dump() + " (not in this version)";
  }
  return {};
}

std::uint64_t sum(const std::map<std::string, std::size_t>& rows) {
  std::uint64_t total = 0;
  for (const auto& [k, v] : rows) total = std::min(total + v, kMaxFleetCount + 1);
  return total;
}

}  // namespace

json fleet_to_json(const FleetAggregate& a, const std::string& verdict_title) {
  json verdict = nullptr;
  if (!verdict_title.empty()) verdict = {{"title", verdict_title}, {"hosts", table(a.verdicts)}};
  return {{"schema", kFleetSchema},
          {"hosts", a.hosts},
          {"hosts_ready", a.hosts_ready},
          {"families", table(a.families)},
          {"backends", table(a.backends_by_state)},
          {"devices_by_state", table(a.devices_by_state)},
          {"hosts_by_reason", table(a.hosts_by_reason)},
          {"selected", table(a.selected)},
          {"verdict", verdict},
          {"unreadable", table(a.errors)}};
}

std::string fleet_from_json(const json& r, const std::string& place, FleetAggregate& a,
                            std::string& title) {
  if (!r.is_object()) return place + ": expected an object (a hwsim-fleet/1 report)";
  if (auto e =
          only_fields(r, place,
                      {"schema", "hosts", "hosts_ready", "families", "backends", "devices_by_state",
                       "hosts_by_reason", "selected", "verdict", "unreadable"});
      !e.empty())
    return e;
  auto schema = r.find("schema");
  if (schema == r.end() || !schema->is_string() || schema->get<std::string>() != kFleetSchema)
    return place + ".schema: expected \"" + kFleetSchema + "\"";
  for (auto [key, count] : {std::pair{"hosts", &a.hosts}, {"hosts_ready", &a.hosts_ready}}) {
    auto it = r.find(key);
    if (it == r.end()) return place + ": expected a field \"" + key + "\"";
    if (auto e = read_count(*it, place + "." + key, *count); !e.empty()) return e;
  }
  if (a.hosts_ready > a.hosts) return place + ".hosts_ready: expected at most hosts";
  for (auto [key, rows] : {std::pair{"families", &a.families},
                           {"backends", &a.backends_by_state},
                           {"devices_by_state", &a.devices_by_state},
                           {"hosts_by_reason", &a.hosts_by_reason},
                           {"selected", &a.selected},
                           {"unreadable", &a.errors}})
    if (auto e = read_table(r, key, place, *rows); !e.empty()) return e;
  title.clear();
  auto verdict = r.find("verdict");
  if (verdict == r.end()) return place + ": expected a field \"verdict\"";
  if (!verdict->is_null()) {
    const std::string here = place + ".verdict";
    if (!verdict->is_object()) return here + ": expected null or {\"title\", \"hosts\"}";
    if (auto e = only_fields(*verdict, here, {"title", "hosts"}); !e.empty()) return e;
    auto t = verdict->find("title");
    if (t == verdict->end() || !t->is_string() || !row_name_ok(t->get<std::string>()))
      return here + ".title: expected a column title (text without control characters)";
    title = t->get<std::string>();
    if (auto e = read_table(*verdict, "hosts", here, a.verdicts); !e.empty()) return e;
    if (sum(a.verdicts) != a.hosts) return here + ".hosts: expected counts that sum to hosts";
  }
  if (sum(a.families) != a.hosts) return place + ".families: expected counts that sum to hosts";
  if (sum(a.selected) != a.hosts) return place + ".selected: expected counts that sum to hosts";
  for (const auto& [name, n] : a.hosts_by_reason)
    if (n > a.hosts)
      return place + ".hosts_by_reason[" + json(name).dump() + "]: expected at most hosts";
  return {};
}

}  // namespace hwaccel::sim
