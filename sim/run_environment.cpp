#include "sim/run_environment.h"

#include <algorithm>

#include "sim/shim_script.h"
#include "sim/tool_spec.h"
#include "src/host/process_runner.h"

namespace hwaccel::sim {
namespace {

// --- the shapes values may have (each a small grammar; anything else is refused)

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_hex(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool is_lower_word(char c) {
  return (c >= 'a' && c <= 'z') || is_digit(c) || c == '-' || c == '_';
}

bool digits(std::string_view s, std::size_t max = 5) {
  return !s.empty() && s.size() <= max && std::all_of(s.begin(), s.end(), is_digit);
}

bool hex_dashes(std::string_view s) {
  return !s.empty() && s.size() <= 40 &&
         std::all_of(s.begin(), s.end(), [](char c) { return is_hex(c) || c == '-'; });
}

// Splits on ',' (an empty value is no item: "no device").
template <class Item>
bool comma_list(std::string_view value, Item item) {
  if (value.size() > 4096) return false;
  if (value.empty()) return true;
  std::size_t count = 0;
  while (true) {
    auto comma = value.find(',');
    if (!item(value.substr(0, comma)) || ++count > 256) return false;
    if (comma == std::string_view::npos) return true;
    value.remove_prefix(comma + 1);
  }
}

// An index (-1: none, as CUDA takes it), a GPU UUID or its prefix (GPU-..., ROCm's
// GPU-<16 hex>), a MIG UUID (MIG-...) or the older MIG-GPU-<uuid>/<gi>/<ci>.
bool device_item(std::string_view s) {
  if (!s.empty() && s[0] == '-') return s == "-1";
  if (digits(s)) return true;
  if (s.substr(0, 8) == "MIG-GPU-") {
    auto slash = s.find('/');
    if (slash == std::string_view::npos || !hex_dashes(s.substr(8, slash - 8))) return false;
    auto rest = s.substr(slash + 1);
    auto second = rest.find('/');
    return second != std::string_view::npos && digits(rest.substr(0, second), 3) &&
           digits(rest.substr(second + 1), 3);
  }
  if (s.substr(0, 4) == "GPU-" || s.substr(0, 4) == "MIG-") return hex_dashes(s.substr(4));
  return false;
}

bool device_list(std::string_view v) {
  return comma_list(v, device_item);
}
bool index_list(std::string_view v) {
  return comma_list(v, [](std::string_view s) { return digits(s); });
}
bool nvidia_devices(std::string_view v) {
  return v == "all" || v == "none" || v == "void" || device_list(v);
}
bool habana_devices(std::string_view v) {
  return v == "all" || index_list(v);
}
// Level Zero: DEVICE or DEVICE.SUBDEVICE.
bool ze_mask(std::string_view v) {
  return comma_list(v, [](std::string_view s) {
    auto dot = s.find('.');
    return dot == std::string_view::npos ? digits(s)
                                         : digits(s.substr(0, dot)) && digits(s.substr(dot + 1));
  });
}
// Neuron: CORE or FIRST-LAST.
bool core_ranges(std::string_view v) {
  return comma_list(v, [](std::string_view s) {
    auto dash = s.find('-');
    return dash == std::string_view::npos ? digits(s)
                                          : digits(s.substr(0, dash)) && digits(s.substr(dash + 1));
  });
}
// "2,2,1": a chip or process grid.
bool bounds(std::string_view v) {
  return !v.empty() && index_list(v);
}
bool count(std::string_view v) {
  return digits(v);
}
bool zero_or_one(std::string_view v) {
  return v == "0" || v == "1";
}
bool cuda_order(std::string_view v) {
  return v == "FASTEST_FIRST" || v == "PCI_BUS_ID";
}
bool ze_hierarchy(std::string_view v) {
  return v == "FLAT" || v == "COMPOSITE" || v == "COMBINED";
}
// SYCL's selector: `level_zero:0,1;opencl:gpu`, `!cuda:*`, `*:gpu.1`: its own
// alphabet, no space, quote, slash or shell character but the separators.
bool sycl_selector(std::string_view v) {
  return !v.empty() && v.size() <= 256 && std::all_of(v.begin(), v.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_' ||
           c == ':' || c == ';' || c == ',' || c == '.' || c == '!' || c == '*';
  });
}
// A short lower-case word: "v4-8", "v5litepod-16", "docker", "systemd-nspawn".
bool word(std::string_view v) {
  return !v.empty() && v.size() <= 40 && std::all_of(v.begin(), v.end(), is_lower_word);
}
// An IPv4 or IPv6 address (Kubernetes' service address).
bool address(std::string_view v) {
  return !v.empty() && v.size() <= 45 &&
         std::all_of(v.begin(), v.end(), [](char c) { return is_hex(c) || c == '.' || c == ':'; });
}

constexpr const char* kDevices = "a comma list of indices, GPU-/MIG- UUIDs (or \"\")";

// clang-format off
const std::vector<DeviceVariable> kAllowed = {
    {"CUDA_DEVICE_ORDER", "the CUDA runtime's device order", "FASTEST_FIRST or PCI_BUS_ID", cuda_order},
    {"CUDA_VISIBLE_DEVICES", "the CUDA runtime's visible GPUs and their order; hwaccel's CUDA probe reads it", kDevices, device_list},
    {"GPU_DEVICE_ORDINAL", "ROCm's OpenCL and HIP visible GPUs", "a comma list of indices", index_list},
    {"HABANA_VISIBLE_DEVICES", "Habana's container runtime: the Gaudi devices a container was given", "all or a comma list of indices", habana_devices},
    {"HABANA_VISIBLE_MODULES", "the Gaudi runtime's visible modules", "a comma list of indices", index_list},
    {"HIP_VISIBLE_DEVICES", "HIP's visible GPUs and their order", kDevices, device_list},
    {"KUBERNETES_SERVICE_HOST", "set in every Kubernetes pod; hwaccel's runtime check reads it", "an IP address", address},
    {"NEURON_RT_NUM_CORES", "the Neuron runtime's core count", "a number", count},
    {"NEURON_RT_VISIBLE_CORES", "the Neuron runtime's visible NeuronCores", "a comma list of cores or FIRST-LAST ranges", core_ranges},
    {"NVIDIA_VISIBLE_DEVICES", "NVIDIA's container toolkit: the GPUs a container was given; hwaccel's container check reads it", "all, none, void or a comma list of indices and UUIDs", nvidia_devices},
    {"ONEAPI_DEVICE_SELECTOR", "SYCL's (oneAPI) device selection", "a selector: letters, digits and _:;,.!*", sycl_selector},
    {"ROCR_VISIBLE_DEVICES", "the ROCm runtime's visible GPUs", kDevices, device_list},
    {"TPU_ACCELERATOR_TYPE", "GCE's TPU type (v4-8); hwaccel's TPU probe reads it", "a lower-case word", word},
    {"TPU_CHIPS_PER_PROCESS_BOUNDS", "libtpu's chip grid per process", "comma-separated numbers", bounds},
    {"TPU_PROCESS_BOUNDS", "libtpu's process grid", "comma-separated numbers", bounds},
    {"TPU_VISIBLE_CHIPS", "libtpu's visible chips", "a comma list of indices", index_list},
    {"ZE_AFFINITY_MASK", "Level Zero's (Intel GPUs) visible devices and sub-devices", "a comma list of N or N.M", ze_mask},
    {"ZE_ENABLE_PCI_ID_DEVICE_ORDER", "Level Zero's device order", "0 or 1", zero_or_one},
    {"ZE_FLAT_DEVICE_HIERARCHY", "Level Zero's device hierarchy", "FLAT, COMPOSITE or COMBINED", ze_hierarchy},
    {"container", "systemd's container marker; hwaccel's runtime check reads it", "a lower-case word", word},
};
// clang-format on

bool plain_hostname(std::string_view h) {
  return !h.empty() && h.size() <= 64 && h.front() != '-' && h.front() != '.' &&
         std::all_of(h.begin(), h.end(), [](char c) {
           return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '-' ||
                  c == '.' || c == '_';
         });
}

}  // namespace

const std::vector<DeviceVariable>& device_view_variables() {
  return kAllowed;
}

const DeviceVariable* find_device_variable(std::string_view name) {
  for (const auto& v : kAllowed)
    if (v.name == name) return &v;
  return nullptr;
}

DeviceView device_view(const Snapshot& snapshot) {
  DeviceView view;
  for (const auto& [key, value] : snapshot.env) {
    const DeviceVariable* allowed = find_device_variable(key);
    if (!allowed) {
      if (key != "PATH") view.not_passed.push_back(key);
      continue;
    }
    if (!allowed->valid(value)) {
      view.refused.push_back("env " + key + ": " + display_quote(value) + " is not " +
                             std::string(allowed->shape) + ": not passed on");
      continue;
    }
    view.passed.emplace(key, value);
  }
  return view;
}

std::string absolute_entries(std::string_view path) {
  std::string out;
  while (true) {
    auto colon = path.find(':');
    auto entry = path.substr(0, colon);
    if (!entry.empty() && entry[0] == '/') out += (out.empty() ? "" : ":") + std::string(entry);
    if (colon == std::string_view::npos) return out;
    path.remove_prefix(colon + 1);
  }
}

std::string not_passed_note(const DeviceView& view) {
  if (view.not_passed.empty()) return "";
  const auto n = view.not_passed.size();
  return std::to_string(n) + " recorded variable" + (n == 1 ? "" : "s") +
         " not passed on (the command gets this machine's environment and, of the snapshot's, "
         "only the device view: see docs/hwsim.md, \"The command's environment\"); " +
         (n == 1 ? "it stays" : "they stay") + " in the snapshot for replays";
}

std::map<std::string, std::string> run_environment(const Snapshot& snapshot,
                                                   const std::map<std::string, std::string>& here,
                                                   const std::string& shim_dir,
                                                   std::vector<std::string>* refused,
                                                   std::vector<std::string>* notes) {
  return run_environment(device_view(snapshot), here, shim_dir, refused, notes);
}

std::map<std::string, std::string> run_environment(const DeviceView& view,
                                                   const std::map<std::string, std::string>& here,
                                                   const std::string& shim_dir,
                                                   std::vector<std::string>* refused,
                                                   std::vector<std::string>* notes) {
  std::map<std::string, std::string> env;
  std::vector<std::string> left_here;
  for (const auto& [key, value] : here) {
    if (find_device_variable(key)) {
      if (!view.passed.count(key)) left_here.push_back(key);
      continue;
    }
    env.emplace(key, value);
  }
  for (const auto& [key, value] : view.passed) env[key] = value;
  auto path = here.find("PATH");
  std::string rest =
      absolute_entries(path != here.end() ? path->second : std::string(kDefaultSearchPath));
  if (rest.empty()) rest = std::string(kDefaultSearchPath);
  env["PATH"] = shim_dir.empty() ? rest : shim_dir + ":" + rest;
  if (refused) refused->insert(refused->end(), view.refused.begin(), view.refused.end());
  if (notes) {
    if (auto note = not_passed_note(view); !note.empty()) notes->push_back(note);
    for (const auto& key : left_here)
      notes->push_back("this machine's " + key +
                       " is not passed on (it describes this machine's devices; the snapshot "
                       "sets none)");
  }
  return env;
}

std::string env_sh(const DeviceView& view, const std::string& shim_dir) {
  std::string s =
      "# hwsim: the simulated host's device view for a shell on this machine "
      "(docs/hwsim.md).\n";
  std::string unset;
  for (const auto& v : kAllowed)
    if (!view.passed.count(std::string(v.name))) unset += " " + std::string(v.name);
  if (!unset.empty()) s += "unset" + unset + "\n";
  for (const auto& [k, v] : view.passed) s += "export " + k + "=" + shim_quote(v) + "\n";
  // This shell's own PATH, less what would search the current folder, after the shims.
  s += "hwsim_path=\nhwsim_rest=\"${PATH-}:\"\n";
  s += "while [ -n \"$hwsim_rest\" ]; do\n";
  s += "  hwsim_dir=${hwsim_rest%%:*}\n  hwsim_rest=${hwsim_rest#*:}\n";
  s += "  case $hwsim_dir in /*) hwsim_path=$hwsim_path:$hwsim_dir ;; esac\ndone\n";
  s += "[ -n \"$hwsim_path\" ] || hwsim_path=:" + shim_quote(kDefaultSearchPath) + "\n";
  s += "export PATH=" + shim_quote(shim_dir) + "\"$hwsim_path\"\n";
  s += "unset hwsim_path hwsim_rest hwsim_dir\n";
  if (s.find("\"$nl\"") != std::string::npos) s = "nl='\n'\n" + s;
  return s;
}

std::string run_hostname(const std::string& recorded, std::string* note) {
  if (plain_hostname(recorded)) return recorded;
  if (note)
    *note = "hostname " +
            (recorded.empty() ? std::string("(none recorded)") : display_quote(recorded)) + ": " +
            (recorded.size() > 64 ? "longer than the kernel takes (64 bytes)"
             : recorded.empty()   ? "this machine's would show"
                                  : "not a plain host name ([A-Za-z0-9.-_])") +
            ": the command sees " + kPlaceholderHostname;
  return kPlaceholderHostname;
}

}  // namespace hwaccel::sim
