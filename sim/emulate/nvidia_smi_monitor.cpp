// nvidia-smi's monitors and process queries on a simulated host: `dmon -c N`,
// `pmon -c N`, `--query-compute-apps=... --format=csv` and `-h`. Formats from the
// real captures in /work/shared/real-captures/ (driver 590.48.01 and 595: dmon's
// and pmon's two `#` header lines and column widths, pmon's one dash row per GPU
// when no process runs, --query-compute-apps' header with no rows on an idle GPU,
// its field list from --help-query-compute-apps; pmon's process rows from the
// H200 load capture). Nothing runs on a simulated GPU: the processes shown are
// those a recorded --query-compute-apps listed (none where none was recorded),
// their per-process utilisation `-` (not recorded per process); dmon's figures
// are the recorded --query-gpu cells, `-` where none was recorded (and for
// utilisation in MIG mode, as the H100 MIG capture prints).
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

// pmon's command column: the program's file name, left-aligned in 15 places
// (the capture's "gpu_burn       " for ./gpu_burn); "-" when none was recorded.
std::string command_cell(const std::string& name) {
  std::string base = name.substr(name.rfind('/') == std::string::npos ? 0 : name.rfind('/') + 1);
  if (base.empty()) base = "-";
  for (char& c : base)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  if (base.size() < 15) base += std::string(15 - base.size(), ' ');
  return "    " + base;
}

std::string nvsmi_pmon(const NvModel& m, const std::vector<int>& gpus, int samples) {
  std::string out =
      "# gpu         pid   type     sm    mem    enc    dec    jpg    ofa    command \n"
      "# Idx           #    C/G      %      %      %      %      %      %    name \n";
  for (int s = 0; s < samples; ++s)
    for (int i : gpus) {
      const NvGpu& g = m.gpus[i];
      if (g.processes.empty()) {
        std::string line = index_cell(g.index) + column("-", 10) + column("-", 5);
        for (int c = 0; c < 6; ++c) line += column("-", 6);
        out += line + "    -              \n";
        continue;
      }
      for (const auto& p : g.processes) {
        std::string line = index_cell(g.index) + column(std::to_string(p.pid), 10) + column("C", 5);
        for (int c = 0; c < 6; ++c) line += column("-", 6);
        out += line + command_cell(p.name) + "\n";
      }
    }
  return out;
}

ToolAnswer nvsmi_query_compute_apps(const NvModel& m, const std::vector<int>& gpus,
                                    const std::string& fields, CsvFormat format,
                                    const std::string& when) {
  std::string header;
  std::vector<const ComputeAppField*> asked;
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
    asked.push_back(known);
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  // A row per recorded process of each GPU asked for (the header alone where
  // none was recorded, as on an idle real GPU).
  std::string out = format.header ? header + "\n" : "";
  auto na = [](const std::string& s) { return s.empty() ? std::string("[N/A]") : s; };
  for (int i : gpus) {
    const NvGpu& g = m.gpus[i];
    auto serial = g.recorded.find("serial");
    for (const auto& p : g.processes) {
      std::string row;
      for (const ComputeAppField* f : asked) {
        const std::string name = f->name;
        std::string cell;
        if (name == "timestamp") cell = nvsmi_timestamp(when);
        if (name == "gpu_name") cell = na(g.name);
        if (name == "gpu_bus_id") cell = na(g.bus_id);
        if (name == "gpu_serial") cell = serial == g.recorded.end() ? "[N/A]" : serial->second;
        if (name == "gpu_uuid") cell = na(g.uuid);
        if (name == "pid") cell = std::to_string(p.pid);
        if (name == "process_name") cell = na(p.name);
        if (name == "used_gpu_memory")
          cell = !p.used_bytes ? "[N/A]"
                               : std::to_string(*p.used_bytes >> 20) + (format.units ? " MiB" : "");
        row += (row.empty() ? "" : ", ") + cell;
      }
      out += row + "\n";
    }
  }
  return {out, "", 0};
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
         "    -q [-x] [-d NAME,...]            the query report (text or XML), or its sections\n"
         "    --query-gpu=FIELDS --format=csv[,noheader][,nounits]\n"
         "    --help-query-gpu                 the fields --query-gpu takes\n"
         "    --query-compute-apps=FIELDS --format=csv[,noheader][,nounits]\n"
         "                                     the processes the snapshot recorded\n"
         "    dmon -c N [-i ID]                N samples of the recorded figures\n"
         "    pmon -c N [-i ID]                N samples of the recorded processes\n"
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
