// NVML's NVLink-fabric and virtualisation-capability getters (docs/nvml.md,
// "Health, fabric and system calls"), from what a recorded `--query-gpu` or `-q`
// printed: the fabric probe's state, status, clique and cluster and its health
// (fabric.*; Kubernetes' DRA driver and GPU Feature Discovery read the clique from
// here), the hostname set on the GPU, the vGPU heterogeneous mode and the vGPU
// capabilities nvidia-smi queries. A figure not recorded is NOT_SUPPORTED (what
// the real library answers where nvidia-smi printed [N/A]); MIG devices have none.
#include <cstring>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "nvml/nvml_abi.h"
#include "nvml/nvml_abi_v13.h"
#include "nvml/nvml_api_internal.h"
#include "nvml/nvml_fields.h"
#include "nvml/nvml_model.h"
#include "src/vocabulary/text_util.h"

using namespace hwaccel::nvml::api;
using hwaccel::nvml::Gpu;

extern "C" const char* nvmlErrorString(nvmlReturn_t result);

bool hwaccel::nvml::api::uuid_bytes(std::string_view text, unsigned char (&out)[16]) {
  if (text.substr(0, 4) == "GPU-" || text.substr(0, 4) == "MIG-") text.remove_prefix(4);
  unsigned n = 0;
  for (char c : text) {
    if (c == '-') continue;
    int d = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                   : -1;
    if (d < 0 || n >= 32) return false;
    out[n / 2] = static_cast<unsigned char>(n % 2 ? out[n / 2] | d : d << 4);
    ++n;
  }
  return n == 32;
}

namespace {
namespace fabric {  // named apart: the library's files share one unity batch

// The words nvidia-smi prints for a value (N/A: "" with NOT_SUPPORTED).
hwaccel::nvml::Field cell(const Gpu& gpu, const char* name) {
  return hwaccel::nvml::field_of(gpu.cells, name);
}

// A cell naming a value among `words`, else nullopt.
std::optional<unsigned> one_of(const hwaccel::nvml::Field& f,
                               std::initializer_list<std::pair<const char*, unsigned>> words) {
  if (f.status) return std::nullopt;
  const auto text = hwaccel::trim(f.text);
  for (const auto& [w, v] : words)
    if (text == w) return v;
  return std::nullopt;
}

// The fabric status as nvidia-smi printed it: nvmlErrorString's text ("Success").
std::optional<nvmlReturn_t> status_of(const Gpu& gpu) {
  auto it = gpu.cells.find("fabric.status");
  if (it == gpu.cells.end()) return std::nullopt;
  const auto text = hwaccel::trim(it->second);
  for (nvmlReturn_t r = 0; r <= NVML_ERROR_INVALID_STATE; ++r)
    if (text == nvmlErrorString(r)) return r;
  if (text == nvmlErrorString(NVML_ERROR_UNKNOWN)) return NVML_ERROR_UNKNOWN;
  return std::nullopt;
}

// One 2-bit health field (NVML_GPU_FABRIC_HEALTH_MASK_*): [N/A] is NOT_SUPPORTED (0),
// "Yes"/"True" TRUE (1), "No"/"False" FALSE (2); bandwidth "Degraded"/"Full".
std::optional<unsigned> health_bit(const Gpu& gpu, const char* name) {
  auto f = cell(gpu, name);
  if (f.status == NVML_ERROR_NOT_SUPPORTED) return 0u;
  return one_of(f,
                {{"Yes", 1}, {"True", 1}, {"Degraded", 1}, {"No", 2}, {"False", 2}, {"Full", 2}});
}

}  // namespace fabric
}  // namespace

// Fabric probe state and result (Hopper on). v2 and v3 share the layout up to v3's
// healthSummary.
NVML_API nvmlReturn_t nvmlDeviceGetGpuFabricInfoV(nvmlDevice_t device,
                                                  nvmlGpuFabricInfo_v3_t* info) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!info) return NVML_ERROR_INVALID_ARGUMENT;
  if (info->version != nvmlGpuFabricInfo_v2 && info->version != nvmlGpuFabricInfo_v3)
    return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
  if (gpu->is_mig) return NVML_ERROR_NOT_SUPPORTED;
  auto state_cell = fabric::cell(*gpu, "fabric.state");
  if (state_cell.status) return state_cell.status;  // N/A: no fabric on this GPU
  auto state = fabric::one_of(state_cell, {{"Not Started", NVML_GPU_FABRIC_STATE_NOT_STARTED},
                                           {"In Progress", NVML_GPU_FABRIC_STATE_IN_PROGRESS},
                                           {"Completed", NVML_GPU_FABRIC_STATE_COMPLETED}});
  if (!state) return NVML_ERROR_NOT_SUPPORTED;
  nvmlGpuFabricInfo_v3_t out{};
  out.version = info->version;
  out.state = static_cast<unsigned char>(*state);
  // Until the probe completes nvidia-smi prints N/A for the rest (nvml.h: status is
  // only meaningful once completed): zeros then.
  if (*state == NVML_GPU_FABRIC_STATE_COMPLETED) {
    auto status = fabric::status_of(*gpu);
    auto clique = hwaccel::nvml::cell_uint(fabric::cell(*gpu, "fabric.cliqueId").text);
    auto cluster = fabric::cell(*gpu, "fabric.clusterUuid");
    if (!status || !clique || *clique > 0xffffffffu || cluster.status ||
        !uuid_bytes(hwaccel::trim(cluster.text), out.clusterUuid))
      return NVML_ERROR_NOT_SUPPORTED;
    out.status = *status;
    out.cliqueId = static_cast<unsigned>(*clique);
  }
  const std::pair<const char*, unsigned> bits[] = {{"fabric.health.bandwidth", 0},
                                                   {"fabric.health.route_recovery_in_progress", 2},
                                                   {"fabric.health.route_unhealthy", 4},
                                                   {"fabric.health.access_timeout_recovery", 6}};
  for (const auto& [name, shift] : bits) {
    auto bit = fabric::health_bit(*gpu, name);
    if (!bit) return NVML_ERROR_NOT_SUPPORTED;  // words we cannot map: not made up
    out.healthMask |= *bit << shift;
  }
  auto config = fabric::cell(*gpu, "fabric.health.incorrect_configuration");
  if (config.status != NVML_ERROR_NOT_SUPPORTED) {
    auto none = fabric::one_of(config, {{"None", 1}});  // the other reasons: not mapped
    if (!none) return NVML_ERROR_NOT_SUPPORTED;
    out.healthMask |= *none << 8;
  }
  auto summary = fabric::cell(*gpu, "fabric.health.summary");
  if (summary.status != NVML_ERROR_NOT_SUPPORTED) {
    auto s = fabric::one_of(summary, {{"Healthy", 1}, {"Unhealthy", 2}, {"Limited Capacity", 3}});
    if (!s) return NVML_ERROR_NOT_SUPPORTED;
    out.healthSummary = static_cast<unsigned char>(*s);
  }
  if (info->version == nvmlGpuFabricInfo_v2)
    std::memcpy(info, &out, sizeof(nvmlGpuFabricInfo_v2_t));
  else
    *info = out;
  return NVML_SUCCESS;
}

