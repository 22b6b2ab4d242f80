// NVML's newer per-GPU health getters, each a versioned struct filled from what a
// recorded `nvidia-smi --query-gpu` or `-q` printed for the same value
// (docs/nvml.md, "Health, fabric and system calls"): the thermal margin
// (T.Limit), the GPU temperature, the PDI, TPC/channel repair and unrepairable
// memory flags, SRAM ECC error status and its unique-error list, the old
// location-split ECC counters, DRAM encryption and the EGM capability. As the
// monitoring getters: a figure not recorded is the NVML error nvidia-smi's words
// stand for (NOT_SUPPORTED for [N/A]), never a made-up number; MIG devices have
// none of these (NOT_SUPPORTED).
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

namespace {
namespace health {  // named apart: the library's files share one unity batch

// The whole GPU behind `device` (MIG devices: NOT_SUPPORTED), with `out` checked.
template <typename Out>
nvmlReturn_t whole(nvmlDevice_t device, const Out* out, const Gpu*& gpu) {
  if (auto r = gpu_of(device, gpu)) return r;
  if (!out) return NVML_ERROR_INVALID_ARGUMENT;
  return gpu->is_mig ? NVML_ERROR_NOT_SUPPORTED : NVML_SUCCESS;
}

// A recorded count ("0"), a flag ("Yes", "Enabled") or a hex word ("0x737b...");
// a value of a form we cannot read is as good as not recorded.
nvmlReturn_t count(const Gpu& gpu, const char* name, unsigned long long& out) {
  auto f = hwaccel::nvml::field_of(gpu.cells, name);
  if (f.status) return f.status;
  auto v = hwaccel::nvml::cell_uint(f.text);
  if (!v) return NVML_ERROR_NOT_SUPPORTED;
  out = *v;
  return NVML_SUCCESS;
}
nvmlReturn_t flag(const Gpu& gpu, const char* name, unsigned& out) {
  auto f = hwaccel::nvml::field_of(gpu.cells, name);
  if (f.status) return f.status;
  auto v = hwaccel::nvml::cell_flag(f.text);
  if (!v) return NVML_ERROR_NOT_SUPPORTED;
  out = *v;
  return NVML_SUCCESS;
}
// A temperature in degrees C, which may be below zero (-q's T.Limit lines).
nvmlReturn_t degrees(const Gpu& gpu, const char* name, int& out) {
  auto f = hwaccel::nvml::field_of(gpu.cells, name);
  if (f.status) return f.status;
  std::string_view text = hwaccel::trim(f.text);
  const bool negative = !text.empty() && text.front() == '-';
  if (negative) text.remove_prefix(1);
  auto v = hwaccel::nvml::cell_uint(text);
  if (!v || *v > 1000) return NVML_ERROR_NOT_SUPPORTED;
  out = negative ? -static_cast<int>(*v) : static_cast<int>(*v);
  return NVML_SUCCESS;
}

// ecc.errors.<corrected|uncorrected>.<volatile|aggregate>.<location>
std::string ecc_field(int type, int counter, const char* location) {
  return std::string("ecc.errors.") + (type ? "uncorrected" : "corrected") +
         (counter ? ".aggregate." : ".volatile.") + location;
}

}  // namespace health
}  // namespace

// "GPU T.Limit Temp": the margin to the nearest slowdown threshold.
NVML_API nvmlReturn_t nvmlDeviceGetMarginTemperature(nvmlDevice_t device,
                                                     nvmlMarginTemperature_t* margin) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!margin) return NVML_ERROR_INVALID_ARGUMENT;
  if (margin->version != nvmlMarginTemperature_v1) return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
  if (gpu->is_mig) return NVML_ERROR_NOT_SUPPORTED;
  int t = 0;
  if (auto r = health::degrees(*gpu, "temperature.gpu.tlimit", t)) return r;
  margin->marginTemperature = t;
  return NVML_SUCCESS;
}

// The GPU sensor only, as nvmlDeviceGetTemperature.
NVML_API nvmlReturn_t nvmlDeviceGetTemperatureV(nvmlDevice_t device, nvmlTemperature_t* temp) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!temp) return NVML_ERROR_INVALID_ARGUMENT;
  if (temp->version != nvmlTemperature_v1) return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
  if (temp->sensorType != NVML_TEMPERATURE_GPU) return NVML_ERROR_INVALID_ARGUMENT;
  if (gpu->is_mig) return NVML_ERROR_NOT_SUPPORTED;
  int t = 0;
  if (auto r = health::degrees(*gpu, "temperature.gpu", t)) return r;
  temp->temperature = t;
  return NVML_SUCCESS;
}

