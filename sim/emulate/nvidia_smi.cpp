// nvidia-smi's argv, as the real tool reads it (its -h, driver 590.48.01, in
// /work/shared/real-captures/nvidia-smi__linux-x86_64__nvidia-h200__590.48.01.txt):
// -L, -q [-x] [-d LIST], --query-gpu=FIELDS --format=csv[,noheader][,nounits],
// -i/--id=ID[,ID] (an index, a UUID or a bus id), --version, --help-query-gpu,
// topo -m, nvlink -s, mig -lgi/-lgip/-lci [-i ID] (nvidia_smi_mig.cpp), dmon and
// pmon -c N [-i ID], --query-compute-apps, -h (nvidia_smi_monitor.cpp). Other
// sub-commands and forms answer only as recorded.
#include "sim/emulate/nvidia_smi.h"

#include <algorithm>
#include <cctype>

#include "sim/emulate/nvidia_smi_fields.h"
#include "sim/emulate/nvidia_smi_sections.h"
#include "src/snapshot/recorded_time.h"

namespace hwaccel::sim {
namespace {

// nvidia-smi's words for an argv it does not take (not in the captures: as the
// tool prints it, on stdout, status 2: NVIDIA's "invalid argument" exit code).
ToolAnswer invalid_arguments() {
  return {"Invalid combination of input arguments. Please run 'nvidia-smi -h' for help.\n\n", "",
          2};
}

ToolAnswer no_devices() {
  return {"No devices were found\n", "", 6};
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// "-i 0,1", a UUID, a bus id (any domain width, any case): indices, or nullopt.
std::optional<std::vector<int>> select(const NvModel& m, const std::string& ids) {
  std::vector<int> out;
  std::size_t at = 0;
  while (at <= ids.size()) {
    auto comma = ids.find(',', at);
    std::string id = ids.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    int found = -1;
    for (const auto& g : m.gpus) {
      bool digits = !id.empty() && id.size() < 6 &&
                    std::all_of(id.begin(), id.end(), [](char c) { return std::isdigit(c); });
      if ((digits && std::stoi(id) == g.index) || (!g.uuid.empty() && id == g.uuid) ||
          (!g.bus_id.empty() && !id.empty() &&
           (lower(id) == lower(g.bus_id) || lower(id) == lower(g.bus_id.substr(4)))))
        found = g.index;
    }
    if (found < 0) return std::nullopt;
    if (std::find(out.begin(), out.end(), found) == out.end()) out.push_back(found);
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return out;
}

// The answer recorded for another spelling of the same question, if any.
std::optional<ToolAnswer> recorded(const EmulatedHost& host, const std::vector<std::string>& args) {
  for (const auto& [argv, tool] : host.snapshot.tools) {
    if (argv.size() != args.size() + 1 || tool.run.outcome != ToolOutcome::exited) continue;
    std::string base =
        argv[0].substr(argv[0].rfind('/') == std::string::npos ? 0 : argv[0].rfind('/') + 1);
    if (base != "nvidia-smi" || !std::equal(args.begin(), args.end(), argv.begin() + 1)) continue;
    return ToolAnswer{tool.run.out, tool.run.err, tool.run.exit_code};
  }
  return std::nullopt;
}

std::string version_text(const NvModel& m) {
  // `nvidia-smi --version` (real-captures, 590.48.01).
  auto na = [](const std::string& s) { return s.empty() ? std::string("N/A") : s; };
  std::string nvml = m.driver_version;
  if (auto dot = nvml.find('.'); dot != std::string::npos)
    if (auto second = nvml.find('.', dot + 1); second != std::string::npos)
      nvml = nvml.substr(0, second);
  return "NVIDIA-SMI version  : " + na(m.driver_version) + "\nNVML version        : " + na(nvml) +
         "\nDRIVER version      : " + na(m.driver_version) +
         "\nCUDA Version        : " + na(m.cuda_version) + "\n";
}

// `mig -lgi|-lgip|-lci [-i ID]` (long spellings already made short), or nullopt
// for the mig forms the host model cannot answer.
std::optional<ToolAnswer> mig(const NvModel& m, const std::vector<std::string>& rest) {
  std::string list, ids;
  bool has_ids = false;
  for (std::size_t i = 0; i < rest.size(); ++i) {
    const std::string& a = rest[i];
    if (a == "-lgi" || a == "-lgip" || a == "-lci" || a == "--list-compute-instances") {
      if (!list.empty()) return invalid_arguments();
      list = a == "--list-compute-instances" ? "-lci" : a;
    } else if ((a == "-i" || a == "--id") && i + 1 < rest.size()) {
      ids = rest[++i];
      has_ids = true;
    } else if (a.rfind("--id=", 0) == 0) {
      ids = a.substr(5);
      has_ids = true;
    } else {
      return std::nullopt;
    }
  }
  if (list.empty()) return std::nullopt;
  std::vector<int> gpus;
  if (has_ids) {
    auto picked = select(m, ids);
    if (!picked) return no_devices();
    gpus = *picked;
  } else {
    for (const auto& g : m.gpus) gpus.push_back(g.index);
  }
  if (list == "-lgi") return nvsmi_mig_lgi(m, gpus);
  if (list == "-lci") return nvsmi_mig_lci(m, gpus);
  return nvsmi_mig_lgip(m, gpus);
}

// `dmon`/`pmon` with `-c N` (and `-i ID`, `-d SECONDS`: samples come at once, the
// recorded figures each time); nullopt for the forms the host model cannot answer
// (no -c: the real tool samples until interrupted; metric and output options).
std::optional<ToolAnswer> monitor(const NvModel& m, const std::string& which,
                                  const std::vector<std::string>& rest) {
  int count = 0;
  std::string ids;
  bool has_ids = false;
  for (std::size_t i = 0; i < rest.size(); ++i) {
    const std::string& a = rest[i];
    if (i + 1 >= rest.size()) return std::nullopt;
    const std::string& v = rest[++i];
    if (a == "-c" || a == "--count") {
      if (v.empty() || v.size() > 4 ||
          !std::all_of(v.begin(), v.end(), [](char c) { return std::isdigit(c); }))
        return invalid_arguments();
      count = std::stoi(v);
    } else if (a == "-i" || a == "--id") {
      ids = v;
      has_ids = true;
    } else if (a != "-d" && a != "--delay") {
      return std::nullopt;
    }
  }
  if (count <= 0) return std::nullopt;
  std::vector<int> gpus;
  if (has_ids) {
    auto picked = select(m, ids);
    if (!picked) return no_devices();
    gpus = *picked;
  } else {
    for (const auto& g : m.gpus) gpus.push_back(g.index);
  }
  return ToolAnswer{which == "dmon" ? nvsmi_dmon(m, gpus, count) : nvsmi_pmon(m, gpus, count), "",
                    0};
}

}  // namespace

ToolAnswer emulate_nvidia_smi(const EmulatedHost& host, const std::vector<std::string>& argv) {
  const NvModel m = nvidia_model(host);
  if (m.failure) return *m.failure;
  const std::vector<std::string> args(argv.begin() + (argv.empty() ? 0 : 1), argv.end());
  // The recording's time: recorded_at, else the time a recorded output printed.
  const std::string when = recorded_time_of(host.snapshot);
  if (!args.empty() && (args[0] == "dmon" || args[0] == "pmon")) {
    if (auto r = recorded(host, args)) return *r;
    if (auto answer = monitor(m, args[0], std::vector<std::string>(args.begin() + 1, args.end())))
      return *answer;
    return {"",
            "hwsim: nvidia-smi " + args[0] +
                ": not emulated without -c N (the real tool samples until interrupted), "
                "nor with its metric or output options\n",
            2};
  }
  if (args.size() == 1 && (args[0] == "-h" || args[0] == "--help")) return {nvsmi_help(m), "", 0};
  if (!args.empty() && (args[0] == "topo" || args[0] == "nvlink" || args[0] == "mig")) {
    // Another spelling of a recorded question first (`topo --matrix` for `topo -m`).
    std::vector<std::string> rest(args.begin() + 1, args.end());
    for (auto& r : rest)
      if (r == "--matrix")
        r = "-m";
      else if (r == "--status")
        r = "-s";
      else if (r == "--list-gpu-instances")
        r = "-lgi";
      else if (r == "--list-gpu-instance-profiles")
        r = "-lgip";
    std::vector<std::string> canonical = {args[0]};
    canonical.insert(canonical.end(), rest.begin(), rest.end());
    if (auto r = recorded(host, canonical)) return *r;
    if (args[0] == "topo" && rest == std::vector<std::string>{"-m"}) return {nvsmi_topo(m), "", 0};
    if (args[0] == "nvlink" && rest == std::vector<std::string>{"-s"}) {
      std::vector<int> all;
      for (const auto& g : m.gpus) all.push_back(g.index);
      return {nvsmi_nvlink_status(m, all), "", 0};
    }
    if (args[0] == "mig") {
      if (auto answer = mig(m, rest)) return *answer;
    }
    // Not in the host model: say so the way the tool does for what it cannot show.
    return {"", "hwsim: nvidia-smi " + args[0] + ": not emulated (not recorded in the snapshot)\n",
            2};
  }
  if (args.size() == 1 && args[0] == "--help-query-gpu")
    return {help_query_gpu(m.driver_version), "", 0};
  bool list = false, query = false, xml = false, version = false;
  std::string ids, fields, format, apps;
  bool has_ids = false, has_fields = false, has_format = false, has_apps = false;
  std::vector<std::string> display;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](const std::string& longname, std::string& into, bool& given) {
      if (a.rfind(longname + "=", 0) == 0) {
        into = a.substr(longname.size() + 1);
      } else if (i + 1 < args.size()) {
        into = args[++i];
      } else {
        return false;
      }
      given = true;
      return true;
    };
    bool ok = true, ignored = false;
    if (a == "-L" || a == "--list-gpus")
      list = true;
    else if (a == "-q" || a == "--query")
      query = true;
    else if (a == "-x" || a == "--xml-format")
      xml = true;
    else if (a == "--version")
      version = true;
    else if (a == "-i" || a.rfind("--id", 0) == 0)
      ok = value(a == "-i" ? "-i" : "--id", ids, has_ids);
    else if (a == "-d" || a.rfind("--display", 0) == 0) {
      std::string d;
      ok = value(a == "-d" ? "-d" : "--display", d, ignored);
      std::size_t at = 0;
      while (ok && at <= d.size()) {
        auto comma = d.find(',', at);
        display.push_back(
            d.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
        ok = display_sections(display.back()).has_value();
        if (comma == std::string::npos) break;
        at = comma + 1;
      }
    } else if (a.rfind("--query-gpu", 0) == 0)
      ok = value("--query-gpu", fields, has_fields);
    else if (a.rfind("--query-compute-apps", 0) == 0)
      ok = value("--query-compute-apps", apps, has_apps);
    else if (a.rfind("--format", 0) == 0)
      ok = value("--format", format, has_format);
    else
      ok = false;
    if (!ok) return invalid_arguments();
  }
  if (version) return {version_text(m), "", 0};
  std::vector<int> gpus;
  if (has_ids) {
    auto picked = select(m, ids);
    if (!picked) return no_devices();
    gpus = *picked;
  } else {
    for (const auto& g : m.gpus) gpus.push_back(g.index);
  }
  if (has_fields || has_apps) {
    if (!has_format || list || query || (has_fields && has_apps)) return invalid_arguments();
    CsvFormat f;
    bool csv = false;
    std::size_t at = 0;
    while (at <= format.size()) {
      auto comma = format.find(',', at);
      std::string w =
          format.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
      if (w == "csv")
        csv = true;
      else if (w == "noheader")
        f.header = false;
      else if (w == "nounits")
        f.units = false;
      else
        return invalid_arguments();
      if (comma == std::string::npos) break;
      at = comma + 1;
    }
    if (!csv) return invalid_arguments();
    if (has_apps) return nvsmi_query_compute_apps(m, gpus, apps, f, when);
    return nvsmi_query_gpu(m, gpus, fields, f, when);
  }
  if (has_format) return invalid_arguments();
  if (list) {
    if (query || xml) return invalid_arguments();
    return {nvsmi_list(m, gpus), "", 0};
  }
  if (query) {
    if (xml) return {nvsmi_q_xml(m, gpus, when), "", 0};
    return {nvsmi_q(m, gpus, display, when), "", 0};
  }
  if (xml || !display.empty()) return invalid_arguments();
  return {nvsmi_table(m, gpus, when), "", 0};
}

}  // namespace hwaccel::sim
