// The nvidia-smi emulator (sim/emulate/tool_emulator.h): any argv answered from the
// host's NVIDIA GPUs in nvidia-smi's own formats. Sources of each format are named
// in the file that prints it (nvidia_smi_table.cpp, nvidia_smi_query.cpp).
#pragma once

#include <string>
#include <vector>

#include "sim/emulate/nvidia_smi_model.h"
#include "sim/emulate/tool_emulator.h"

namespace hwaccel::sim {

ToolAnswer emulate_nvidia_smi(const EmulatedHost& host, const std::vector<std::string>& argv);

// The formats, for the dispatcher and the tests. `gpus` are indices into m.gpus.
std::string nvsmi_list(const NvModel& m, const std::vector<int>& gpus);
std::string nvsmi_table(const NvModel& m, const std::vector<int>& gpus, const std::string& when);
std::string nvsmi_topo(const NvModel& m);
std::string nvsmi_nvlink_status(const NvModel& m, const std::vector<int>& gpus);
struct CsvFormat {
  bool header = true, units = true;
};
ToolAnswer nvsmi_query_gpu(const NvModel& m, const std::vector<int>& gpus,
                           const std::string& fields, CsvFormat format, const std::string& when);
std::string nvsmi_q(const NvModel& m, const std::vector<int>& gpus,
                    const std::vector<std::string>& display, const std::string& when);
std::string nvsmi_q_xml(const NvModel& m, const std::vector<int>& gpus, const std::string& when);

// `nvidia-smi mig -lgi`, `-lgip`, `-lci` (nvidia_smi_mig.cpp), and whether a GPU
// has MIG at all.
ToolAnswer nvsmi_mig_lgi(const NvModel& m, const std::vector<int>& gpus);
ToolAnswer nvsmi_mig_lgip(const NvModel& m, const std::vector<int>& gpus);
ToolAnswer nvsmi_mig_lci(const NvModel& m, const std::vector<int>& gpus);
bool nvsmi_mig_capable(const NvGpu& g);

// `dmon -c N`, `pmon -c N`, `--query-compute-apps` and `-h` (nvidia_smi_monitor.cpp).
std::string nvsmi_dmon(const NvModel& m, const std::vector<int>& gpus, int samples);
std::string nvsmi_pmon(const NvModel& m, const std::vector<int>& gpus, int samples);
ToolAnswer nvsmi_query_compute_apps(const NvModel& m, const std::vector<int>& gpus,
                                    const std::string& fields, CsvFormat format,
                                    const std::string& when);
std::string nvsmi_help(const NvModel& m);

// The snapshot's recorded_at ("2024-03-01T10:00:00Z") as the table's header prints
// a time ("Fri Mar  1 10:00:00 2024") and as --query-gpu's timestamp does
// ("2024/03/01 10:00:00.000"); a fixed epoch where it is not a time.
std::string nvsmi_clock_text(const std::string& recorded_at);
std::string nvsmi_timestamp(const std::string& recorded_at);

}  // namespace hwaccel::sim