// -q's "GPU PDI" (driver 580 on), the per-device identifier.
NVML_API nvmlReturn_t nvmlDeviceGetPdi(nvmlDevice_t device, nvmlPdi_t* pdi) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!pdi) return NVML_ERROR_INVALID_ARGUMENT;
  if (pdi->version != nvmlPdi_v1) return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
  if (gpu->is_mig) return NVML_ERROR_NOT_SUPPORTED;
  auto f = hwaccel::nvml::field_of(gpu->cells, "q.pdi");
  if (f.status) return f.status;
  auto v = hwaccel::nvml::cell_hex(f.text);
  if (!v) return NVML_ERROR_NOT_SUPPORTED;
  pdi->value = *v;
  return NVML_SUCCESS;
}

NVML_API nvmlReturn_t nvmlDeviceGetRepairStatus(nvmlDevice_t device, nvmlRepairStatus_t* status) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!status) return NVML_ERROR_INVALID_ARGUMENT;
  if (status->version != nvmlRepairStatus_v1) return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
  if (gpu->is_mig) return NVML_ERROR_NOT_SUPPORTED;
  unsigned channel = 0, tpc = 0;
  if (auto r = health::flag(*gpu, "q.channel_repair_pending", channel)) return r;
  if (auto r = health::flag(*gpu, "q.tpc_repair_pending", tpc)) return r;
  status->bChannelRepairPending = channel;
  status->bTpcRepairPending = tpc;
  return NVML_SUCCESS;
}

NVML_API nvmlReturn_t nvmlDeviceGetUnrepairableMemoryFlag_v1(
    nvmlDevice_t device, nvmlUnrepairableMemoryStatus_v1_t* status) {
  const Gpu* gpu = nullptr;
  if (auto r = health::whole(device, status, gpu)) return r;
  unsigned flag = 0;
  if (auto r = health::flag(*gpu, "q.unrepairable_memory", flag)) return r;
  status->bUnrepairableMemory = flag;
  return NVML_SUCCESS;
}

// The SRAM error counters nvidia-smi prints under "ECC Errors" (driver 570 on).
NVML_API nvmlReturn_t nvmlDeviceGetSramEccErrorStatus(nvmlDevice_t device,
                                                      nvmlEccSramErrorStatus_t* status) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!status) return NVML_ERROR_INVALID_ARGUMENT;
  if (status->version != nvmlEccSramErrorStatus_v1) return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
  if (gpu->is_mig) return NVML_ERROR_NOT_SUPPORTED;
  nvmlEccSramErrorStatus_t s{};
  s.version = status->version;
  const std::pair<const char*, unsigned long long*> counts[] = {
      {"ecc.errors.uncorrected.aggregate.sram.parity", &s.aggregateUncParity},
      {"ecc.errors.uncorrected.aggregate.sram.secded", &s.aggregateUncSecDed},
      {"ecc.errors.corrected.aggregate.sram", &s.aggregateCor},
      {"ecc.errors.uncorrected.volatile.sram.parity", &s.volatileUncParity},
      {"ecc.errors.uncorrected.volatile.sram.secded", &s.volatileUncSecDed},
      {"ecc.errors.corrected.volatile.sram", &s.volatileCor},
      {"ecc.errors.uncorrected.aggregate.sram.l2", &s.aggregateUncBucketL2},
      {"ecc.errors.uncorrected.aggregate.sram.sm", &s.aggregateUncBucketSm},
      {"ecc.errors.uncorrected.aggregate.sram.pcie", &s.aggregateUncBucketPcie},
      {"ecc.errors.uncorrected.aggregate.sram.mcu", &s.aggregateUncBucketMcu},
      {"ecc.errors.uncorrected.aggregate.sram.other", &s.aggregateUncBucketOther},
  };
  for (const auto& [name, out] : counts)
    if (auto r = health::count(*gpu, name, *out)) return r;
  if (auto r = health::flag(*gpu, "ecc.errors.uncorrected.aggregate.sram.thresholdExceeded",
                            s.bThresholdExceeded))
    return r;
  *status = s;
  return NVML_SUCCESS;
}

