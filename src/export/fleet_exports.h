// Exports for the fleet tools a cluster already runs:
//   nfd         a Kubernetes Node Feature Discovery local feature file
//               (features.d/): hwaccel.io/<name>=<value> labels, GFD-compatible
//   slurm       gres.conf lines and the slurm.conf node Gres= fragment
//   prometheus  a node_exporter textfile-collector file, labelled as DCGM's
// All are plain text, deterministic for a given detection (and, for device
// files, the host they were read from). Every export counts and declares a
// physical device once (physical_devices.h). docs/exports.md describes them.
#pragma once

#include <string>

#include "src/export/physical_devices.h"
#include "src/host/host.h"
#include "src/registry/detection.h"

namespace hwaccel {

inline constexpr const char* kLabelNamespace = "hwaccel.io";

struct NfdOptions {
  MigStrategy mig = MigStrategy::mixed;
  bool nvidia_labels = false;  // also nvidia.com/... exactly as GFD names them
  std::string expiry_time;     // RFC 3339; empty: no "# +expiry-time=" directive
};
std::string render_nfd(const Detection& detection, const NfdOptions& options = {});

enum class SlurmPart { all, gres, node };
struct SlurmOptions {
  SlurmPart part = SlurmPart::all;
  bool igpu = false;  // declare an integrated GPU as Name=gpu beside discrete ones
};
std::string render_slurm(Host& host, const Detection& detection, const SlurmOptions& options = {});

struct PrometheusOptions {
  MigStrategy mig = MigStrategy::mixed;
  // hwaccel_last_detection_timestamp_seconds: the Host's clock at detection
  // (Detection::host.discovered_at); the duration is Detection::total_milliseconds.
  bool timing = true;
  // The info series' model label as model_name, not DCGM's modelName: the one name
  // promtool's lint (snake_case) flags, so that `promtool check metrics` exits 0.
  bool snake_case = false;
};
std::string render_prometheus(Host& host, const Detection& detection,
                              const PrometheusOptions& options = {});

// "0000:1b:00.0" -> "00000000:1B:00.0", the form nvidia-smi and DCGM print.
std::string nvidia_smi_bus_id(const std::string& bus_id);

}  // namespace hwaccel
