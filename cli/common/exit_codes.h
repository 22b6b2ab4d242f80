// Exit codes of hwaccel and hwsim (documented in docs/cli.md).
#pragma once

namespace hwaccel::cli {

enum ExitCode : int {
  kExitOk = 0,
  kExitInternal = 1,      // a bug: an exception escaped
  kExitUsage = 2,         // bad flags or arguments
  kExitReplayMiss = 3,    // --strict replay: a probe asked for a tool run the snapshot lacks
  kExitBadInput = 4,      // an input file (snapshot) is unreadable or breaks its format
  kExitCannotWrite = 5,   // an output file could not be written
  kExitBadReserve = 6,    // --reserve or HWACCEL_RESERVE_BYTES is not a size
  kExitNotCompiled = 7,   // a request names a backend this build does not have
  kExitNotReady = 8,      // a request names a device or backend that is not ready (reason printed)
  kExitUnsatisfied = 9,   // nothing satisfies the request (what is available is printed)
  kExitCheckFailed = 10,  // hwsim check: a snapshot's replay differs from its goldens
  kExitDoesNotFit = 11,   // plan/train/cost: the model does not fit (what would is printed)
};

}  // namespace hwaccel::cli
