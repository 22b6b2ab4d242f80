// The markdown of docs/planning.md's calibration table, from the rows and the
// catalogue: docs and code cannot drift (tests/unit/plan/calibration_test.cpp
// compares the doc's block with this text).
#pragma once

#include <string>
#include <vector>

#include "src/plan/calibration.h"

namespace hwaccel::plan {

// `leave_one_out` false: the check table (rows never fitted on).
std::string calibration_markdown(const std::vector<CalibrationRow>& rows, const Catalogue& cat,
                                 bool leave_one_out = true);

}  // namespace hwaccel::plan
