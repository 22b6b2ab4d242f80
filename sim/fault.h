// A fault to inject into a snapshot: what breaks (a tool run, a file, a driver,
// free memory) and how. The text form, used by `hwsim mutate --fault`, is
// KIND:TARGET[=ARG]; docs/hwsim-spec.md lists every kind.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hwaccel::sim {

enum class FaultKind {
  hang,      // tool: never answers (the host's timeout fires)
  signal,    // tool: killed by signal ARG (default 9)
  exit,      // tool: exits with status ARG's CODE, stderr ARG's TEXT ("CODE[:TEXT]")
  missing,   // tool: not on PATH
  denied,    // tool: may not be executed; path: EACCES
  empty,     // tool: exit 0 and no output; path: an empty file
  truncate,  // tool stdout / file bytes cut to ARG bytes (default half)
  garbage,   // tool stdout / file bytes replaced by ARG bytes of binary noise (default 256)
  flood,     // tool stdout repeated up to ARG bytes (default 64 MiB)
  gone,      // path: it and everything below it vanish (ENOENT)
  loop,      // path: a symbolic link to itself (ELOOP on every read)
  unload,    // driver TARGET (nvidia | amdgpu) unloaded: its /proc, /sys and /dev entries go
             // and its tools fail the way they do without a driver
  free,      // free memory of TARGET (host | cuda[:N] | rocm[:N]) set to ARG (a size)
};

std::string_view to_string(FaultKind kind);
std::optional<FaultKind> fault_kind_from_string(std::string_view text);
// Every kind, in declaration order (for help texts and tests).
std::vector<FaultKind> all_fault_kinds();

struct Fault {
  FaultKind kind = FaultKind::hang;
  std::string target;  // a tool name, a tool's argv joined by spaces, an absolute path, ...
  std::string arg;     // empty: the kind's default
  std::string text;    // as written, for messages
};

// "hang:nvidia-smi", "exit:nvidia-smi=18:Failed to initialize NVML", "gone:/proc/meminfo".
// On error, `error` says what was expected.
std::optional<Fault> parse_fault(std::string_view text, std::string& error);

}  // namespace hwaccel::sim
