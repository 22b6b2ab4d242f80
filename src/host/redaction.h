// Redaction of a recorded snapshot before it leaves the machine: GPU/MIG UUIDs,
// serial numbers, DMI serials and UUIDs (asset tags too, except the shared
// markers clouds put there), InfiniBand GUIDs and GIDs, 20-byte IPoIB
// addresses, the hostname and MAC addresses become
// stable pseudonyms (one value, one pseudonym, within a file). Pseudonyms are
// handed out walking the snapshot in its sorted order, so the output is
// deterministic.
#pragma once

#include "src/snapshot/snapshot.h"

namespace hwaccel {

void redact(Snapshot& snapshot);

}  // namespace hwaccel
