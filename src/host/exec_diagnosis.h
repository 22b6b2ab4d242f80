// Why execve refused a file that is there: a tool on PATH that cannot run (no
// execute permission, an ELF whose dynamic loader is missing, a script whose
// interpreter is missing, a format the kernel does not run) must be reported as
// "found and cannot execute", never as "not found" (execve says ENOENT for a
// missing loader too).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace hwaccel {

// The interpreter `path` names: an ELF's PT_INTERP (its dynamic loader) or a
// script's "#!" line. nullopt when it names none or cannot be read.
std::optional<std::string> named_interpreter(const std::string& path);

// The text after "cannot execute: " for execve's `error` on the file at `path`,
// e.g. "No such file or directory (its interpreter /lib64/ld-linux-x86-64.so.2 is
// missing)". nullopt when the error means the file itself is not there.
std::optional<std::string> cannot_execute_detail(const std::string& path, int error);

// The sentence a run's err carries (the run is permission_denied, or exited 126),
// and a probe's reason repeats after the tool's name: "found at PATH and cannot
// execute: DETAIL". A recording keeps it as the run's stderr, so replays say it too.
std::string cannot_execute_text(std::string_view path, std::string_view detail);

}  // namespace hwaccel
