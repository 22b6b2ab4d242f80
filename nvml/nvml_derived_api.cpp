// NVML calls whose answers follow from what the snapshot recorded for other calls
// (docs/nvml.md, "Field values, PCIe speeds, IRQ"): nvmlDeviceGetFieldValues for
// the fields a recorded --query-gpu or -q holds (ECC, retired pages, remapped
// rows, memory temperature, PCIe replays; every other field NOT_SUPPORTED in its
// own slot), the PCIe speeds of the link generation, and the IRQ the driver's
// information file gives. Nothing is made up: an unrecorded figure is an error.
#include <cstdint>
#include <optional>

#include "nvml/nvml_abi.h"
#include "nvml/nvml_abi_monitor.h"
#include "nvml/nvml_api_internal.h"
#include "nvml/nvml_fields.h"
#include "nvml/nvml_model.h"

using namespace hwaccel::nvml::api;
using hwaccel::nvml::Gpu;

namespace {

enum class Read { number, flag };

struct FieldSource {
  unsigned id;        // NVML_FI_DEV_*
  const char* field;  // the recorded --query-gpu field (or -q's "q." name)
  Read read;
  int type;  // NVML_VALUE_TYPE_*
};

// Field ids from nvml.h (as nvml-wrapper-sys 0.7's bindings give them).
constexpr FieldSource kFields[] = {
    {1, "ecc.mode.current", Read::flag, NVML_VALUE_TYPE_UNSIGNED_INT},  // ECC_CURRENT
    {2, "ecc.mode.pending", Read::flag, NVML_VALUE_TYPE_UNSIGNED_INT},  // ECC_PENDING
    {3, "ecc.errors.corrected.volatile.total", Read::number,            // ECC_SBE_VOL_TOTAL
     NVML_VALUE_TYPE_UNSIGNED_LONG_LONG},
    {4, "ecc.errors.uncorrected.volatile.total", Read::number,  // ECC_DBE_VOL_TOTAL
     NVML_VALUE_TYPE_UNSIGNED_LONG_LONG},
    {5, "ecc.errors.corrected.aggregate.total", Read::number,  // ECC_SBE_AGG_TOTAL
     NVML_VALUE_TYPE_UNSIGNED_LONG_LONG},
    {6, "ecc.errors.uncorrected.aggregate.total", Read::number,  // ECC_DBE_AGG_TOTAL
     NVML_VALUE_TYPE_UNSIGNED_LONG_LONG},
    {29, "retired_pages.single_bit_ecc.count", Read::number,  // RETIRED_SBE
     NVML_VALUE_TYPE_UNSIGNED_LONG_LONG},
    {30, "retired_pages.double_bit.count", Read::number,  // RETIRED_DBE
     NVML_VALUE_TYPE_UNSIGNED_LONG_LONG},
    {31, "retired_pages.pending", Read::flag, NVML_VALUE_TYPE_UNSIGNED_INT},  // RETIRED_PENDING
    {82, "temperature.memory", Read::number, NVML_VALUE_TYPE_UNSIGNED_INT},   // MEMORY_TEMP
    {94, "q.pcie.replays", Read::number,
     NVML_VALUE_TYPE_UNSIGNED_LONG_LONG},  // PCIE_REPLAY_COUNTER
    {142, "remapped_rows.correctable", Read::number, NVML_VALUE_TYPE_UNSIGNED_INT},  // REMAPPED_COR
    {143, "remapped_rows.uncorrectable", Read::number, NVML_VALUE_TYPE_UNSIGNED_INT},  // _UNC
    {144, "remapped_rows.pending", Read::flag, NVML_VALUE_TYPE_UNSIGNED_INT},  // REMAPPED_PENDING
    {145, "remapped_rows.failure", Read::flag, NVML_VALUE_TYPE_UNSIGNED_INT},  // REMAPPED_FAILURE
};

// One field's value from the whole GPU's recorded cells, or the error in its slot.
void fill(const Gpu& gpu, nvmlFieldValue_t& v) {
  v.valueType = NVML_VALUE_TYPE_UNSIGNED_INT;
  v.value.ullVal = 0;
  v.nvmlReturn = NVML_ERROR_NOT_SUPPORTED;
  const FieldSource* source = nullptr;
  for (const auto& f : kFields)
    if (f.id == v.fieldId) source = &f;
  if (!source) return;
  auto cell = hwaccel::nvml::field_of(gpu.cells, source->field);
  if (cell.status != NVML_SUCCESS) {
    v.nvmlReturn = cell.status;
    return;
  }
  std::optional<std::uint64_t> value;
  if (source->read == Read::flag) {
    if (auto flag = hwaccel::nvml::cell_flag(cell.text)) value = *flag;
  } else {
    value = hwaccel::nvml::cell_uint(cell.text);
  }
  if (!value) {
    v.nvmlReturn = NVML_ERROR_UNKNOWN;  // recorded, but not a number: garbage
    return;
  }
  v.valueType = source->type;
  if (source->type == NVML_VALUE_TYPE_UNSIGNED_INT) {
    if (*value > 0xffffffffu) {
      v.nvmlReturn = NVML_ERROR_UNKNOWN;
      return;
    }
    v.value.uiVal = static_cast<unsigned>(*value);
  } else {
    v.value.ullVal = *value;
  }
  v.nvmlReturn = NVML_SUCCESS;
}

// PCIe generation -> its per-lane rate in MB/s, as nvmlDeviceGetPcieSpeed gives it.
std::optional<unsigned> lane_rate(unsigned generation) {
  static constexpr unsigned kRates[] = {2500, 5000, 8000, 16000, 32000, 64000};
  if (generation < 1 || generation > 6) return std::nullopt;
  return kRates[generation - 1];
}

}  // namespace

