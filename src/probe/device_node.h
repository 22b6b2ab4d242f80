// Whether this user may open a device node (/dev/vfio/3, /dev/accel/accel0): stat
// through the Host (a snapshot's {error: EACCES}, a missing node), then
// `test -r NODE -a -w NODE`, access(2) for this user without opening the device
// (opening a TPU or an AI 100 can reset it or block on another owner).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "src/host/host.h"
#include "src/model/reason.h"

namespace hwaccel {

std::vector<std::string> node_access_argv(const std::string& node);

// nullopt when the node is there and may be opened for reading and writing as far
// as the host says; else permission-denied (EACCES, EPERM, test says no) or
// probe-failed (missing). Adds what it read to `provenance`.
std::optional<Reason> device_node_problem(Host& host, const std::string& node,
                                          std::vector<std::string>& provenance);

}  // namespace hwaccel
