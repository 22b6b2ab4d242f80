// What `hwsim check` compares and the golden test (tests/golden/golden_test.cpp)
// reviews: a snapshot's detect.txt, detect.json, devices.txt and devices.json,
// rendered the same way (the reserve the host's environment gives, the default
// selection, the snapshot named as the source).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "src/snapshot/snapshot.h"

namespace hwaccel::sim {

struct GoldenRender {
  std::vector<std::pair<std::string, std::string>> files;  // file name -> bytes, in this order
  std::vector<std::vector<std::string>> misses;  // tool runs the probes asked for and lacked
  std::string error;                             // set when the reserve variable is malformed
};

// `source` is how the snapshot was named: "snapshot(fixtures/hosts/gx10.yaml)".
GoldenRender render_goldens(const Snapshot& snapshot, const std::string& source);

}  // namespace hwaccel::sim
