// Exports for the fleet tools a cluster already runs:
//   nfd         a Kubernetes Node Feature Discovery local feature file
//               (features.d/): hwaccel.io/<name>=<value> labels
//   slurm       gres.conf lines and the slurm.conf node Gres= fragment
//   prometheus  a node_exporter textfile-collector file
// All are plain text, deterministic for a given detection (and, for device
// files, the host they were read from). docs/exports.md describes them.
#pragma once

#include <string>

#include "src/host/host.h"
#include "src/registry/detection.h"

namespace hwaccel {

inline constexpr const char* kLabelNamespace = "hwaccel.io";

std::string render_nfd(const Detection& detection);

enum class SlurmPart { all, gres, node };
std::string render_slurm(Host& host, const Detection& detection, SlurmPart part = SlurmPart::all);

std::string render_prometheus(const Detection& detection);

}  // namespace hwaccel
