// The last line of defence of both binaries: an exception that escapes a
// command is a bug; it becomes exit code 1 and a message that says what to do.
#pragma once

#include <functional>

namespace hwaccel::cli {

int run_guarded(const std::function<int()>& command);

}  // namespace hwaccel::cli
