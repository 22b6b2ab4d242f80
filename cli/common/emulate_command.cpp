#include "cli/common/emulate_command.h"

#include <cstdio>
#include <iostream>

#include "sim/emulate/tool_emulator.h"
#include "sim/materialize.h"
#include "sim/shim_script.h"
#include "sim/tool_spec.h"
#include "src/host/append_file.h"
#include "src/host/snapshot_host.h"
#include "src/registry/detection.h"

namespace hwaccel::cli {

int run_emulate(const std::vector<std::string>& args) {
  // TREE NAME -- ARGS...: fixed shape, written by the shim.
  if (args.size() < 3 || args[2] != "--") {
    std::cerr << "usage: hwsim emulate TREE NAME -- ARGS... (run by the tool shims of a "
                 "simulated host)\n";
    return 2;
  }
  const std::string& tree = args[0];
  std::vector<std::string> argv = {args[1]};
  argv.insert(argv.end(), args.begin() + 3, args.end());
  sim::ToolEmulator emulator = sim::find_tool_emulator(args[1]);
  if (!emulator) {
    std::cerr << "hwsim shim: no emulator for " << sim::display_quote(args[1]) << "\n";
    return sim::kShimMissExit;
  }
  auto loaded = load_snapshot_file(tree + sim::kSnapshotCopy);
  if (!loaded.snapshot) {
    std::cerr << "hwsim shim: " << (loaded.error ? loaded.error->to_string() : tree) << "\n";
    return sim::kShimMissExit;
  }
  SnapshotHost host(*loaded.snapshot);
  const Detection detection = detect(host);
  const sim::ToolAnswer answer = emulator({host.snapshot(), detection}, argv);
  std::fwrite(answer.out.data(), 1, answer.out.size(), stdout);
  std::fflush(stdout);
  std::fwrite(answer.err.data(), 1, answer.err.size(), stderr);
  // The run's report names each synthesised answer (a missing log: nothing to say).
  append_to_file(tree + sim::kSynthesisedLog,
                 sim::display_join(argv) + " (from the device model)\n");
  return answer.exit_code;
}

}  // namespace hwaccel::cli
