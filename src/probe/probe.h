// A probe: one backend. It reads the machine only through the Host and returns
// its backend line, its entries and its warnings. It never throws for anything
// the machine says; a probe never calls another probe.
#pragma once

#include <string>
#include <vector>

#include "src/host/host.h"
#include "src/model/entry.h"
#include "src/model/link.h"
#include "src/model/warning.h"

namespace hwaccel {

struct ProbeResult {
  BackendStatus backend;
  std::vector<Entry> entries;
  std::vector<Warning> warnings;
  std::vector<Link> links;  // between this backend's devices (by physical_id)
};

class Probe {
 public:
  virtual ~Probe() = default;
  virtual std::string name() const = 0;
  virtual ProbeResult run(Host& host) const = 0;
};

}  // namespace hwaccel
