#include "cli/common/exit_code_table.h"

#include "cli/common/exit_codes.h"

namespace hwaccel::cli {

const std::vector<ExitCodeDoc>& exit_code_table() {
  static const std::vector<ExitCodeDoc> table = {
      {kExitOk, "success, whatever was or was not found (absence is data, not an error)"},
      {kExitInternal, "internal error (a bug; please report it with the snapshot)"},
      {kExitUsage, "usage error: unknown flag, subcommand or backend name, bad value"},
      {kExitReplayMiss, "--strict replay: the snapshot lacks a tool run the probes asked for"},
      {kExitBadInput, "an input file is unreadable or breaks its format"},
      {kExitCannotWrite, "an output file could not be written"},
      {kExitBadReserve, "--reserve or HWACCEL_RESERVE_BYTES is not a size"},
      {kExitNotCompiled, "a request names a backend this build does not have"},
      {kExitNotReady, "a request names a device or backend that is not ready"},
      {kExitUnsatisfied, "nothing satisfies the request"},
      {kExitCheckFailed, "hwsim check: a snapshot's replay differs from its goldens"},
      {kExitDoesNotFit, "plan/train/cost: the model does not fit"},
  };
  return table;
}

}  // namespace hwaccel::cli
