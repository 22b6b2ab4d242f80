// Whether a kernel exists in the build for one device, read from the #if
// region that contains its definition, and if not, why.
#pragma once

#include <string>
#include <vector>

#include "src/kernels/classes.h"
#include "src/kernels/tree.h"

namespace hwaccel::kernels {

enum class Reason {
  available,
  not_compiled,       // its module is not compiled for the class
  region_excluded,    // its #if region is false under the class's flags
  lacks_instruction,  // its region needs a guard macro whose instruction the device lacks
  expected_absent,    // the class lists it as expected-absent
};
std::string to_string(Reason r);

struct Availability {
  std::string kernel;
  std::string where;  // file:line of the definition
  Reason reason = Reason::available;
  std::string detail;  // the condition and why it is false; "" when available
  bool available() const { return reason == Reason::available; }
};

// The macros a build for `sku` sees: the class's flags, then each [[guard]]
// macro defined exactly when the device has its instruction.
MacroSet build_macros(const ResolvedClass& rc, const plan::Sku& sku,
                      const std::vector<plan::Guard>& guards);

// Flags that contradict the device: the class defines a guard macro whose
// instruction the device lacks, or undefines one whose instruction it has.
// One line per contradiction, naming class, macro, device and instruction.
std::vector<std::string> flag_contradictions(const ResolvedClass& rc, const plan::Sku& sku,
                                             const std::vector<plan::Guard>& guards);

Availability availability(const KernelDef& kernel, const ResolvedClass& rc, const plan::Sku& sku,
                          const std::vector<plan::Guard>& guards);

}  // namespace hwaccel::kernels
