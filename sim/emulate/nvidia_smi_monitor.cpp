// nvidia-smi's monitors and process queries on a simulated host: `dmon -c N`,
// `pmon -c N`, `--query-compute-apps=... --format=csv` and `-h`. Formats from the
// real captures in /work/shared/real-captures/ (driver 590.48.01 and 595: dmon's
// and pmon's two `#` header lines and column widths, pmon's one dash row per GPU
// when no process runs, --query-compute-apps' header with no rows on an idle GPU,
// its field list from --help-query-compute-apps). No process runs on a simulated
// GPU; dmon's figures are the recorded --query-gpu cells, `-` where none was
// recorded (and for utilisation in MIG mode, as the H100 MIG capture prints).
#include <cstdio>

#include "sim/emulate/nvidia_smi.h"
#include "src/probe/nvidia_smi_csv.h"

namespace hwaccel::sim {
namespace {

// A recorded cell as dmon prints it: the whole number before any unit or decimal
// point ("77.71 W" -> "77"); "-" where there is none.
std::string dmon_cell(const NvGpu& g, const char* field) {
  auto it = g.recorded.find(field);
  if (it == g.recorded.end() || is_no_value(it->second)) return "-";
  std::string digits;
  for (char c : it->second) {
    if (c < '0' || c > '9') break;
    digits += c;
  }
  return digits.empty() || digits.size() > 6 ? "-" : digits;
}

std::string column(const std::string& text, int width) {
  char buf[64];
  std::snprintf(buf, sizeof buf, " %*s", width, text.c_str());
  return buf;
}

std::string index_cell(int index) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%5d", index);
  return buf;
}

struct ComputeAppField {
  const char* name;   // as the header prints it
  const char* alias;  // the other spelling --help-query-compute-apps gives, or ""
  const char* unit;
};
// --help-query-compute-apps (590.48.01), in its order.
const ComputeAppField kComputeAppFields[] = {
    {"timestamp", "", ""},        {"gpu_name", "", ""},
    {"gpu_bus_id", "", ""},       {"gpu_serial", "", ""},
    {"gpu_uuid", "", ""},         {"pid", "", ""},
    {"process_name", "name", ""}, {"used_gpu_memory", "used_memory", "MiB"},
};

}  // namespace

std::string nvsmi_dmon(const NvModel& m, const std::vector<int>& gpus, int samples) {
  std::string out =
      "# gpu    pwr  gtemp  mtemp     sm    mem    enc    dec    jpg    ofa   mclk   pclk \n"
      "# Idx      W      C      C      %      %      %      %      %      %    MHz    MHz \n";
  for (int s = 0; s < samples; ++s)
    for (int i : gpus) {
      const NvGpu& g = m.gpus[i];
      const bool mig = !g.migs.empty();  // NVML has no utilisation for a GPU in MIG mode
      auto util = [&](const char* f) { return mig ? std::string("-") : dmon_cell(g, f); };
      std::string line =
          index_cell(g.index) + column(dmon_cell(g, "power.draw"), 6) +
          column(dmon_cell(g, "temperature.gpu"), 6) +
          column(dmon_cell(g, "temperature.memory"), 6) + column(util("utilization.gpu"), 6) +
          column(util("utilization.memory"), 6) + column(util("utilization.encoder"), 6) +
          column(util("utilization.decoder"), 6) + column(util("utilization.jpeg"), 6) +
          column(util("utilization.ofa"), 6) + column(dmon_cell(g, "clocks.current.memory"), 6) +
          column(dmon_cell(g, "clocks.current.graphics"), 6);
      out += line + " \n";
    }
  return out;
}

std::string nvsmi_pmon(const NvModel& m, const std::vector<int>& gpus, int samples) {
  std::string out =
      "# gpu         pid   type     sm    mem    enc    dec    jpg    ofa    command \n"
      "# Idx           #    C/G      %      %      %      %      %      %    name \n";
  for (int s = 0; s < samples; ++s)
    for (int i : gpus) {
      std::string line = index_cell(m.gpus[i].index) + column("-", 10) + column("-", 5);
      for (int c = 0; c < 6; ++c) line += column("-", 6);
      out += line + "    -              \n";
    }
  return out;
}

ToolAnswer nvsmi_query_compute_apps(const std::string& fields, CsvFormat format) {
  std::string header;
  std::size_t at = 0;
  while (at <= fields.size()) {
    auto comma = fields.find(',', at);
    std::string f = fields.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    const ComputeAppField* known = nullptr;
    for (const auto& c : kComputeAppFields)
      if (f == c.name || (*c.alias && f == c.alias)) known = &c;
    if (!known)
      return {"Field \"" + f +
                  "\" is not a valid field to query.\n\n"
                  "See 'nvidia-smi --help-query-compute-apps' for more information.\n",
              "", 2};
    header += std::string(header.empty() ? "" : ", ") + known->name +
              (*known->unit ? std::string(" [") + known->unit + "]" : "");
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  // No process runs on a simulated GPU: the header alone, as on an idle real one.
  return {format.header ? header + "\n" : "", "", 0};
}

std::string nvsmi_help(const NvModel& m) {
  return "NVIDIA System Management Interface -- v" +
         (m.driver_version.empty() ? std::string("N/A") : m.driver_version) +
         " (hwsim's stand-in)\n"
         "\n"
         "This nvidia-smi answers from a recorded host's snapshot (hwsim run). It runs\n"
         "nothing on a GPU and changes no setting. Answered, in the real tool's formats:\n"
         "\n"
         "    nvidia-smi                       the summary table\n"
         "    -L, --list-gpus                  the GPUs and their MIG devices\n"
         "    -q [-x] [-d MEMORY]              the query report (text or XML)\n"
         "    --query-gpu=FIELDS --format=csv[,noheader][,nounits]\n"
         "    --help-query-gpu                 the fields --query-gpu takes\n"
         "    --query-compute-apps=FIELDS --format=csv[,noheader][,nounits]\n"
         "                                     no rows: no process runs here\n"
         "    dmon -c N [-i ID]                N samples of the recorded figures\n"
         "    pmon -c N [-i ID]                N samples: no process runs here\n"
         "    topo -m, nvlink -s               the topology matrix, NVLink status\n"
         "    mig -lgi | -lgip | -lci [-i ID]  MIG instances and profiles\n"
         "    -i, --id=ID                      an index, UUID or bus id (comma list)\n"
         "    --version, -h, --help\n"
         "\n"
         "Any argv the snapshot recorded answers as recorded. Everything else (loops,\n"
         "-f FILE, settings, other query families) is not emulated and says so.\n"
         "Figures a snapshot did not record print [N/A] (dmon: -).\n";
}

}  // namespace hwaccel::sim
