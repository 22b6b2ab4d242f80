#include "src/host/host.h"

#include <future>
#include <system_error>

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

std::vector<ToolRun> Host::run_many(const std::vector<std::vector<std::string>>& argvs,
                                    Timeout timeout) {
  std::vector<std::future<ToolRun>> started;
  started.reserve(argvs.size());
  for (const auto& argv : argvs) {
    auto ask = [this, &argv, timeout] { return run(argv, timeout); };
    try {
      started.push_back(std::async(std::launch::async, ask));
    } catch (const std::system_error&) {  // no thread: it runs at get(), in turn
      started.push_back(std::async(std::launch::deferred, ask));
    }
  }
  std::vector<ToolRun> runs;
  runs.reserve(started.size());
  for (auto& run : started) runs.push_back(run.get());
  return runs;
}

}  // namespace hwaccel
