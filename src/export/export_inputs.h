// What the exports read from the host after detection: today the device node
// of each entry (Slurm's `File=`, from the nvidia module's information file,
// a PCI function's drm/ or accel/ folder). Detection itself does not read
// these, so `detect --record` calls this on its recording host: the snapshot
// then holds them, and `export --host RECORDING` says what `export` said live.
#pragma once

#include "src/host/host.h"
#include "src/registry/detection.h"

namespace hwaccel {

void read_export_inputs(Host& host, const Detection& detection);

}  // namespace hwaccel
