#include "sim/fleet_part.h"

#include <nlohmann/json.hpp>

#include "sim/fleet_json.h"
#include "src/probe/json_nesting.h"

namespace hwaccel::sim {

using nlohmann::json;

std::string part_to_text(const FleetPart& p) {
  const auto range = shard_range(p.fleet.count, p.shard);
  const FleetIdentity& f = p.fleet;
  json doc = {{"schema", kFleetPartSchema},
              {"fleet",
               {{"hwsim", f.hwsim},
                {"spec", f.spec},
                {"host_sha256", f.host_sha256},
                {"seed", f.seed},
                {"count", f.count},
                {"fault_rate", f.fault_rate},
                {"busy_rate", f.busy_rate},
                {"verdict", f.verdict}}},
              {"shard",
               {{"index", p.shard.index},
                {"of", p.shard.count},
                {"first", range.first},
                {"end", range.end}}},
              {"report", fleet_to_json(p.aggregate, f.verdict)}};
  return doc.dump(2) + "\n";
}

namespace {

std::string expect_fields(const json& o, const std::string& place,
                          std::initializer_list<const char*> fields) {
  if (!o.is_object()) return place + ": expected an object";
  for (const char* k : fields)
    if (!o.contains(k)) return place + ": expected a field \"" + k + "\"";
  if (o.size() != fields.size())
    for (const auto& [key, v] : o.items()) {
      bool known = false;
      for (const char* k : fields) known = known || key == k;
      if (!known)
        return place + ": unexpected field " + json(key).dump() + " (not in this version)";
    }
  return {};
}

std::string read_text(const json& o, const char* key, const std::string& place, std::size_t max,
                      std::string& out) {
  const json& v = o.at(key);
  if (!v.is_string() || v.get<std::string>().size() > max)
    return place + "." + key + ": expected text of at most " + std::to_string(max) + " bytes";
  out = v.get<std::string>();
  return {};
}

std::string read_whole(const json& o, const char* key, const std::string& place, std::uint64_t lo,
                       std::uint64_t hi, std::uint64_t& out) {
  const json& v = o.at(key);
  if (!v.is_number_unsigned() || v.get<std::uint64_t>() < lo || v.get<std::uint64_t>() > hi)
    return place + "." + key + ": expected a whole number from " + std::to_string(lo) + " to " +
           std::to_string(hi);
  out = v.get<std::uint64_t>();
  return {};
}

std::string read_rate(const json& o, const char* key, const std::string& place, double& out) {
  const json& v = o.at(key);
  if (!v.is_number() || !(v.get<double>() >= 0 && v.get<double>() <= 1))
    return place + "." + key + ": expected a share from 0 to 1";
  out = v.get<double>();
  return {};
}

std::string read_part(const json& doc, FleetPart& p) {
  if (!doc.is_object()) return "the document: expected an object (a hwsim-fleet-part/1 part)";
  auto schema = doc.find("schema");
  if (schema == doc.end() || !schema->is_string())
    return "schema: expected \"" + std::string(kFleetPartSchema) + "\"";
  if (schema->get<std::string>() != kFleetPartSchema)
    return "schema: expected \"" + std::string(kFleetPartSchema) + "\", not " + schema->dump() +
           " (written by another version of hwsim?)";
  if (auto e = expect_fields(doc, "the document", {"schema", "fleet", "shard", "report"});
      !e.empty())
    return e;
  const json& f = doc.at("fleet");
  FleetIdentity& id = p.fleet;
  if (auto e = expect_fields(
          f, "fleet",
          {"hwsim", "spec", "host_sha256", "seed", "count", "fault_rate", "busy_rate", "verdict"});
      !e.empty())
    return e;
  std::string e;
  if (e.empty()) e = read_text(f, "hwsim", "fleet", 64, id.hwsim);
  if (e.empty()) e = read_text(f, "spec", "fleet", 4096, id.spec);
  if (e.empty()) e = read_text(f, "host_sha256", "fleet", 64, id.host_sha256);
  if (e.empty()) e = read_whole(f, "seed", "fleet", 0, UINT64_MAX, id.seed);
  if (e.empty()) e = read_whole(f, "count", "fleet", 1, kMaxFleetHosts, id.count);
  if (e.empty()) e = read_rate(f, "fault_rate", "fleet", id.fault_rate);
  if (e.empty()) e = read_rate(f, "busy_rate", "fleet", id.busy_rate);
  if (e.empty()) e = read_text(f, "verdict", "fleet", 4096, id.verdict);
  if (!e.empty()) return e;
  const json& s = doc.at("shard");
  if (auto e2 = expect_fields(s, "shard", {"index", "of", "first", "end"}); !e2.empty()) return e2;
  std::uint64_t first = 0, end = 0;
  e = read_whole(s, "of", "shard", 1, kMaxShards, p.shard.count);
  if (e.empty()) e = read_whole(s, "index", "shard", 0, p.shard.count - 1, p.shard.index);
  if (e.empty()) e = read_whole(s, "first", "shard", 0, id.count, first);
  if (e.empty()) e = read_whole(s, "end", "shard", 0, id.count, end);
  if (!e.empty()) return e;
  const auto range = shard_range(id.count, p.shard);
  if (first != range.first || end != range.end)
    return "shard: expected hosts " + std::to_string(range.first) + " to " +
           std::to_string(range.end) + " (shard " + std::to_string(p.shard.index) + "/" +
           std::to_string(p.shard.count) + " of " + std::to_string(id.count) + ")";
  // The shard's size first: the report's own sums would name a symptom of it.
  const json& report = doc.at("report");
  if (report.is_object() && report.contains("hosts") && report["hosts"].is_number_unsigned() &&
      report["hosts"].get<std::uint64_t>() != range.size())
    return "report.hosts: expected " + std::to_string(range.size()) + " (the shard's hosts)";
  std::string title;
  if (auto e2 = fleet_from_json(report, "report", p.aggregate, title); !e2.empty()) return e2;
  if (title != id.verdict) return "report.verdict: expected the title fleet.verdict names";
  if (!p.aggregate.errors.empty()) return "report.unreadable: expected none (drawn hosts)";
  return {};
}

// The first field two fleets differ in, as "FIELD A here, B there".
std::string first_difference(const FleetIdentity& a, const FleetIdentity& b) {
  auto quote = [](const std::string& s) { return json(s).dump(); };
  auto num = [](double d) { return json(d).dump(); };
  if (a.hwsim != b.hwsim) return "hwsim " + quote(a.hwsim) + " here, " + quote(b.hwsim) + " there";
  if (a.host_sha256 != b.host_sha256)
    return "spec " + quote(a.spec) + " here, " + quote(b.spec) + " there (synthesised hosts " +
           a.host_sha256.substr(0, 12) + " and " + b.host_sha256.substr(0, 12) + ")";
  if (a.seed != b.seed)
    return "seed " + std::to_string(a.seed) + " here, " + std::to_string(b.seed) + " there";
  if (a.count != b.count)
    return "count " + std::to_string(a.count) + " here, " + std::to_string(b.count) + " there";
  if (a.fault_rate != b.fault_rate)
    return "fault_rate " + num(a.fault_rate) + " here, " + num(b.fault_rate) + " there";
  if (a.busy_rate != b.busy_rate)
    return "busy_rate " + num(a.busy_rate) + " here, " + num(b.busy_rate) + " there";
  if (a.verdict != b.verdict)
    return "verdict " + quote(a.verdict) + " here, " + quote(b.verdict) + " there";
  return {};
}

// into += from, refusing a row that would pass kMaxFleetCount.
bool add_rows(std::map<std::string, std::size_t>& into,
              const std::map<std::string, std::size_t>& from) {
  for (const auto& [k, v] : from) {
    auto& slot = into[k];
    if (v > kMaxFleetCount - slot) return false;
    slot += v;
  }
  return true;
}

}  // namespace

PartRead part_from_text(std::string_view text) {
  PartRead r;
  if (auto deep = json_too_deep_at(text, 8)) {
    r.error = std::to_string(json_line_of(text, *deep)) + ": nested deeper than a part is";
    return r;
  }
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    // e.byte: 1-based offset of the byte where the parse failed.
    const std::size_t at = e.byte == 0 ? 0 : std::min<std::size_t>(e.byte - 1, text.size());
    const std::size_t line_start = text.rfind('\n', at == 0 ? 0 : at - 1);
    const std::size_t column = line_start == std::string_view::npos ? at + 1 : at - line_start;
    // "[json.exception.parse_error.101] parse error at line 2, column 11: syntax error ...":
    // the position is ours, the words after it nlohmann's.
    std::string what = e.what();
    if (auto col = what.find("column "); col != std::string::npos)
      if (auto colon = what.find(": ", col); colon != std::string::npos)
        what = what.substr(colon + 2);
    r.error = std::to_string(json_line_of(text, at)) + ":" + std::to_string(column) +
              ": not JSON: " + what;
    return r;
  }
  FleetPart p;
  r.error = read_part(doc, p);
  if (r.error.empty()) r.part = std::move(p);
  return r;
}

