#include "cli/common/guarded.h"

#include <exception>
#include <iostream>

#include "cli/common/exit_codes.h"

namespace hwaccel::cli {

int run_guarded(const std::function<int()>& command) {
  try {
    return command();
  } catch (const std::exception& e) {
    std::cerr << "internal error: " << e.what()
              << "\n(a bug in hwaccel: please report it with a recording of this host, "
                 "`hwaccel detect --record host.yaml`)\n";
  } catch (...) {
    std::cerr << "internal error: unknown exception\n(a bug in hwaccel: please report it with a "
                 "recording of this host, `hwaccel detect --record host.yaml`)\n";
  }
  return kExitInternal;
}

}  // namespace hwaccel::cli
