// The JSON of the system around the devices: a device's PCIe link, the
// `system` object of hwaccel-detect/1 (environment, network ports, storage),
// and the `hwaccel io` document.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>

#include "src/model/pcie_link.h"
#include "src/system/io_estimate.h"
#include "src/system/system_info.h"

namespace hwaccel {

inline constexpr const char* kBandwidthUnit =
    "GB/s (1e9 bytes/s) per direction, after line encoding";

nlohmann::json pcie_link_json(const std::optional<PcieLink>& link);
nlohmann::json system_json(const SystemInfo& system);
nlohmann::json ingest_json(const IngestEstimate& estimate);

}  // namespace hwaccel
