// `--cache TTL`: keep the last detection of this machine in
// $XDG_CACHE_HOME/hwaccel/detect.json (else ~/.cache/hwaccel/), written
// atomically with mode 0600. A corrupt, foreign or stale cache is ignored with
// a warning on stderr and rewritten; it is never trusted and never a crash.
#pragma once

#include <string>

#include "src/host/host.h"
#include "src/registry/detection.h"

namespace hwaccel::cli {

struct CachedDetection {
  int exit = 0;  // kExitUsage for a malformed TTL
  Detection detection;
};

// Detects on `host` (this machine, or a --root tree named by `root`, whose tools
// ran only with --root-tools: `root_tools`), or reads the cache when it is fresh
// and was written by the same kind of run. `ttl` empty: no cache at all.
CachedDetection detect_with_cache(Host& host, const DetectOptions& options, const std::string& ttl,
                                  const std::string& root, bool root_tools, bool quiet);

// Where the cache lives for this user: empty when neither XDG_CACHE_HOME nor
// HOME is set.
std::string cache_path(Host& host);

}  // namespace hwaccel::cli
