#include "sim/fleet.h"

#include <algorithm>
#include <set>

#include "sim/synth_parts.h"
#include "src/host/snapshot_host.h"
#include "src/registry/selection.h"
#include "src/report/table.h"

namespace hwaccel::sim {

std::string host_family(const Detection& d) {
  std::map<std::string, int> counts;
  std::vector<std::string> order;
  for (const auto& e : d.entries) {
    if (e.type == DeviceType::cpu || e.partition) continue;
    if (counts[e.name]++ == 0) order.push_back(e.name);
  }
  if (order.empty()) return "cpu-only";
  std::sort(order.begin(), order.end());
  std::string family;
  for (const auto& name : order)
    family += (family.empty() ? "" : " + ") + std::to_string(counts[name]) + "x " + name;
  return family;
}

void FleetAggregate::add(const Detection& d, const std::string& verdict) {
  ++hosts;
  ++families[host_family(d)];
  bool all_ready = true;
  std::set<std::string> reasons;
  for (const auto& e : d.entries) {
    if (e.type == DeviceType::cpu) continue;
    if (e.status == EntryStatus::ready) {
      ++devices_by_state["ready"];
      continue;
    }
    all_ready = false;
    const std::string code(e.reason ? to_string(e.reason->code) : "unknown");
    ++devices_by_state[code];
    reasons.insert(code);
  }
  hosts_ready += all_ready;
  for (const auto& r : reasons) ++hosts_by_reason[r];
  for (const auto& b : d.backends)
    ++backends_by_state[b.name + " " +
                        (b.ready ? std::string("ready")
                                 : std::string(b.reason ? to_string(b.reason->code) : "unknown"))];
  Selection s = select_default(d);
  if (s.entry) {
    const Entry& e = d.entries[*s.entry];
    ++selected[e.backend + ": " + e.name];
  } else {
    ++selected["(none)"];
  }
  if (!verdict.empty()) ++verdicts[verdict];
}

void FleetAggregate::merge(const FleetAggregate& o) {
  hosts += o.hosts;
  hosts_ready += o.hosts_ready;
  auto fold = [](std::map<std::string, std::size_t>& into,
                 const std::map<std::string, std::size_t>& from) {
    for (const auto& [k, v] : from) into[k] += v;
  };
  fold(families, o.families);
  fold(hosts_by_reason, o.hosts_by_reason);
  fold(devices_by_state, o.devices_by_state);
  fold(backends_by_state, o.backends_by_state);
  fold(selected, o.selected);
  fold(verdicts, o.verdicts);
  fold(errors, o.errors);
}

void add_snapshot(FleetAggregate& aggregate, Snapshot snapshot, const Reserve& reserve,
                  const HostVerdict& verdict) {
  SnapshotHost host(std::move(snapshot));
  Detection d = detect(host);
  auto chosen = choose_reserve(std::nullopt, host.env(kReserveEnv));
  const Reserve used = chosen.reserve.value_or(reserve);
  const std::string answer = verdict ? verdict(d, used.bytes) : std::string();
  apply_reserve(d, used);
  aggregate.add(d, answer);
}

namespace {

std::string percent(std::size_t part, std::size_t whole) {
  if (whole == 0) return "-";
  const double p = 100.0 * double(part) / double(whole);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f%%", p);
  return buf;
}

// Rows sorted by count, largest first, then by name: the table reads top-down.
std::vector<std::pair<std::string, std::size_t>> by_count(
    const std::map<std::string, std::size_t>& m) {
  std::vector<std::pair<std::string, std::size_t>> rows(m.begin(), m.end());
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  return rows;
}

std::string section(const std::string& title, const std::string& unit,
                    const std::map<std::string, std::size_t>& m, std::size_t whole) {
  std::vector<std::vector<std::string>> rows{{title, unit, "SHARE"}};
  for (const auto& [k, v] : by_count(m)) rows.push_back({k, std::to_string(v), percent(v, whole)});
  return render_table(rows) + "\n";
}

}  // namespace

std::string render_fleet(const FleetAggregate& a, const std::string& verdict_title) {
  std::string out = "fleet: " + std::to_string(a.hosts) + " hosts, " +
                    std::to_string(a.hosts_ready) + " with every accelerator ready (" +
                    percent(a.hosts_ready, a.hosts) + ")\n\n";
  out += section("FAMILY", "HOSTS", a.families, a.hosts);
  out += section("BACKEND", "HOSTS", a.backends_by_state, a.hosts);
  std::size_t devices = 0;
  for (const auto& [k, v] : a.devices_by_state) devices += v;
  out += section("DEVICE STATE", "DEVICES", a.devices_by_state, devices);
  if (!a.hosts_by_reason.empty())
    out += section("UNAVAILABLE BECAUSE", "HOSTS", a.hosts_by_reason, a.hosts);
  out += section("SELECTED BY DEFAULT", "HOSTS", a.selected, a.hosts);
  if (!a.verdicts.empty()) out += section(verdict_title, "HOSTS", a.verdicts, a.hosts);
  if (!a.errors.empty()) out += section("UNREADABLE", "FILES", a.errors, a.hosts + a.errors.size());
  return out;
}

std::vector<Fault> draw_faults(const Snapshot& base, std::uint64_t seed, std::uint64_t index,
                               const FleetDraw& draw) {
  using detail::mix;
  std::uint64_t state = mix(seed, index);
  auto next = [&state]() {
    state = mix(state, 0x5eed);
    return double(state >> 11) / double(std::uint64_t{1} << 53);
  };
  auto make = [](FaultKind kind, std::string target, std::string arg) {
    Fault f;
    f.kind = kind;
    f.target = std::move(target);
    f.arg = std::move(arg);
    f.text = std::string(to_string(kind)) + ":" + f.target + (f.arg.empty() ? "" : "=" + f.arg);
    return f;
  };
  // What the base host has to break: a working nvidia-smi (and how many GPUs its
  // memory query lists: a free-memory fault rewrites that query), amdgpu-bound GPUs.
  std::size_t nvidia_gpus = 0;
  bool nvidia_ok = false;
  for (const auto& [argv, tool] : base.tools)
    if (argv.size() == 3 && argv[0] == "nvidia-smi" && argv[1].rfind("--query-gpu=index", 0) == 0 &&
        argv[1].find("memory.free") != std::string::npos && tool.run.ok()) {
      nvidia_ok = true;
      // Rows with memory figures (a GB10's are [N/A]: nothing to take away).
      std::size_t start = tool.run.out.find('\n');
      while (start != std::string::npos && start + 1 < tool.run.out.size()) {
        const auto end = tool.run.out.find('\n', start + 1);
        const auto row = tool.run.out.substr(start + 1, end - start - 1);
        nvidia_gpus += row.find("N/A") == std::string::npos;
        start = end;
      }
    }
  std::size_t amd_gpus = 0;
  for (const auto& [path, entry] : base.files)
    if (path.size() > 20 && path.compare(path.size() - 20, 20, "/mem_info_vram_total") == 0)
      ++amd_gpus;

  std::vector<Fault> faults;
  bool nvidia_broken = false, amd_broken = false;
  if (next() < draw.fault_rate && (nvidia_ok || amd_gpus > 0)) {
    const bool nvidia = nvidia_ok && (amd_gpus == 0 || next() < 0.5);
    nvidia_broken = nvidia;
    amd_broken = !nvidia;
    if (nvidia) {
      const double r = next();
      if (r < 0.4)
        faults.push_back(make(FaultKind::unload, "nvidia", ""));
      else if (r < 0.6)
        faults.push_back(make(FaultKind::exit, "nvidia-smi",
                              "18:Failed to initialize NVML: Driver/library version mismatch"));
      else if (r < 0.8)
        faults.push_back(make(FaultKind::hang, "nvidia-smi", ""));
      else
        faults.push_back(make(FaultKind::missing, "nvidia-smi", ""));
    } else {
      faults.push_back(make(FaultKind::unload, "amdgpu", ""));
    }
  }
  // Busy GPUs: between 0 and 20 GiB left free.
  if (nvidia_ok && !nvidia_broken)
    for (std::size_t g = 0; g < nvidia_gpus; ++g)
      if (next() < draw.busy_rate)
        faults.push_back(make(FaultKind::free, "cuda:" + std::to_string(g),
                              std::to_string(std::uint64_t(next() * 20480)) + "M"));
  if (!amd_broken)
    for (std::size_t g = 0; g < amd_gpus; ++g)
      if (next() < draw.busy_rate)
        faults.push_back(make(FaultKind::free, "rocm:" + std::to_string(g),
                              std::to_string(std::uint64_t(next() * 20480)) + "M"));
  return faults;
}

}  // namespace hwaccel::sim
