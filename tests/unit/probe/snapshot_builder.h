// A host built file by file (links and device nodes included) and replayed
// through the real SnapshotHost, for the probes of the accelerator families
// that live in sysfs: TPU, Gaudi, Neuron, Qualcomm.
#pragma once

#include <string>
#include <vector>

#include "src/host/snapshot_host.h"
#include "src/snapshot/snapshot.h"

namespace hwaccel::testing {

struct SnapshotBuilder {
  Snapshot snapshot;

  void file(const std::string& path, std::string content) {
    snapshot.files[path] = FileEntry::of_content(std::move(content));
  }
  void link(const std::string& path, std::string target) {
    snapshot.files[path] = FileEntry::of_link(std::move(target));
  }
  void error(const std::string& path, int code) {
    snapshot.files[path] = FileEntry::of_error(code);
  }
  void node(const std::string& path) {
    snapshot.files[path] = FileEntry::of_node(FileKind::char_device);
  }
  void env(const std::string& name, std::string value) { snapshot.env[name] = std::move(value); }
  void tool(std::vector<std::string> argv, int exit_code, std::string out, std::string err = "") {
    ToolEntry t;
    t.argv = argv;
    t.run.exit_code = exit_code;
    t.run.out = std::move(out);
    t.run.err = std::move(err);
    snapshot.tools[argv] = std::move(t);
  }
  void tool_outcome(std::vector<std::string> argv, ToolOutcome outcome) {
    ToolEntry t;
    t.argv = argv;
    t.run.outcome = outcome;
    snapshot.tools[argv] = std::move(t);
  }
  // One PCI function as sysfs shows it; driver "" for none bound.
  void pci(const std::string& address, const std::string& vendor, const std::string& device,
           const std::string& class_code, const std::string& driver, int numa = 0) {
    const std::string dir = "/sys/bus/pci/devices/" + address;
    file(dir + "/vendor", vendor + "\n");
    file(dir + "/device", device + "\n");
    file(dir + "/class", class_code + "\n");
    file(dir + "/numa_node", std::to_string(numa) + "\n");
    if (!driver.empty()) link(dir + "/driver", "../../../../bus/pci/drivers/" + driver);
  }
};

}  // namespace hwaccel::testing
