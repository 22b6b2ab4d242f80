// What nvidia-smi says when it fails, turned into a Reason. nvidia-smi prints
// its errors on stdout, so callers pass stdout and stderr together.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/model/reason.h"

namespace hwaccel {

// A failure nvidia-smi is known to print, wherever it appears in the text;
// nullopt when none is found. The detail is the line that says it.
std::optional<Reason> known_nvidia_smi_error(std::string_view output);

// The reason for a run that exited with a non-zero status: a known failure, or
// probe-failed with the tool's first meaningful line.
Reason classify_nvidia_smi_failure(std::string_view output, int exit_code);

// Field "compute_cap" is not a valid field to query. -> {"compute_cap"}, in the
// order printed, without repeats.
std::vector<std::string> rejected_query_fields(std::string_view output);

}  // namespace hwaccel
