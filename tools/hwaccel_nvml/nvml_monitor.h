// What a monitoring agent asks NVML about a GPU (temperature, power and its
// limits, clocks, utilisation, performance state, fan, PCIe link, clock event
// reasons, ECC mode, compute processes), into the device's document as
// "monitor": {FIELD: CELL} with nvidia-smi's --query-gpu field names and cell
// words ("52", "625.24", "P0", "0x0000000000000001", "[N/A]" for Not Supported),
// and "processes": [{"pid", "used_memory", "name"}]. A snapshot that records this
// document answers the same getters on replay (nvml/nvml_model.cpp).
#pragma once

#include <nlohmann/json.hpp>

#include "tools/hwaccel_nvml/nvml_call.h"

namespace hwaccel_nvml {

void monitoring(const Nvml& nvml, Device device, nlohmann::json& out, nlohmann::json& errors);

}  // namespace hwaccel_nvml
