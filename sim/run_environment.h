// What a program run on a simulated host (`hwsim run`, `hwsim materialize`'s env.sh)
// inherits from the snapshot: its device view, and nothing else. The environment is
// this machine's own (what the user's shell has); from the snapshot come only the
// variables that say which devices the host's runtimes see and in what order (the
// allow-list below, docs/hwsim.md "The command's environment"), each value checked
// for its shape. A recorded HOME, XDG_*, GIT_CONFIG_*, OPENSSL_CONF, PAGER or PATH
// names a program, a library or a configuration to load: never passed on. They stay
// in the snapshot for replays and are counted in a note.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "src/snapshot/snapshot.h"

namespace hwaccel::sim {

// One variable of the allow-list.
struct DeviceVariable {
  std::string_view name;
  std::string_view why;    // who reads it, to decide what (docs and notes)
  std::string_view shape;  // what a value must look like, in words
  bool (*valid)(std::string_view value);
};

// The allow-list, sorted by name.
const std::vector<DeviceVariable>& device_view_variables();
const DeviceVariable* find_device_variable(std::string_view name);

struct DeviceView {
  std::map<std::string, std::string> passed;  // allow-listed, shape-checked
  std::vector<std::string> refused;     // "env NAME: ...: not passed on", one per refused value
  std::vector<std::string> not_passed;  // recorded names outside the allow-list (PATH aside)
};

// The snapshot's variables a program run on its host gets.
DeviceView device_view(const Snapshot& snapshot);

// The whole environment of a program run on the host: `here` (this machine's
// environment) without its own device-view variables, plus the snapshot's device
// view; PATH = `shim_dir`, then here's PATH without relative or empty entries (the
// default search list when here has none). `notes`: the count of recorded variables
// not passed on, this machine's device-view variables left out. `refused`: the
// device-view values of the snapshot whose shape is wrong.
std::map<std::string, std::string> run_environment(const Snapshot& snapshot,
                                                   const std::map<std::string, std::string>& here,
                                                   const std::string& shim_dir,
                                                   std::vector<std::string>* refused = nullptr,
                                                   std::vector<std::string>* notes = nullptr);
// The same from the snapshot's device view (`hwsim run`'s plan, sim/run_plan.h).
std::map<std::string, std::string> run_environment(const DeviceView& view,
                                                   const std::map<std::string, std::string>& here,
                                                   const std::string& shim_dir,
                                                   std::vector<std::string>* refused = nullptr,
                                                   std::vector<std::string>* notes = nullptr);

// `PATH` without relative or empty entries (each would search the current folder).
std::string absolute_entries(std::string_view path);

// The note counting what the snapshot records and a program is not given; "" when none.
std::string not_passed_note(const DeviceView& view);

// env.sh for a POSIX shell on this machine: unsets this machine's device-view
// variables, exports the snapshot's (single-quoted), and puts `shim_dir` first on
// the shell's own PATH, dropping its relative and empty entries, at the time it is
// sourced. Fixed text, plus values that enter through shim_quote only.
std::string env_sh(const DeviceView& view, const std::string& shim_dir);

// The hostname a simulated host's UTS namespace gets: the recorded one when the
// kernel takes it and it is a plain name (1-64 of [A-Za-z0-9.-_]), else
// kPlaceholderHostname and a line in `note` saying why; never this machine's.
inline constexpr const char* kPlaceholderHostname = "hwsim-host";
std::string run_hostname(const std::string& recorded, std::string* note = nullptr);

}  // namespace hwaccel::sim
