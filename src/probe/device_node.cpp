#include "src/probe/device_node.h"

namespace hwaccel {

std::vector<std::string> node_access_argv(const std::string& node) {
  return {"test", "-r", node, "-a", "-w", node};
}

std::optional<Reason> device_node_problem(Host& host, const std::string& node,
                                          std::vector<std::string>& provenance) {
  auto kind = host.stat(node);
  if (!kind) {
    if (kind.error().code == EACCES || kind.error().code == EPERM)
      return Reason{ReasonCode::permission_denied,
                    node + " may not be opened by this user (" + kind.error().errno_name() + ")"};
    return Reason{ReasonCode::probe_failed,
                  node + " is missing (" + kind.error().errno_name() + ")"};
  }
  provenance.push_back("file:" + node + " (stat)");
  const auto argv = node_access_argv(node);
  ToolRun test = host.run(argv);
  if (test.outcome != ToolOutcome::exited) return std::nullopt;  // no verdict: stat stands
  provenance.push_back("tool:test -r " + node + " -a -w " + node);
  if (test.exit_code == 1)
    return Reason{ReasonCode::permission_denied,
                  node + " may not be opened for reading and writing by this user"};
  return std::nullopt;
}

}  // namespace hwaccel
