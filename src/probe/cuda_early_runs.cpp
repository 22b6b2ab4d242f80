#include "src/probe/cuda_early_runs.h"

#include "src/probe/cuda_probe.h"

namespace hwaccel {

CudaEarlyRuns cuda_start_with_query(Host& host, const std::vector<KernelGpu>& bus,
                                    const std::vector<std::string>& fields) {
  std::size_t on_bus = 0;
  for (const auto& gpu : bus) on_bus += gpu.address.empty() ? 0 : 1;
  std::vector<std::vector<std::string>> argvs = {cuda_query_argv(fields)};
  const bool list = !bus.empty() && host.knows_run(cuda_list_argv());
  const bool topology = on_bus > 1 && host.knows_run(cuda_topology_argv());
  const bool addressing = !bus.empty() && host.knows_run(cuda_addressing_mode_argv());
  if (list) argvs.push_back(cuda_list_argv());
  if (topology) argvs.push_back(cuda_topology_argv());
  if (addressing) argvs.push_back(cuda_addressing_mode_argv());
  auto runs =
      argvs.size() == 1 ? std::vector<ToolRun>{host.run(argvs.front())} : host.run_many(argvs);
  runs.resize(argvs.size());  // a host that answered fewer: the rest are not-started runs
  CudaEarlyRuns early;
  std::size_t at = 0;
  early.query = std::move(runs[at++]);
  if (list) early.list = std::move(runs[at++]);
  if (topology) early.topology = std::move(runs[at++]);
  if (addressing) early.addressing = std::move(runs[at++]);
  return early;
}

}  // namespace hwaccel
