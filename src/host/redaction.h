// Redaction of a recorded snapshot before it leaves the machine. Every
// identifier a probe can see becomes a stable pseudonym (one value, one
// pseudonym, within a file): GPU/MIG/Vulkan UUIDs, board/chassis/product and
// device serials and UUIDs, IB GUIDs and GIDs, machine and boot ids, the
// hostname, MAC and 20-byte IPoIB addresses, IP addresses where addresses live (environment,
// /etc, /proc/net, /sys/class/net, lines of tool output that talk about
// addresses), and user names in home-directory paths.
//
// Pseudonyms keep the shape of what they replace where a parser cares (a UUID
// stays a UUID, a hex GUID stays hex with its separators), and the same UUID
// gets the same pseudonym with or without its GPU-/MIG- prefix, so devices seen
// through two APIs still match after redaction. They are handed out walking the
// snapshot in its sorted order, so the output is deterministic.
#pragma once

#include "src/snapshot/snapshot.h"

namespace hwaccel {

void redact(Snapshot& snapshot);

}  // namespace hwaccel
