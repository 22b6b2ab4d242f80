#include "src/registry/selection.h"

#include <gtest/gtest.h>

#include "src/registry/identity.h"
#include "tests/unit/registry/registry_fixtures.h"

namespace hwaccel {
namespace {

using testing::cpu;
using testing::detection_with;
using testing::gpu;

const std::vector<std::string> kCompiled = {"cuda", "rocm", "cpu"};

Request device(const std::string& d) {
  Request r;
  r.device = d;
  return r;
}

TEST(Selection, PicksByBackendOrderThenFreeMemoryThenIndex) {
  auto d = detection_with({gpu("cuda", 0, 81559, 40000, "0000:1b:00.0"),
                           gpu("cuda", 1, 81559, 81000, "0000:43:00.0"),
                           gpu("rocm", 0, 196592, 190000, "0000:05:00.0"), cpu()});
  auto s = select_default(d);
  ASSERT_TRUE(s.entry);
  EXPECT_EQ(entry_label(d.entries[*s.entry]), "cuda:1");
  EXPECT_NE(s.reason.find("first ready cuda device"), std::string::npos);
  EXPECT_NE(s.reason.find("3 physical devices ready"), std::string::npos) << s.reason;
}

TEST(Selection, FallsBackToTheCpuSayingWhy) {
  auto broken = gpu("cuda", 0, 81559, 81000, "0000:1b:00.0");
  broken.status = EntryStatus::unavailable;
  broken.reason = Reason{ReasonCode::driver_not_found, "no driver bound"};
  auto d = detection_with({broken, cpu()});
  d.backends[0] = {"cuda", false, Reason{ReasonCode::driver_not_found, "couldn't communicate"}};
  d.backends[1] = {"rocm", false, Reason{ReasonCode::no_device, ""}};
  auto s = select_default(d);
  ASSERT_TRUE(s.entry);
  EXPECT_EQ(d.entries[*s.entry].backend, "cpu");
  EXPECT_EQ(s.reason,
            "no ready accelerator: cuda=driver-not-found(couldn't communicate), rocm=no-device");
}

TEST(Selection, NeverOffersAPartitionedWholeGpu) {
  auto parent = gpu("cuda", 0, 81559, 81000, "0000:1b:00.0");
  parent.partitioned = true;
  auto mig = gpu("cuda", 1, 40192, 40000);
  mig.physical_id = "mig:0000:1b:00.0/0";
  mig.partition = Partition{"3g.40gb", "pci:0000:1b:00.0", 0, {}, {}};
  auto d = detection_with({parent, mig, cpu()});
  auto s = select_default(d);
  EXPECT_EQ(entry_label(d.entries[*s.entry]), "cuda:1");
  EXPECT_EQ(count_physical_accelerators(d.entries, true), 1u) << "a MIG instance is its parent";
  auto r = resolve_request(d, device("cuda:0"), kCompiled);
  EXPECT_EQ(r.outcome, RequestOutcome::not_ready);
  EXPECT_NE(r.message.find("partitioned"), std::string::npos);
}

TEST(Requests, ResolveOrRefuseWithTheRightOutcome) {
  auto refused = gpu("cuda", 1, 81559, 100, "0000:43:00.0");
  refused.status = EntryStatus::unavailable;
  refused.reason = Reason{ReasonCode::reserve_exceeds_free, "reserve 3584 MiB > free 100 MiB"};
  auto d = detection_with({gpu("cuda", 0, 81559, 81000, "0000:1b:00.0"), refused, cpu()});
  d.backends[1] = {"rocm", false, Reason{ReasonCode::no_device, "no AMD GPU on the PCI bus"}};

  auto ok = resolve_request(d, device("cuda:0"), kCompiled);
  EXPECT_EQ(ok.outcome, RequestOutcome::selected);
  EXPECT_EQ(*ok.entry, 0u);

  auto by_pci = resolve_request(d, device("pci:0000:1B:00.0"), kCompiled);
  EXPECT_EQ(by_pci.outcome, RequestOutcome::selected);

  auto busy = resolve_request(d, device("cuda:1"), kCompiled);
  EXPECT_EQ(busy.outcome, RequestOutcome::not_ready);
  EXPECT_NE(busy.message.find("reserve-exceeds-free"), std::string::npos) << busy.message;
  EXPECT_NE(busy.message.find("available: cuda:0 (ready)"), std::string::npos) << busy.message;

  auto missing = resolve_request(d, device("cuda:7"), kCompiled);
  EXPECT_EQ(missing.outcome, RequestOutcome::unsatisfiable);

  Request rocm;
  rocm.backend = "rocm";
  EXPECT_EQ(resolve_request(d, rocm, kCompiled).outcome, RequestOutcome::not_ready);

  Request vulkan;
  vulkan.backend = "vulkan";
  EXPECT_EQ(resolve_request(d, vulkan, kCompiled).outcome, RequestOutcome::not_compiled);

  Request typo;
  typo.backend = "cudaa";
  EXPECT_EQ(resolve_request(d, typo, kCompiled).outcome, RequestOutcome::bad_request);

  Request big;
  big.requirements.push_back(*parse_requirement("mem>=100G"));
  EXPECT_EQ(resolve_request(d, big, kCompiled).outcome, RequestOutcome::unsatisfiable)
      << "the CPU's 60 GiB free is not 100G either";

  Request gpu_only;
  gpu_only.requirements.push_back(*parse_requirement("gpu"));
  auto g = resolve_request(d, gpu_only, kCompiled);
  EXPECT_EQ(g.outcome, RequestOutcome::selected);
  EXPECT_EQ(d.entries[*g.entry].backend, "cuda");
}

TEST(Requests, AGpuRequestNeverFallsBackToTheCpu) {
  auto d = detection_with({cpu()});
  d.backends[0] = {"cuda", false,
                   Reason{ReasonCode::tool_not_found, "nvidia-smi not found on PATH"}};
  Request r;
  r.requirements.push_back(*parse_requirement("gpu"));
  EXPECT_EQ(resolve_request(d, r, kCompiled).outcome, RequestOutcome::unsatisfiable);
  Request cuda;
  cuda.backend = "cuda";
  auto c = resolve_request(d, cuda, kCompiled);
  EXPECT_EQ(c.outcome, RequestOutcome::not_ready);
  EXPECT_NE(c.message.find("tool-not-found"), std::string::npos);
}

TEST(Requirements, ParseOrRefuse) {
  EXPECT_EQ(parse_requirement("mem>=40G")->bytes, 40ull << 30);
  EXPECT_EQ(parse_requirement("npu")->type, DeviceType::npu);
  EXPECT_FALSE(parse_requirement("mem>40G"));
  EXPECT_FALSE(parse_requirement("fpga"));
}

TEST(Identity, AddressFirstThenVendorNameOrdinal) {
  std::vector<Entry> entries = {gpu("cuda", 0, 1, 1), gpu("cuda", 1, 1, 1),
                                gpu("cuda", 2, 1, 1, "0000:01:00.0")};
  assign_physical_ids(entries);
  EXPECT_EQ(entries[0].physical_id, "dev:nvidia/nvidia-h100-80gb-hbm3/0");
  EXPECT_EQ(entries[1].physical_id, "dev:nvidia/nvidia-h100-80gb-hbm3/1")
      << "two identical cards stay two";
  EXPECT_EQ(entries[2].physical_id, "pci:0000:01:00.0");
  EXPECT_EQ(count_physical_accelerators(entries, false), 3u);
  EXPECT_EQ(normalise_device_name("NVIDIA GeForce RTX(TM) 4090 "), "nvidia-geforce-rtx-tm-4090");
}

}  // namespace
}  // namespace hwaccel
