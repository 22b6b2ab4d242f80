#include "cli/common/hwsim_libraries.h"

#include "src/host/live_host.h"

namespace hwaccel::cli {

std::string simulated_library_file(const char* env_var, const std::string& name) {
  LiveHost live;
  auto usable = [&](const std::string& path) {
    return !path.empty() && path[0] == '/' && live.stat(path).ok();
  };
  if (auto given = live.env(env_var); given && usable(*given)) return *given;
  auto exe = live.readlink("/proc/self/exe");
  if (!exe) return "";
  const std::string dir = exe.value().substr(0, exe.value().rfind('/'));
  if (usable(dir + "/" + name)) return dir + "/" + name;
#ifdef HWSIM_LIBRARY_DIR_FROM_BIN
  // Relative to the installed hwsim (CMake's BINDIR -> LIBDIR/hwaccel), so a
  // tree installed with `cmake --install --prefix P` or copied elsewhere works.
  const std::string installed = dir + "/" HWSIM_LIBRARY_DIR_FROM_BIN "/" + name;
  if (usable(installed)) return installed;
#endif
  return "";
}

}  // namespace hwaccel::cli
