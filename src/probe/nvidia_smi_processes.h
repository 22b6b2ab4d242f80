// The compute processes a snapshot recorded on each GPU: the rows of a recorded
// `nvidia-smi --query-compute-apps=...,gpu_bus_id,pid,...,used_gpu_memory
// --format=csv` (with its header), as the simulated libnvidia-ml's process calls
// and the nvidia-smi stand-in (`--query-compute-apps`, `pmon`) report them. The CSV is hostile:
// rows are bounded in number and size, a row without a bus id or a pid is left out, and no figure
// is made up (a memory cell of "[N/A]" stays unknown).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hwaccel {

struct RecordedProcess {
  unsigned pid = 0;
  std::string name;                         // process_name, as printed; "" when not recorded
  std::optional<std::uint64_t> used_bytes;  // used_gpu_memory (MiB in the CSV)
};

// Processes by the GPU's bus id in sysfs spelling ("0000:83:00.0"), in recorded
// order; a pid listed twice for one GPU (nvidia-smi prints each once) is kept once.
std::map<std::string, std::vector<RecordedProcess>> recorded_processes(std::string_view csv);

}  // namespace hwaccel
