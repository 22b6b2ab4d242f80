// Properties of the CUDA enumeration rule (src/registry/cuda_visible.h) over
// generated hosts and CUDA_VISIBLE_DEVICES values: whatever the value, the answer
// is a list of distinct devices a process can open, one MIG device at most; a list
// of valid indices is taken as given, and an invalid entry ends it.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "src/registry/cuda_visible.h"

namespace hwaccel {
namespace {

// 1-8 GPUs of 1-3 models; some in MIG mode with 1-3 MIG devices.
rc::Gen<std::vector<CudaCandidate>> host_gen() {
  return rc::gen::exec([] {
    const int gpus = *rc::gen::inRange(1, 9);
    std::vector<CudaCandidate> devices;
    for (int i = 0; i < gpus; ++i) {
      CudaCandidate c;
      char text[64];
      std::snprintf(text, sizeof text, "GPU-%08x-0000-0000-0000-%012d",
                    *rc::gen::inRange(0, 4) * 0x11111111 + i, i);
      c.uuid = text;
      std::snprintf(text, sizeof text, "0000:%02x:00.0", *rc::gen::inRange(1, 255));
      c.bus_id = text;
      c.cc_major = *rc::gen::inRange(7, 11);
      c.multiprocessors = *rc::gen::inRange(1, 200);
      devices.push_back(c);
    }
    for (int i = 0; i < gpus; ++i) {
      if (*rc::gen::inRange(0, 4) != 0) continue;  // a quarter of the GPUs in MIG mode
      devices[static_cast<std::size_t>(i)].mig_enabled = true;
      const int migs = *rc::gen::inRange(1, 4);
      for (int m = 0; m < migs; ++m) {
        CudaCandidate c = devices[static_cast<std::size_t>(i)];
        char text[64];
        std::snprintf(text, sizeof text, "MIG-%08x-0000-0000-0000-%012d", i * 16 + m, m);
        c.uuid = text;
        c.is_mig = true;
        c.mig_enabled = false;
        c.parent = static_cast<std::size_t>(i);
        devices.push_back(c);
      }
    }
    return devices;
  });
}

// Entries of every kind: indices (some out of range or negative), UUIDs and
// prefixes of them, garbage.
rc::Gen<std::string> value_gen(const std::vector<CudaCandidate>& devices) {
  return rc::gen::exec([devices] {
    const int entries = *rc::gen::inRange(0, 6);
    std::string value;
    for (int i = 0; i < entries; ++i) {
      if (i) value += ",";
      switch (*rc::gen::inRange(0, 4)) {
        case 0:
          value += std::to_string(*rc::gen::inRange(-2, 10));
          break;
        case 1: {
          const auto& d = devices[*rc::gen::inRange<std::size_t>(0, devices.size())];
          value += d.uuid.substr(0, *rc::gen::inRange<std::size_t>(5, d.uuid.size() + 1));
          break;
        }
        case 2:
          value += devices[*rc::gen::inRange<std::size_t>(0, devices.size())].uuid;
          break;
        default:
          value += *rc::gen::element<std::string>("x", "", " ", "GPU-", "MIG-", "1.5", "0x1");
      }
    }
    return value;
  });
}

RC_GTEST_PROP(CudaVisibleProp, AnswersAreDistinctOpenableDevicesOneMigAtMost, ()) {
  const auto devices = *host_gen();
  const std::optional<std::string> value =
      *rc::gen::inRange(0, 5) == 0 ? std::nullopt : std::optional(*value_gen(devices));
  const auto order = *rc::gen::element<std::optional<std::string>>(std::nullopt, "PCI_BUS_ID",
                                                                   "FASTEST_FIRST", "junk");
  const auto out = cuda_enumeration(devices, value, order);
  RC_ASSERT(std::set<std::size_t>(out.begin(), out.end()).size() == out.size());
  int migs = 0;
  for (std::size_t d : out) {
    RC_ASSERT(d < devices.size());
    RC_ASSERT(!devices[d].mig_enabled);
    migs += devices[d].is_mig;
  }
  RC_ASSERT(migs <= 1);
  if (!value) {  // unset: every GPU not in MIG mode is there
    for (std::size_t d = 0; d < devices.size(); ++d)
      if (!devices[d].is_mig && !devices[d].mig_enabled)
        RC_ASSERT(std::count(out.begin(), out.end(), d) == 1);
  }
}

RC_GTEST_PROP(CudaVisibleProp, ValidIndicesAreTakenAndAnInvalidEntryEndsTheList, ()) {
  auto devices = *host_gen();
  for (auto& d : devices) d.mig_enabled = false;  // whole GPUs only
  devices.erase(std::remove_if(devices.begin(), devices.end(), [](auto& d) { return d.is_mig; }),
                devices.end());
  const auto base = cuda_enumeration(devices, std::nullopt, "PCI_BUS_ID");
  std::vector<std::size_t> picks(base.size());
  for (std::size_t i = 0; i < picks.size(); ++i) picks[i] = i;
  picks =
      *rc::gen::suchThat(rc::gen::container<std::vector<std::size_t>>(rc::gen::elementOf(picks)),
                         [](const std::vector<std::size_t>& p) {
                           return std::set<std::size_t>(p.begin(), p.end()).size() == p.size();
                         });
  std::string value;
  std::vector<std::size_t> want;
  for (std::size_t i : picks) {
    value += (value.empty() ? "" : ",") + std::to_string(i);
    want.push_back(base[i]);
  }
  const std::string tail = *rc::gen::element<std::string>(",-1,0", ",99", ",nope,1", "");
  RC_ASSERT(cuda_enumeration(devices, value + tail, "PCI_BUS_ID") == want);
}

}  // namespace
}  // namespace hwaccel
