// libFuzzer target: redaction (src/host/redaction.cpp) of one input placed
// everywhere a recording holds text: a sysfs file, an address file (/etc), a
// whole-value identifier file (DMI), an InfiniBand GID, a tool's stdout, and
// environment values under each rule; its first line is also the hostname and
// the user name. Checks: no crash or hang, and redaction is idempotent
// (redact(redact(x)) == redact(x)): every pseudonym is a fixed point, so no
// identifier shape the scanners know survives a first pass.
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "src/host/redaction.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace hwaccel;
  std::string text(reinterpret_cast<const char*>(data), size);
  std::string first_line = text.substr(0, std::min<std::size_t>(text.find('\n'), 64));
  Snapshot s;
  s.facts.hostname = first_line;
  s.host.label = first_line;
  s.files["/sys/bus/pci/devices/0000:3b:00.0/uevent"] = FileEntry::of_content(text);
  s.files["/etc/hosts"] = FileEntry::of_content(text);
  s.files["/sys/class/dmi/id/board_serial"] = FileEntry::of_content(text);
  s.files["/sys/class/infiniband/mlx5_0/ports/1/gids/0"] = FileEntry::of_content(text);
  s.files["/home/" + first_line + "/x"] = FileEntry::of_content(text);
  ToolEntry tool;
  tool.argv = {"nvidia-smi", "-q"};
  tool.run.out = text;
  tool.run.err = first_line;
  s.tools[tool.argv] = tool;
  for (const char* name : {"PATH", "HOME", "USER", "CUDA_VISIBLE_DEVICES",
                           "KUBERNETES_SERVICE_HOST", "container", "SOMETHING_ELSE"})
    s.env[name] = name[0] == 'U' ? first_line : text;
  redact(s);
  Snapshot again = s;
  redact(again);
  if (!(again == s)) std::abort();  // a pseudonym that is not a fixed point
  return 0;
}
