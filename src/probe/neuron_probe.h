// The AWS Neuron backend (Inferentia, Inferentia2, Trainium, Trainium2):
//
//   1. /sys/bus/pci/devices/*      Amazon (0x1d0f) functions with a Neuron device id
//                                  (src/catalog/neuron_ids.h); ENA and EBS functions
//                                  share the vendor and are skipped.
//   2. /sys/devices/virtual/neuron_device/neuron<n>: the driver's devices (nodes
//                                  /dev/neuron<n>).
//   3. neuron-ls --json-output     run only when 1 or 2 found something; a tool that
//                                  rejects the flag is asked again with
//                                  --output-format json.
//   4. /sys/class/dmi/id/product_name: the EC2 instance type ("inf2.48xlarge"), for the
//                                  generation when neither the bus nor neuron-ls names
//                                  it, and for the fallback below.
//   5. /sys/module/neuron/version  the driver's version, for ready devices.
//
// Without neuron-ls, the driver's devices and the catalogue give the devices (ready: the
// runtime needs the driver, not the tool). neuron-ls's "failed to discover Neuron
// devices" is driver-not-found.
#pragma once

#include <string>
#include <vector>

#include "src/probe/probe.h"

namespace hwaccel {

std::vector<std::string> neuron_ls_argv();        // neuron-ls --json-output
std::vector<std::string> neuron_ls_newer_argv();  // neuron-ls --output-format json

class NeuronProbe : public Probe {
 public:
  std::string name() const override { return "neuron"; }
  ProbeResult run(Host& host) const override;
};

}  // namespace hwaccel
