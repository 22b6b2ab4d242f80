#include "src/probe/cuda_topology.h"

#include <algorithm>

#include "src/probe/cuda_tool.h"

namespace hwaccel {

void cuda_add_topology(const ToolRun& run, ProbeResult& result) {
  if (!run.ok()) {
    result.warnings.push_back(cuda_warning("nvidia-smi topo -m failed (" +
                                           cuda_reason_text(cuda_run_reason(run)) +
                                           "); no links between GPUs"));
    return;
  }
  auto topo = parse_nvidia_smi_topo(run.out);
  for (const auto& problem : topo.problems)
    result.warnings.push_back(cuda_warning("nvidia-smi topo -m: " + problem));
  cuda_apply_topology(topo, "tool:nvidia-smi topo -m", result);
}

void cuda_apply_topology(const NvidiaTopology& topo, const std::string& provenance,
                         ProbeResult& result) {
  const std::string what = provenance.substr(provenance.find(':') + 1);
  auto whole_gpu = [&](int index) -> Entry* {
    for (auto& e : result.entries)
      if (!e.partition && e.index == index) return &e;
    return nullptr;
  };
  for (const auto& gpu : topo.gpus) {
    Entry* e = whole_gpu(gpu.gpu);
    if (!e) continue;
    e->cpu_affinity = gpu.cpu_affinity;
    if (!e->numa_node) e->numa_node = gpu.numa_node;  // sysfs first: it is per device
    if (std::find(e->provenance.begin(), e->provenance.end(), provenance) == e->provenance.end())
      e->provenance.push_back(provenance);
  }
  for (const auto& link : topo.links) {
    Entry* a = whole_gpu(link.a);
    Entry* b = whole_gpu(link.b);
    if (!a || !b) {
      result.warnings.push_back(cuda_warning(what + ": GPU" + std::to_string(link.a) + "-GPU" +
                                             std::to_string(link.b) +
                                             " names a GPU the query did not list"));
      continue;
    }
    Link l;
    l.a = std::min(a->physical_id, b->physical_id);
    l.b = std::max(a->physical_id, b->physical_id);
    l.kind = link.kind;
    l.lanes = link.lanes;
    l.path = link.path;
    l.source = provenance;
    result.links.push_back(std::move(l));
  }
  std::sort(result.links.begin(), result.links.end());
}

}  // namespace hwaccel
