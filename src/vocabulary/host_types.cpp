#include "src/vocabulary/host_types.h"

namespace hwaccel {

std::string_view to_string(FileKind kind) {
  switch (kind) {
    case FileKind::regular:
      return "file";
    case FileKind::directory:
      return "dir";
    case FileKind::symlink:
      return "link";
    case FileKind::char_device:
      return "char";
    case FileKind::block_device:
      return "block";
    case FileKind::fifo:
      return "fifo";
    case FileKind::socket:
      return "socket";
  }
  return "file";
}

std::string_view to_string(ToolOutcome outcome) {
  switch (outcome) {
    case ToolOutcome::exited:
      return "exited";
    case ToolOutcome::not_found:
      return "not-found";
    case ToolOutcome::timeout:
      return "timeout";
    case ToolOutcome::signal:
      return "signal";
    case ToolOutcome::permission_denied:
      return "permission-denied";
  }
  return "exited";
}

}  // namespace hwaccel
