// Fault injection: a snapshot in, the same host with things broken out. The
// lead's fault matrix and `hwsim mutate` both go through apply_faults().
#pragma once

#include <string>
#include <vector>

#include "sim/fault.h"
#include "src/snapshot/snapshot.h"

namespace hwaccel::sim {

// The text nvidia-smi prints (to stdout, exit status 9) when the kernel module
// is not loaded.
extern const char* const kNvidiaSmiNoDriver;

struct MutateResult {
  std::vector<std::string> errors;   // one per fault that could not be applied, naming it
  std::vector<std::string> changes;  // what each fault changed, for -v and for tests
  bool ok() const { return errors.empty(); }
};

// Applies the faults in order. A fault that matches nothing in the snapshot is
// an error (a fault that changes nothing would make a test pass for nothing);
// the snapshot keeps whatever the other faults changed.
MutateResult apply_faults(Snapshot& snapshot, const std::vector<Fault>& faults);
MutateResult apply_fault(Snapshot& snapshot, const Fault& fault);

}  // namespace hwaccel::sim
