#include "src/plan/devices.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "src/model/number_text.h"
#include "src/plan/sharding.h"
#include "src/registry/selection.h"

namespace hwaccel::plan {

// The most devices one --add may add: the range of a spec's device count (1-64),
// beyond any single host; 1024 was allowed once and took 24 s to plan.
constexpr std::int64_t kMaxAddedDevices = 64;

std::string gib(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", bytes / (1024.0 * 1024 * 1024));
  return buf;
}

double PlanDevice::bandwidth() const {
  if (sku) return sku->bandwidth_bytes_s;
  return cpu ? kUnknownCpuBandwidth : 0;
}

double PlanDevice::peak(const std::string& format) const {
  if (sku) return sku->peak(format);
  return cpu && format == "fp32" ? kUnknownCpuFlops : 0;
}

namespace {

void set_capacity(PlanDevice& d) {
  double usable = d.total_bytes * d.usable_fraction;
  if (d.free_bytes) usable = std::min(usable, *d.free_bytes);
  d.capacity = std::max(0.0, usable - d.reserve_bytes);
}

PlanDevice from_entry(const Entry& e, const Catalogue& c, double reserve) {
  PlanDevice d;
  d.label = entry_label(e);
  d.name = e.name;
  d.physical_id = e.physical_id;
  d.cpu = e.type == DeviceType::cpu;
  d.sku = c.match(e);
  d.unified = e.memory.kind == MemoryKind::unified;
  d.total_bytes =
      e.memory.total_bytes ? double(*e.memory.total_bytes) : (d.sku ? d.sku->memory_bytes : 0);
  if (e.memory.free_bytes) d.free_bytes = double(*e.memory.free_bytes);
  if (d.sku) d.usable_fraction = d.sku->usable_fraction;
  // A detected working-set limit (Metal's recommendedMaxWorkingSetSize) is
  // already what a runtime may take; the catalogue's fraction stands for that
  // limit on --add devices and must not discount it a second time.
  if (e.memory.working_set_limit_bytes) {
    d.total_bytes = std::min(d.total_bytes, double(*e.memory.working_set_limit_bytes));
    d.usable_fraction = 1.0;
  }
  d.reserve_bytes = reserve;
  set_capacity(d);
  return d;
}

}  // namespace

std::optional<std::string> not_a_place_for_weights(const Entry& e) {
  // An NPU on a SoC (Apple's Neural Engine, Intel's NPU) has no memory of its
  // own: it reads the unified memory the GPU and CPU already count, and the
  // runtimes that plan here (llama.cpp, MLX, vLLM) do not run on it.
  if (e.type == DeviceType::npu && e.memory.kind == MemoryKind::unified)
    return std::string(
        "not a place for weights: an NPU without memory of its own (it shares the unified "
        "memory the GPU and CPU already count, and no LLM runtime planned here runs on it)");
  return std::nullopt;
}

DeviceSet synthetic_devices(const Sku& sku, int count, double reserve, double host_memory) {
  DeviceSet set;
  for (int i = 0; i < count; ++i) {
    PlanDevice d;
    d.label = "add:" + sku.id + ":" + std::to_string(i);
    d.name = sku.name;
    d.physical_id = d.label;
    d.sku = &sku;
    d.unified = sku.unified;
    d.added = true;
    d.total_bytes = sku.memory_bytes;
    d.usable_fraction = sku.usable_fraction;
    d.reserve_bytes = reserve;
    set_capacity(d);
    set.devices.push_back(d);
  }
  if (count > 1 && scale_up_fabric(sku.fabric)) {
    for (int i = 0; i < count; ++i)
      for (int j = i + 1; j < count; ++j)
        set.links.push_back({set.devices[i].label, set.devices[j].label, sku.fabric, 0, "",
                             "assumed: catalogue fabric of " + sku.id});
  }
  if (host_memory > 0 && !sku.unified) {
    PlanDevice cpu;
    cpu.label = "cpu:0";
    cpu.name = "host CPU";
    cpu.physical_id = "cpu:0";
    cpu.cpu = true;
    cpu.total_bytes = host_memory;
    cpu.reserve_bytes = reserve;
    set_capacity(cpu);
    set.devices.push_back(cpu);
  }
  return set;
}

DeviceSetResult build_devices(const Detection& det, const Catalogue& c, const DeviceOptions& o) {
  DeviceSetResult r;
  DeviceSet set;
  std::set<std::string> seen_physical;
  std::vector<PlanDevice> all;
  std::vector<std::pair<std::string, std::string>> not_for_weights;  // label, why
  for (const auto& e : det.entries) {
    if (e.status != EntryStatus::ready || e.partitioned) continue;
    if (!seen_physical.insert(e.physical_id).second) continue;  // a twin seen through another API
    if (auto why = not_a_place_for_weights(e)) {
      not_for_weights.emplace_back(entry_label(e), *why);
      set.notes.push_back(entry_label(e) + " " + e.name + ": left out, " + *why);
      continue;
    }
    all.push_back(from_entry(e, c, o.reserve_bytes));
  }
  auto known_labels = [&] {
    std::string s;
    for (const auto& d : all) s += " " + d.label;
    return s.empty() ? std::string(" (none ready)") : s;
  };
  std::vector<PlanDevice> chosen;
  if (!o.on.empty()) {
    for (const auto& label : o.on) {
      auto it = std::find_if(all.begin(), all.end(), [&](auto& d) { return d.label == label; });
      auto npu = std::find_if(not_for_weights.begin(), not_for_weights.end(),
                              [&](auto& p) { return p.first == label; });
      if (npu != not_for_weights.end()) {
        r.error = "--on " + label + ": " + npu->second;
        return r;
      }
      if (it == all.end()) {
        r.error = "--on " + label + ": no ready device with that name; ready:" + known_labels();
        return r;
      }
      chosen.push_back(*it);
    }
  } else {
    chosen = all;
  }
  for (const auto& label : o.remove) {
    auto it = std::find_if(chosen.begin(), chosen.end(), [&](auto& d) { return d.label == label; });
    if (it == chosen.end()) {
      r.error = "--remove " + label + ": no such device in the plan; devices:" + known_labels();
      return r;
    }
    chosen.erase(it);
  }
  // Accelerators first (in detection order), then the CPU.
  std::stable_partition(chosen.begin(), chosen.end(), [](auto& d) { return !d.cpu; });
  for (auto& d : chosen) {
    if (!d.sku && !d.cpu)
      set.notes.push_back(d.label + " " + d.name +
                          ": unknown device (not in the catalogue): memory from detection, no "
                          "speed estimate");
    if (d.cpu && !d.sku)
      set.notes.push_back(d.label + " " + d.name + ": CPU not in the catalogue; assumed " +
                          std::to_string(int(kUnknownCpuBandwidth / 1e9)) +
                          " GB/s memory bandwidth");
  }
  set.devices = std::move(chosen);
  std::set<std::string> ids;
  for (const auto& d : set.devices) ids.insert(d.physical_id);
  for (const auto& l : det.links) {
    if (ids.count(l.a) && ids.count(l.b)) set.links.push_back(l);
  }
  // Map physical ids in links to labels, which is what plans speak.
  for (auto& l : set.links) {
    for (const auto& d : set.devices) {
      if (l.a == d.physical_id) l.a = d.label;
      if (l.b == d.physical_id) l.b = d.label;
    }
  }
  for (const auto& spec : o.add) {
    std::string id = spec;
    int count = 1;
    auto x = spec.rfind('x');
    if (x != std::string::npos && x + 1 < spec.size() &&
        spec.find_first_not_of("0123456789", x + 1) == std::string::npos) {
      // "h100-sxmx99999999999" once ended in "internal error: stoi".
      auto n = parse_integer_in(spec.substr(x + 1), 1, kMaxAddedDevices);
      if (!n) {
        r.error = "--add " + spec + ": the count after 'x' must be 1 to " +
                  std::to_string(kMaxAddedDevices) + " (SKU[xN])";
        return r;
      }
      count = static_cast<int>(*n);
      id = spec.substr(0, x);
    }
    const Sku* sku = c.find(id);
    if (!sku) {
      r.error = "--add " + spec + ": expected SKU[xN] with a catalogue id; known:";
      for (const auto& k : c.ids()) r.error += " " + k;
      return r;
    }
    DeviceSet extra = synthetic_devices(*sku, count, o.reserve_bytes);
    // Keep accelerators before the CPU.
    auto cpu_at =
        std::find_if(set.devices.begin(), set.devices.end(), [](auto& d) { return d.cpu; });
    int base = 0;
    for (const auto& d : set.devices) base += d.added && d.sku == sku;
    for (auto& d : extra.devices) {
      int n = std::stoi(d.label.substr(d.label.rfind(':') + 1)) + base;
      std::string label = "add:" + sku->id + ":" + std::to_string(n);
      for (auto& l : extra.links) {
        if (l.a == d.label) l.a = label;
        if (l.b == d.label) l.b = label;
      }
      d.label = d.physical_id = label;
    }
    cpu_at = set.devices.insert(cpu_at, extra.devices.begin(), extra.devices.end());
    set.links.insert(set.links.end(), extra.links.begin(), extra.links.end());
    set.notes.push_back("--add " + spec + ": " + std::to_string(count) + " x " + sku->name +
                        " (catalogue memory, all free)");
  }
  std::sort(set.links.begin(), set.links.end());
  r.set = std::move(set);
  return r;
}

}  // namespace hwaccel::plan
