// hwaccel C++ API for a runtime that embeds detection: build a registry for
// all or some backends, ask it questions, and it probes a backend only when a
// question first needs it. See docs/library.md for examples (compiled in ctest).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "hwaccel/export.h"

namespace hwaccel::api {

// One device seen through one backend.
struct Device {
  std::string label;    // "cuda:0"
  std::string backend;  // "cuda", "rocm", "cpu", or a custom source's name
  int index = 0;
  std::string name;            // "NVIDIA H100 80GB HBM3"
  std::string vendor;          // "NVIDIA"
  std::string type = "other";  // cpu | gpu | npu | tpu | asic | other
  std::string physical_id;     // "pci:0000:18:00.0": the same for one device seen twice
  std::string pci_bus_id;
  std::string compute_class;  // "sm_90", "gfx942", "avx512"
  std::string driver_version;
  bool ready = true;
  std::string reason;                    // why not ready: "driver-not-found: ..."
  std::string memory_kind = "discrete";  // discrete | unified | host
  std::optional<std::uint64_t> total_bytes;
  std::optional<std::uint64_t> free_bytes;
};

// How a device is named to its runtime and where it sits: enough for a program
// to build its own CUDA_VISIBLE_DEVICES. A struct of its own, asked for with
// Registry::details(), so that Device keeps its layout (docs/library.md, "ABI").
struct DeviceDetails {
  // "GPU-8932f937-..." / "MIG-...": what CUDA_VISIBLE_DEVICES names the device by.
  std::string uuid;
  // The ordinal this process's runtime opens it by (CUDA after CUDA_VISIBLE_DEVICES
  // and CUDA_DEVICE_ORDER, HIP after ROCR_/HIP_VISIBLE_DEVICES): "cuda:2" may be
  // CUDA device 0. None when hidden from this process, or for other backends.
  std::optional<int> ordinal;
  std::optional<int> numa_node;
  // A MIG device or compute partition: its profile ("3g.40gb", "CPX") and the
  // whole device's label ("cuda:0"); empty for a whole device.
  std::string partition_profile;
  std::string partition_parent;
};

// What a registry could not do: an unreadable snapshot, an unknown backend.
class HWACCEL_API Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The outcome of a request: the device, or why none.
struct Choice {
  std::optional<Device> device;
  std::string reason;  // why this one, or what was wrong and what is available
};

class HWACCEL_API Registry {
 public:
  Registry(Registry&&) noexcept;
  Registry& operator=(Registry&&) noexcept;
  ~Registry();

  // The backends this registry covers, and those probed so far.
  std::vector<std::string> families() const;
  std::vector<std::string> probed_families() const;

  // Every device of every covered backend (probes what is not probed yet),
  // then the devices added with add_device().
  std::vector<Device> devices();
  // The devices of one backend; probes only that backend, once.
  std::vector<Device> family(const std::string& backend);

  // The details of a device this registry listed (by its label); empty details
  // for a device it does not know or one added with add_device().
  DeviceDetails details(const Device& device);

  // The default choice: the best ready accelerator, else the CPU.
  std::optional<Device> best();
  // A request: "cuda:1", "pci:0000:3b:00.0", "rocm", "gpu mem>=40G".
  Choice select(const std::string& request);
  std::optional<Device> satisfying(const std::string& request) { return select(request).device; }

  // Host memory plus the memory of ready discrete accelerators; and the
  // memory of ready accelerators alone (each physical device once).
  std::uint64_t total_memory_bytes();
  std::uint64_t accelerator_memory_bytes();

  // A device from another source (a scheduler, a remote agent): it takes part
  // in every query. Its backend may be any name.
  void add_device(const Device& device);

  // The hwaccel-detect/1 JSON document of everything probed and added so far.
  std::string json();

 private:
  friend class RegistryBuilder;
  struct Impl;
  explicit Registry(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

class HWACCEL_API RegistryBuilder {
 public:
  // Only these backends (default: every backend of this build). Throws Error
  // at build() for a name this build does not know.
  RegistryBuilder& backends(std::vector<std::string> names);
  // Read a recorded host (hwaccel detect --record FILE) instead of this machine.
  RegistryBuilder& snapshot(std::string path);
  // How long each vendor tool may run (default 5 s).
  RegistryBuilder& tool_timeout(std::chrono::milliseconds timeout);
  // Probe every backend in build() instead of on first use.
  RegistryBuilder& eager(bool eager = true);
  Registry build() const;

 private:
  std::vector<std::string> backends_;
  std::string snapshot_;
  std::chrono::milliseconds timeout_{5000};
  bool eager_ = false;
};

// The library's version, "0.1.0".
HWACCEL_API std::string version();

}  // namespace hwaccel::api