// The hostname set on the GPU (Blackwell on; [N/A] before it).
NVML_API nvmlReturn_t nvmlDeviceGetHostname_v1(nvmlDevice_t device, nvmlHostname_v1_t* hostname) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!hostname) return NVML_ERROR_INVALID_ARGUMENT;
  if (gpu->is_mig) return NVML_ERROR_NOT_SUPPORTED;
  auto f = fabric::cell(*gpu, "hostname");
  if (f.status) return f.status;
  const auto text = hwaccel::trim(f.text);
  if (text.size() >= NVML_DEVICE_HOSTNAME_BUFFER_SIZE) return NVML_ERROR_NOT_SUPPORTED;
  std::memset(hostname->value, 0, sizeof hostname->value);
  std::memcpy(hostname->value, text.data(), text.size());
  return NVML_SUCCESS;
}

// -q's "vGPU Heterogeneous Mode" (a vGPU host's; N/A elsewhere).
NVML_API nvmlReturn_t nvmlDeviceGetVgpuHeterogeneousMode(nvmlDevice_t device,
                                                         nvmlVgpuHeterogeneousMode_t* mode) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!mode) return NVML_ERROR_INVALID_ARGUMENT;
  if (mode->version != nvmlVgpuHeterogeneousMode_v1) return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
  if (gpu->is_mig) return NVML_ERROR_NOT_SUPPORTED;
  auto f = fabric::cell(*gpu, "q.vgpu_heterogeneous_mode");
  if (f.status) return f.status;
  auto v = hwaccel::nvml::cell_flag(f.text);
  if (!v) return NVML_ERROR_NOT_SUPPORTED;
  mode->mode = *v;
  return NVML_SUCCESS;
}

// The vGPU capabilities nvidia-smi's vgpu_device_capability.* fields hold
// (NVML_DEVICE_VGPU_CAP_*: 0-2, 9-11); the bandwidth and other ones are not recorded.
NVML_API nvmlReturn_t nvmlDeviceGetVgpuCapabilities(nvmlDevice_t device, int capability,
                                                    unsigned* result) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!result || capability < 0 || capability > 11) return NVML_ERROR_INVALID_ARGUMENT;
  if (gpu->is_mig) return NVML_ERROR_NOT_SUPPORTED;
  const char* names[12] = {"vgpu_device_capability.fractional_multiVgpu",
                           "vgpu_device_capability.heterogeneous_timeSlice_profile",
                           "vgpu_device_capability.heterogeneous_timeSlice_sizes",
                           nullptr,
                           nullptr,
                           nullptr,
                           nullptr,
                           nullptr,
                           nullptr,
                           "vgpu_device_capability.homogeneous_placements",
                           "vgpu_device_capability.mig_timeSlicing",
                           "vgpu_device_capability.mig_timeSlicing_mode"};
  if (!names[capability]) return NVML_ERROR_NOT_SUPPORTED;
  auto f = fabric::cell(*gpu, names[capability]);
  if (f.status) return f.status;
  auto v = hwaccel::nvml::cell_flag(f.text);
  if (!v) return NVML_ERROR_NOT_SUPPORTED;
  *result = *v;
  return NVML_SUCCESS;
}

// The driver's vGPU capability the query prints in every GPU's row
// (vgpu_driver_capability.heterogenous_multivGPU, NVML_VGPU_DRIVER_CAP_ 0).
NVML_API nvmlReturn_t nvmlGetVgpuDriverCapabilities(int capability, unsigned* result) {
  const auto* model = ready_model();
  if (!model) return NVML_ERROR_UNINITIALIZED;
  if (!result || capability < 0 || capability > 1) return NVML_ERROR_INVALID_ARGUMENT;
  if (capability != 0 || model->whole_gpus == 0) return NVML_ERROR_NOT_SUPPORTED;
  auto f = fabric::cell(model->gpus[0], "vgpu_driver_capability.heterogenous_multivGPU");
  if (f.status) return f.status;
  auto v = hwaccel::nvml::cell_flag(f.text);
  if (!v) return NVML_ERROR_NOT_SUPPORTED;
  *result = *v;
  return NVML_SUCCESS;
}
