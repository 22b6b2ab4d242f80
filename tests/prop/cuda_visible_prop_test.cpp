// Invariants of CUDA's enumeration rule (src/probe/cuda_visible.h) over random
// hosts and random CUDA_VISIBLE_DEVICES / CUDA_DEVICE_ORDER values.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdio>
#include <set>

#include "src/probe/cuda_visible.h"

namespace hwaccel {
namespace {

std::string hex8(unsigned value) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%08x", value);
  return buffer;
}

// 0-6 GPUs with distinct bus ids and UUIDs, mixed speeds, some MIG-enabled.
rc::Gen<std::vector<CudaGpu>> gpus_gen() {
  return rc::gen::exec([] {
    const auto n = *rc::gen::inRange<std::size_t>(0, 7);
    auto buses = *rc::gen::unique<std::vector<int>>(n, rc::gen::inRange(1, 255));
    auto ids = *rc::gen::unique<std::vector<unsigned>>(n, rc::gen::arbitrary<unsigned>());
    std::vector<CudaGpu> gpus;
    unsigned mig_serial = 0;
    for (std::size_t i = 0; i < n; ++i) {
      CudaGpu g;
      char bus[16];
      std::snprintf(bus, sizeof bus, "0000:%02x:00.0", buses[i]);
      g.pci_bus_id = bus;
      g.uuid = "GPU-" + hex8(ids[i]) + "-0000";
      g.speed = *rc::gen::element<std::uint64_t>(800, 890, 900, 1000);
      g.mig_enabled = *rc::gen::weightedElement<bool>({{4, false}, {1, true}});
      if (g.mig_enabled) {
        const auto count = *rc::gen::inRange(0, 4);
        for (int m = 0; m < count; ++m)
          g.mig.push_back({"MIG-" + hex8(++mig_serial) + "-" + hex8(ids[i]), m + 1, 0});
      }
      gpus.push_back(std::move(g));
    }
    return gpus;
  });
}

// An entry a user might write: an index, a (prefix of a) UUID, a legacy MIG
// name, or junk.
rc::Gen<std::string> token_gen(const std::vector<CudaGpu>& gpus) {
  std::vector<std::string> names = {"", "-1", "foo", "GPU-", "MIG-", "7", "99", "GPU-zz"};
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    names.push_back(std::to_string(i));
    names.push_back(gpus[i].uuid);
    names.push_back(gpus[i].uuid.substr(0, 8));
    for (const auto& m : gpus[i].mig) {
      names.push_back(m.uuid);
      names.push_back("MIG-GPU-" + gpus[i].uuid.substr(4) + "/" +
                      std::to_string(*m.gpu_instance_id) + "/0");
    }
  }
  return rc::gen::elementOf(names);
}

rc::Gen<std::optional<std::string>> visible_gen(const std::vector<CudaGpu>& gpus) {
  return rc::gen::exec([gpus]() -> std::optional<std::string> {
    if (*rc::gen::weightedElement<bool>({{1, true}, {4, false}})) return std::nullopt;
    auto tokens = *rc::gen::container<std::vector<std::string>>(token_gen(gpus));
    std::string value;
    for (std::size_t i = 0; i < tokens.size(); ++i) value += (i ? "," : "") + tokens[i];
    return value;
  });
}

rc::Gen<std::optional<std::string>> order_gen() {
  return rc::gen::element<std::optional<std::string>>(std::nullopt, "PCI_BUS_ID", "FASTEST_FIRST",
                                                      "pci_bus_id", "");
}

bool is_mig(const CudaDeviceRef& d) {
  return d.mig.has_value();
}

RC_GTEST_PROP(CudaVisibleProp, EveryOrdinalIsOneDeviceAndTheMigLimitsHold, ()) {
  const auto gpus = *gpus_gen();
  const auto visible = *visible_gen(gpus);
  const auto order = *order_gen();
  const auto e = cuda_enumerate(gpus, visible, order);

  std::set<std::pair<std::size_t, std::size_t>> seen;
  for (const auto& d : e.devices) {
    RC_ASSERT(d.gpu < gpus.size());
    RC_ASSERT(seen.insert({d.gpu, d.mig ? *d.mig + 1 : 0}).second);
    if (d.mig)
      RC_ASSERT(*d.mig < gpus[d.gpu].mig.size());
    else
      RC_ASSERT(!gpus[d.gpu].mig_enabled);  // a MIG-enabled GPU is never a device itself
  }
  const auto migs = std::count_if(e.devices.begin(), e.devices.end(), is_mig);
  RC_ASSERT(migs <= 1);
  if (migs == 1) RC_ASSERT(e.devices.size() == 1u);
  if (visible && visible->find_first_not_of(' ') == std::string::npos) RC_ASSERT(e.devices.empty());
}

RC_GTEST_PROP(CudaVisibleProp, UnsetShowsEveryWholeGpuInTheDriversOrder, ()) {
  const auto gpus = *gpus_gen();
  const auto order = *order_gen();
  const auto e = cuda_enumerate(gpus, std::nullopt, order);
  std::vector<std::size_t> expected;
  for (auto g : cuda_device_order(gpus, order))
    if (!gpus[g].mig_enabled) expected.push_back(g);
  if (!expected.empty()) {
    RC_ASSERT(e.devices.size() == expected.size());
    for (std::size_t k = 0; k < expected.size(); ++k) RC_ASSERT(e.devices[k].gpu == expected[k]);
  }
  const auto sorted = cuda_device_order(gpus, "PCI_BUS_ID");
  for (std::size_t k = 1; k < sorted.size(); ++k)
    RC_ASSERT(gpus[sorted[k - 1]].pci_bus_id < gpus[sorted[k]].pci_bus_id);
}

// A program that writes a device's token alone into CUDA_VISIBLE_DEVICES gets
// exactly that device at ordinal 0, whatever the order.
RC_GTEST_PROP(CudaVisibleProp, EachDevicesTokenNamesItAlone, ()) {
  const auto gpus = *gpus_gen();
  const auto visible = *visible_gen(gpus);
  const auto order = *order_gen();
  for (const auto& d : cuda_enumerate(gpus, visible, order).devices) {
    const auto token = cuda_visible_token(gpus, d);
    RC_ASSERT(!token.empty());
    const auto alone = cuda_enumerate(gpus, token, *order_gen());
    RC_ASSERT(alone.devices.size() == 1u);
    RC_ASSERT(alone.devices.front() == d);
  }
}

// A list stops at its first bad entry: cutting it before an entry never
// changes the devices of the entries before the cut (hosts without MIG, where
// the limits of one MIG device do not apply; duplicates aside, which empty it).
RC_GTEST_PROP(CudaVisibleProp, ShorterListsArePrefixes, ()) {
  auto gpus = *gpus_gen();
  for (auto& g : gpus) g.mig_enabled = false, g.mig.clear();
  const auto order = *order_gen();
  auto tokens = *rc::gen::container<std::vector<std::string>>(token_gen(gpus));
  std::string value;
  std::vector<std::string> prefixes = {""};
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    value += (i ? "," : "") + tokens[i];
    prefixes.push_back(value);
  }
  const auto full = cuda_enumerate(gpus, value, order);
  if (full.problem.find("named before") != std::string::npos) return;
  for (const auto& p : prefixes) {
    const auto part = cuda_enumerate(gpus, p, order);
    RC_ASSERT(part.devices.size() <= full.devices.size());
    RC_ASSERT(std::equal(part.devices.begin(), part.devices.end(), full.devices.begin()));
  }
}

}  // namespace
}  // namespace hwaccel
