#include "src/plan/sharding.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include "src/plan/peak_memory.h"

namespace hwaccel::plan {

std::string to_string(PlanKind kind) {
  switch (kind) {
    case PlanKind::single:
      return "single";
    case PlanKind::tensor:
      return "tensor";
    case PlanKind::pipeline:
      return "pipeline";
    case PlanKind::tensor_pipeline:
      return "tensor+pipeline";
    case PlanKind::offload:
      return "offload";
  }
  return "?";
}

std::string compress_labels(const std::vector<std::string>& labels) {
  // cuda:0,cuda:1,cuda:2 -> cuda:0-2 (runs of consecutive indices with one prefix).
  std::string out;
  std::size_t i = 0;
  auto split = [](const std::string& l, std::string& prefix, long& index) {
    auto colon = l.rfind(':');
    prefix = colon == std::string::npos ? l : l.substr(0, colon + 1);
    std::string tail = colon == std::string::npos ? "" : l.substr(colon + 1);
    if (tail.empty() || tail.find_first_not_of("0123456789") != std::string::npos ||
        tail.size() > 6)
      return false;
    index = std::stol(tail);
    return true;
  };
  while (i < labels.size()) {
    std::string prefix, p2;
    long a = 0, b = 0;
    std::size_t j = i;
    if (split(labels[i], prefix, a)) {
      while (j + 1 < labels.size() && split(labels[j + 1], p2, b) && p2 == prefix &&
             b == a + static_cast<long>(j + 1 - i))
        ++j;
    }
    if (!out.empty()) out += ",";
    out += j > i ? labels[i] + "-" + std::to_string(a + static_cast<long>(j - i)) : labels[i];
    i = j + 1;
  }
  return out;
}

bool Plan::fits() const {
  return !shards.empty() &&
         std::all_of(shards.begin(), shards.end(), [](const Shard& s) { return s.fits(); });
}

std::string Plan::label(const DeviceSet& set) const {
  std::string out = to_string(kind);
  if (kind == PlanKind::tensor || kind == PlanKind::tensor_pipeline)
    out += " x" + std::to_string(tp);
  if (kind == PlanKind::pipeline || kind == PlanKind::tensor_pipeline || kind == PlanKind::offload)
    out += " " + std::to_string(stages.size()) + " stages";
  std::vector<std::string> labels;
  for (const auto& s : shards) labels.push_back(set.devices[s.device].label);
  return out + " " + compress_labels(labels);
}

ModelCost model_cost(const ModelSpec& spec, const QuantLevel& quant, const Workload& w) {
  ModelCost c;
  c.spec = spec;
  c.params = count_params(spec);
  c.quant = quant;
  c.weights = weight_bytes(spec, c.params, quant);
  c.workload = w;
  c.kv_element = kv_bytes_per_element(w.kv).value_or(2.0);
  c.footprint = footprint(spec, c.weights, w, c.kv_element);
  return c;
}

namespace {

double kv_per_layer(const ModelCost& c) {
  return kv_bytes_per_layer(c.spec, c.workload.context, c.kv_element) * c.workload.batch;
}

// KV heads split over tensor-parallel ranks; fewer KV heads than ranks are
// replicated; MLA's latent is replicated on every rank.
double kv_split(const ModelCost& c, int tp) {
  if (c.spec.mla()) return 1;
  return 1.0 / std::min(tp, std::max(1, c.spec.kv_heads));
}

double stage_fixed(const ModelCost& c, const Stage& s, const PlanDevice& d, int tp, bool pipeline) {
  double fixed = stage_activations(c, s, pipeline) + (d.cpu ? 0 : c.footprint.overhead);
  if (s.embedding) fixed += c.weights.embedding / tp;
  if (s.head) fixed += c.weights.head / tp;
  return fixed;
}

}  // namespace

bool gpu_pipeline(const std::vector<Stage>& stages, const DeviceSet& set) {
  if (stages.size() < 2) return false;
  for (const auto& st : stages)
    for (int d : st.devices)
      if (set.devices[d].cpu) return false;
  return true;
}

double stage_activations(const ModelCost& c, const Stage& st, bool pipeline) {
  if (!uses_compute_buffer(c.workload.runtime)) return c.footprint.activations;
  return llama_cpp_compute_buffer_bytes(c.spec, c.workload.context, c.workload.prefill_chunk,
                                        c.workload.flash_attention, st.head,
                                        pipeline ? kLlamaCppPipelineCopies : 1);
}

void fill_shards(Plan& plan, const ModelCost& c, const DeviceSet& set) {
  plan.shards.clear();
  bool pipeline = gpu_pipeline(plan.stages, set);
  for (std::size_t si = 0; si < plan.stages.size(); ++si) {
    const Stage& st = plan.stages[si];
    int tp = static_cast<int>(st.devices.size());
    for (int r = 0; r < tp; ++r) {
      const PlanDevice& d = set.devices[st.devices[r]];
      Shard sh;
      sh.device = st.devices[r];
      sh.stage = static_cast<int>(si);
      sh.tp_rank = r;
      sh.first_layer = st.first_layer;
      sh.layer_count = st.layer_count;
      sh.weights = c.weights.per_layer * st.layer_count / tp;
      if (st.embedding) sh.weights += c.weights.embedding / tp;
      if (st.head) sh.weights += c.weights.head / tp;
      sh.kv = kv_per_layer(c) * st.layer_count * kv_split(c, tp);
      double activations = stage_activations(c, st, pipeline);
      if (uses_compute_buffer(c.workload.runtime)) sh.compute_buffer = activations;
      sh.other = activations + (d.cpu ? 0 : c.footprint.overhead);
      sh.capacity = d.capacity;
      sh.build = engine_build_bytes(c.workload.runtime, sh.weights, c.footprint.overhead, d.cpu);
      plan.shards.push_back(sh);
    }
  }
}

std::vector<int> balance_layers(const std::vector<double>& room, double per_layer, int layers) {
  std::vector<int> n(room.size(), 0);
  if (room.empty()) return n;
  double total = 0;
  for (double r : room) total += std::max(0.0, r);
  int given = 0;
  for (std::size_t i = 0; i < room.size(); ++i) {
    n[i] = total > 0 ? static_cast<int>(layers * std::max(0.0, room[i]) / total) : 0;
    given += n[i];
  }
  // The rest, one at a time, to the stage with the most room left.
  while (given < layers) {
    std::size_t best = 0;
    double best_left = -1e300;
    for (std::size_t i = 0; i < room.size(); ++i) {
      double left = room[i] - (n[i] + 1) * per_layer;
      if (left > best_left) best_left = left, best = i;
    }
    ++n[best];
    ++given;
  }
  return n;
}

bool scale_up_fabric(const std::string& fabric) {
  return fabric == "nvlink" || fabric == "xgmi" || fabric == "ici" || fabric == "neuronlink" ||
         fabric == "roce" || fabric == "xelink";
}

std::vector<Domain> fast_domains(const DeviceSet& set) {
  std::vector<Domain> out;
  std::map<std::pair<std::string, std::string>, const Link*> fast;
  bool any_link = false;
  for (const auto& l : set.links) {
    any_link = true;
    if (l.kind == "nvlink" || l.kind == "xgmi") {
      fast[{l.a, l.b}] = &l;
      fast[{l.b, l.a}] = &l;
    }
  }
  // Same-SKU groups, in order of first appearance.
  std::vector<std::vector<int>> groups;
  std::map<std::string, std::size_t> group_of;
  for (std::size_t i = 0; i < set.devices.size(); ++i) {
    const auto& d = set.devices[i];
    if (d.cpu || !d.sku) continue;
    auto [it, inserted] = group_of.emplace(d.sku->id, groups.size());
    if (inserted) groups.emplace_back();
    groups[it->second].push_back(static_cast<int>(i));
  }
  for (const auto& g : groups) {
    if (g.size() < 2) continue;
    const Sku& sku = *set.devices[g.front()].sku;
    // Greedy cliques of fully linked devices.
    std::vector<int> left = g;
    while (left.size() >= 2) {
      Domain d;
      d.devices.push_back(left.front());
      int lanes = 1 << 30;
      for (std::size_t k = 1; k < left.size(); ++k) {
        bool all = true;
        for (int m : d.devices) {
          auto it = fast.find({set.devices[m].label, set.devices[left[k]].label});
          if (it == fast.end()) {
            all = false;
            break;
          }
          lanes = std::min(lanes, it->second->lanes);
          d.fabric = it->second->kind;
        }
        if (all) d.devices.push_back(left[k]);
      }
      if (d.devices.size() >= 2) {
        d.lanes = lanes == (1 << 30) ? 0 : lanes;
        // NVLink 3/4 carry 25 GB/s per link per direction; else the catalogue figure.
        d.bytes_s = d.fabric == "nvlink" && d.lanes > 0 ? d.lanes * 25e9 : sku.fabric_bytes_s;
        out.push_back(d);
        for (int m : d.devices) left.erase(std::find(left.begin(), left.end(), m));
      } else if (!any_link && scale_up_fabric(sku.fabric)) {
        // Nothing was detected about links: assume the SKU's platform fabric.
        Domain a;
        a.devices = left;
        a.fabric = sku.fabric;
        a.bytes_s = sku.fabric_bytes_s;
        a.assumed = true;
        out.push_back(a);
        break;
      } else {
        left.erase(left.begin());
      }
    }
  }
  return out;
}

namespace {

double slow_link(const DeviceSet& set, int a, int b) {
  // Between stages: PCIe (or the SKU's host link for GPU <-> CPU).
  const auto& da = set.devices[a];
  const auto& db = set.devices[b];
  const PlanDevice& gpu = da.cpu ? db : da;
  if ((da.cpu || db.cpu) && gpu.sku && gpu.sku->host_link_bytes_s > 0)
    return gpu.sku->host_link_bytes_s;
  return 32e9;  // PCIe Gen4 x16 per direction
}

Plan make_pipeline(const ModelCost& c, const DeviceSet& set,
                   const std::vector<std::vector<int>>& groups, PlanKind kind) {
  Plan p;
  p.kind = kind;
  p.tp = static_cast<int>(groups.front().size());
  std::vector<double> room;
  bool pipeline = groups.size() >= 2;
  for (const auto& g : groups)
    for (int d : g) pipeline &= !set.devices[d].cpu;
  for (std::size_t i = 0; i < groups.size(); ++i) {
    Stage s;
    s.devices = groups[i];
    s.embedding = i == 0;
    s.head = i + 1 == groups.size();
    int tp = static_cast<int>(s.devices.size());
    double min_room = 1e300;
    for (int d : s.devices) {
      const auto& dev = set.devices[d];
      min_room = std::min(min_room, (dev.capacity - stage_fixed(c, s, dev, tp, pipeline)) * tp);
    }
    room.push_back(min_room);
    p.stages.push_back(s);
  }
  double per_layer = c.weights.per_layer + kv_per_layer(c);
  std::vector<int> n;
  if (kind == PlanKind::offload) {
    // As many layers as fit on the accelerator; the rest on the CPU.
    int on_gpu =
        per_layer > 0 ? static_cast<int>(std::max(0.0, room[0]) / per_layer) : c.spec.layers;
    on_gpu = std::min(on_gpu, c.spec.layers);
    n = {on_gpu, c.spec.layers - on_gpu};
  } else {
    n = balance_layers(room, per_layer, c.spec.layers);
  }
  int first = 0;
  for (std::size_t i = 0; i < p.stages.size(); ++i) {
    p.stages[i].first_layer = first;
    p.stages[i].layer_count = n[i];
    first += n[i];
  }
  if (groups.size() > 1) {
    p.pp_link_bytes_s = slow_link(set, groups[0].front(), groups[1].front());
    p.pp_link = set.devices[groups[1].front()].cpu ? "host memory" : "pcie";
  }
  fill_shards(p, c, set);
  return p;
}

}  // namespace

std::vector<Plan> candidate_plans(const ModelCost& c, const DeviceSet& set) {
  std::vector<Plan> out;
  std::vector<int> accel;
  int cpu = -1;
  for (std::size_t i = 0; i < set.devices.size(); ++i) {
    if (set.devices[i].cpu) {
      if (cpu < 0) cpu = static_cast<int>(i);
    } else {
      accel.push_back(static_cast<int>(i));
    }
  }
  // Single device: the first of each distinct kind of device.
  std::set<std::string> kinds;
  for (int i : accel) {
    const auto& d = set.devices[i];
    std::string key =
        (d.sku ? d.sku->id : d.name) + "/" + std::to_string(int64_t(d.capacity / 1e8));
    if (!kinds.insert(key).second) continue;
    out.push_back(make_pipeline(c, set, {{i}}, PlanKind::single));
  }
  if (accel.empty() && cpu >= 0) out.push_back(make_pipeline(c, set, {{cpu}}, PlanKind::single));
  // Tensor parallel inside each fast domain; the degree divides the heads.
  auto domains = fast_domains(set);
  for (const auto& dom : domains) {
    for (int t = 2; t <= static_cast<int>(dom.devices.size()); t *= 2) {
      if (c.spec.heads % t != 0) continue;
      std::vector<int> g(dom.devices.begin(), dom.devices.begin() + t);
      Plan p = make_pipeline(c, set, {g}, PlanKind::tensor);
      p.link = dom.fabric + (dom.lanes ? " x" + std::to_string(dom.lanes) : "") +
               (dom.assumed ? " (assumed: not detected; the SKU's platform fabric)" : "");
      p.link_bytes_s = dom.bytes_s;
      out.push_back(p);
    }
  }
  // Tensor parallel inside domains, pipeline across equal domains.
  std::map<std::size_t, std::vector<const Domain*>> by_size;
  for (const auto& d : domains) by_size[d.devices.size()].push_back(&d);
  for (const auto& [size, list] : by_size) {
    if (list.size() < 2 || c.spec.heads % static_cast<int>(size) != 0) continue;
    std::vector<std::vector<int>> groups;
    for (const auto* d : list) groups.push_back(d->devices);
    Plan p = make_pipeline(c, set, groups, PlanKind::tensor_pipeline);
    p.link = list.front()->fabric;
    p.link_bytes_s = list.front()->bytes_s;
    out.push_back(p);
  }
  // Pipeline across every accelerator (mixed kinds allowed), layers by memory.
  if (accel.size() >= 2) {
    std::vector<std::vector<int>> groups;
    for (int i : accel) groups.push_back({i});
    out.push_back(make_pipeline(c, set, groups, PlanKind::pipeline));
  }
  // Offload to host memory (llama.cpp -ngl): not on unified memory, where the
  // CPU's memory is the same memory.
  // Only when the accelerator alone is too small: otherwise nothing would move.
  if (cpu >= 0 && !accel.empty() && !set.devices[accel.front()].unified &&
      !make_pipeline(c, set, {{accel.front()}}, PlanKind::single).fits()) {
    out.push_back(make_pipeline(c, set, {{accel.front()}, {cpu}}, PlanKind::offload));
  }
  return out;
}

}  // namespace hwaccel::plan