MergeResult merge_parts(const std::vector<NamedPart>& parts) {
  MergeResult m;
  if (parts.empty()) {
    m.error = "no parts to merge";
    return m;
  }
  const NamedPart& head = parts.front();
  const std::uint64_t n = head.part.shard.count;
  std::vector<const NamedPart*> by_index(n, nullptr);  // n at most kMaxShards
  FleetAggregate total;
  for (const auto& np : parts) {
    const FleetPart& p = np.part;
    if (auto d = first_difference(p.fleet, head.part.fleet); !d.empty()) {
      m.error = np.name + ": a shard of another fleet than " + head.name + ": " + d;
      return m;
    }
    if (p.shard.count != n) {
      m.error = np.name + ": shard " + std::to_string(p.shard.index) + "/" +
                std::to_string(p.shard.count) + ", but " + head.name + " is one of " +
                std::to_string(n) + " shards";
      return m;
    }
    const NamedPart*& seen = by_index[p.shard.index];
    if (seen) {
      m.error = np.name + ": shard " + std::to_string(p.shard.index) + "/" + std::to_string(n) +
                " again (also " + seen->name + ")";
      return m;
    }
    seen = &np;
    const FleetAggregate& a = p.aggregate;
    total.hosts += a.hosts;  // shard sizes: these sum to the fleet's count
    total.hosts_ready += a.hosts_ready;
    bool ok = add_rows(total.families, a.families) && add_rows(total.selected, a.selected) &&
              add_rows(total.hosts_by_reason, a.hosts_by_reason) &&
              add_rows(total.devices_by_state, a.devices_by_state) &&
              add_rows(total.backends_by_state, a.backends_by_state) &&
              add_rows(total.verdicts, a.verdicts) && add_rows(total.errors, a.errors);
    if (!ok) {
      m.error = np.name + ": a count passes 2^53 when added";
      return m;
    }
  }
  std::string missing;
  std::size_t missing_count = 0;
  for (std::uint64_t k = 0; k < n; ++k)
    if (!by_index[k] && ++missing_count <= 10)
      missing += (missing.empty() ? "" : ", ") + std::to_string(k) + "/" + std::to_string(n);
  if (missing_count > 0) {
    m.error = std::to_string(missing_count) + " of " + std::to_string(n) +
              " shards missing: " + missing + (missing_count > 10 ? ", ..." : "");
    return m;
  }
  m.aggregate = std::move(total);
  m.verdict_title = head.part.fleet.verdict;
  return m;
}

}  // namespace hwaccel::sim
