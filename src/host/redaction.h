// Redaction of a recorded snapshot before it leaves the machine. Every
// identifier a probe can see becomes a stable pseudonym (one value, one
// pseudonym, within a file): GPU/MIG/Vulkan UUIDs, pod UIDs and container ids,
// serials (by key, in any case), IB GUIDs and GIDs, machine and boot ids, the
// hostname, MAC and IPoIB addresses, IP addresses (on every line but version
// lines), and user names in paths. docs/snapshot-format.md lists the rules.
//
// Pseudonyms keep the shape of what they replace where a parser cares (a UUID
// stays a UUID, a hex GUID stays hex with its separators), and the same UUID
// gets the same pseudonym with or without its GPU-/MIG- prefix, so devices seen
// through two APIs still match after redaction. They are handed out walking the
// snapshot in its sorted order, so the output is deterministic.
//
// What is kept rather than what is removed, where that can be said: a
// recorded environment variable keeps its value verbatim only when env_rule
// says so; every other value is rewritten by its rule or replaced whole. In
// files and tool output, identifiers are found by shape and by key (the rules
// are listed in redaction_text.h and docs/snapshot-format.md).
#pragma once

#include <string_view>

#include "src/snapshot/snapshot.h"

namespace hwaccel {

void redact(Snapshot& snapshot);

// What redaction does with the value of a recorded environment variable.
enum class EnvRule {
  verbatim,   // container, TPU_ACCELERATOR_TYPE, NO_COLOR, HWACCEL_RESERVE_BYTES: kept
  paths,      // PATH, HOME, TMPDIR, XDG_*, VK_*: user names and identifiers in them
  devices,    // CUDA_VISIBLE_DEVICES and kin: indices kept, UUIDs pseudonymised
  user_name,  // USER, LOGNAME: the user pseudonym
  hostname,   // HOSTNAME
  address,    // KUBERNETES_*: addresses pseudonymised, anything else replaced
  replaced,   // anything else: REDACTED-N (empty stays empty)
};
EnvRule env_rule(std::string_view name);

}  // namespace hwaccel
