// Synthesis: a host spec in, a snapshot out with the files and tool outputs a
// real host of that kind has, in the formats the probes read (the same ones
// the real captures and the hand-written fixtures show).
#pragma once

#include "sim/spec.h"
#include "src/snapshot/snapshot.h"

namespace hwaccel::sim {

// Deterministic: the same spec gives the same bytes. Identifiers (UUIDs) are
// derived from the spec's label and seed.
Snapshot synthesize(const HostSpec& spec);

}  // namespace hwaccel::sim