NVML_API nvmlReturn_t nvmlDeviceGetFieldValues(nvmlDevice_t device, int count,
                                               nvmlFieldValue_t* values) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!values || count <= 0) return NVML_ERROR_INVALID_ARGUMENT;
  const Gpu& whole = *whole_of(gpu);
  const auto* model = ready_model();
  const long long stamp =
      model && model->recorded_us ? static_cast<long long>(*model->recorded_us) : 0;
  for (int i = 0; i < count; ++i) {
    nvmlFieldValue_t& v = values[i];
    v.timestamp = stamp;
    v.latencyUsec = 0;
    fill(whole, v);
  }
  return NVML_SUCCESS;
}

// The current link's per-lane rate (2500 ... 64000 MB/s).
NVML_API nvmlReturn_t nvmlDeviceGetPcieSpeed(nvmlDevice_t device, unsigned* speed) {
  if (!speed) return NVML_ERROR_INVALID_ARGUMENT;
  unsigned gen = 0;
  if (auto r = nvmlDeviceGetCurrPcieLinkGeneration(device, &gen)) return r;
  auto rate = lane_rate(gen);
  if (!rate) return NVML_ERROR_NOT_SUPPORTED;
  *speed = *rate;
  return NVML_SUCCESS;
}

// The maximum link's rate as NVML_PCIE_LINK_MAX_SPEED_*: 1 (2500 MB/s) ... 6 (64000).
NVML_API nvmlReturn_t nvmlDeviceGetPcieLinkMaxSpeed(nvmlDevice_t device, unsigned* speed) {
  if (!speed) return NVML_ERROR_INVALID_ARGUMENT;
  unsigned gen = 0;
  if (auto r = nvmlDeviceGetMaxPcieLinkGeneration(device, &gen)) return r;
  if (!lane_rate(gen)) return NVML_ERROR_NOT_SUPPORTED;
  *speed = gen;
  return NVML_SUCCESS;
}

NVML_API nvmlReturn_t nvmlDeviceGetIrqNum(nvmlDevice_t device, unsigned* irq) {
  const Gpu* gpu = nullptr;
  if (auto r = gpu_of(device, gpu)) return r;
  if (!irq) return NVML_ERROR_INVALID_ARGUMENT;
  const Gpu& whole = *whole_of(gpu);
  if (!whole.irq) return NVML_ERROR_NOT_SUPPORTED;
  *irq = *whole.irq;
  return NVML_SUCCESS;
}