// The unique uncorrected SRAM errors: their addresses are not recorded, so only a
// recorded count of 0 (parity and SEC-DED, aggregate) answers: an empty list.
NVML_API nvmlReturn_t nvmlDeviceGetSramUniqueUncorrectedEccErrorCounts(
    nvmlDevice_t device, nvmlEccSramUniqueUncorrectedErrorCounts_t* counts) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!counts) return NVML_ERROR_INVALID_ARGUMENT;
  if (counts->version != nvmlEccSramUniqueUncorrectedErrorCounts_v1)
    return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
  if (gpu->is_mig) return NVML_ERROR_NOT_SUPPORTED;
  unsigned ecc = 0;  // "only supported when ECC mode is enabled"
  if (auto r = health::flag(*gpu, "ecc.mode.current", ecc)) return r;
  if (!ecc) return NVML_ERROR_NOT_SUPPORTED;
  unsigned long long parity = 0, secded = 0;
  if (auto r = health::count(*gpu, "ecc.errors.uncorrected.aggregate.sram.parity", parity))
    return r;
  if (auto r = health::count(*gpu, "ecc.errors.uncorrected.aggregate.sram.secded", secded))
    return r;
  if (parity + secded != 0) return NVML_ERROR_NOT_SUPPORTED;
  counts->entryCount = 0;
  return NVML_SUCCESS;
}

// The location-split counters (deprecated in NVML): each of the four recorded, else
// the first one's error (Hopper's L1, L2 and register file are [N/A]).
NVML_API nvmlReturn_t nvmlDeviceGetDetailedEccErrors(nvmlDevice_t device, int type, int counter,
                                                     nvmlEccErrorCounts_t* counts) {
  const Gpu* gpu = nullptr;
  if (auto r = health::whole(device, counts, gpu)) return r;
  if (type < 0 || type > 1 || counter < 0 || counter > 1) return NVML_ERROR_INVALID_ARGUMENT;
  nvmlEccErrorCounts_t c{};
  const std::pair<const char*, unsigned long long*> parts[] = {{"l1_cache", &c.l1Cache},
                                                               {"l2_cache", &c.l2Cache},
                                                               {"device_memory", &c.deviceMemory},
                                                               {"register_file", &c.registerFile}};
  for (const auto& [location, out] : parts)
    if (auto r = health::count(*gpu, health::ecc_field(type, counter, location).c_str(), *out))
      return r;
  *counts = c;
  return NVML_SUCCESS;
}

// dramEncryption.mode.current/.pending (Blackwell; [N/A] before it).
NVML_API nvmlReturn_t nvmlDeviceGetDramEncryptionMode(nvmlDevice_t device,
                                                      nvmlDramEncryptionInfo_t* current,
                                                      nvmlDramEncryptionInfo_t* pending) {
  const Gpu* gpu = nullptr;
  if (auto r = health::whole(device, current, gpu)) return r;
  if (!pending) return NVML_ERROR_INVALID_ARGUMENT;
  if (current->version != nvmlDramEncryptionInfo_v1 ||
      pending->version != nvmlDramEncryptionInfo_v1)
    return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
  unsigned now = 0, next = 0;
  if (auto r = health::flag(*gpu, "dramEncryption.mode.current", now)) return r;
  if (auto r = health::flag(*gpu, "dramEncryption.mode.pending", next)) return r;
  current->encryptionState = static_cast<int>(now);
  pending->encryptionState = static_cast<int>(next);
  return NVML_SUCCESS;
}

// -q's "Capabilities / EGM : enabled|disabled", NVML_DEV_CAP_EGM (the only bit nvml.h
// defines); nvidia-smi prints these words in lower case.
NVML_API nvmlReturn_t nvmlDeviceGetCapabilities(nvmlDevice_t device,
                                                nvmlDeviceCapabilities_t* caps) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!caps) return NVML_ERROR_INVALID_ARGUMENT;
  if (caps->version != nvmlDeviceCapabilities_v1) return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
  if (gpu->is_mig) return NVML_ERROR_NOT_SUPPORTED;
  auto f = hwaccel::nvml::field_of(gpu->cells, "q.egm");
  if (f.status) return f.status;
  const std::string_view words = hwaccel::trim(f.text);
  if (words != "enabled" && words != "disabled") return NVML_ERROR_NOT_SUPPORTED;
  caps->capMask = words == "enabled" ? NVML_DEV_CAP_EGM : 0;
  return NVML_SUCCESS;
}
