// The CUDA view of fixture hosts: the devices, ordinals and facts libcuda.so.1
// answers, the driver states cuInit reports, and the peers from the topology.
#include "cuda/cuda_model.h"

#include <gtest/gtest.h>

#include <cstring>

#include "src/host/snapshot_host.h"
#include "tests/support/test_support.h"

namespace hwaccel::cuda {
namespace {

Model model_of(const std::string& fixture, std::optional<std::string> visible = std::nullopt,
               std::optional<std::string> order = std::nullopt) {
  auto loaded = load_snapshot_file(testing::source_path("fixtures/hosts/" + fixture + ".yaml"));
  EXPECT_TRUE(loaded.snapshot) << fixture;
  SnapshotHost host(std::move(*loaded.snapshot));
  return make_model(nvml::build_model(host), visible, order);
}

TEST(CudaModel, UuidBytes) {
  auto bytes = uuid_bytes_of("GPU-8932f937-d72c-4106-c12f-20bd9faed9f6");
  ASSERT_TRUE(bytes);
  EXPECT_EQ(static_cast<unsigned char>(bytes->bytes[0]), 0x89);
  EXPECT_EQ(static_cast<unsigned char>(bytes->bytes[15]), 0xf6);
  EXPECT_TRUE(uuid_bytes_of("MIG-00000001-0000-0000-0000-000000000001"));
  EXPECT_FALSE(uuid_bytes_of("GPU-8932f937"));
  EXPECT_FALSE(uuid_bytes_of("MIG-GPU-8932f937-d72c-4106-c12f-20bd9faed9f6/1/0"));
  EXPECT_FALSE(uuid_bytes_of("GPU-xx32f937-d72c-4106-c12f-20bd9faed9f6"));
}

TEST(CudaModel, DgxH100ListsEightHoppersWithTheirFacts) {
  Model m = model_of("dgx-h100");
  ASSERT_EQ(m.init_result, CUDA_SUCCESS);
  ASSERT_EQ(m.visible.size(), 8u);
  const Device& d = m.devices[m.visible[0]];
  EXPECT_EQ(d.cc_major, 9);
  EXPECT_EQ(d.cc_minor, 0);
  EXPECT_EQ(d.multiprocessors, 132u);  // the catalogue's H100 SXM
  EXPECT_GT(d.total, d.free);
  EXPECT_GT(d.free, 0u);
  EXPECT_FALSE(d.unified);
  EXPECT_GT(m.driver_version, 12000);
  // NVSwitch fabric: every pair are peers with atomics.
  auto p2p = m.p2p.at({m.visible[0], m.visible[7]});
  EXPECT_TRUE(p2p.access);
  EXPECT_TRUE(p2p.atomics);
}

TEST(CudaModel, VisibleDevicesReorderAndEnd) {
  Model m = model_of("dgx-h100", "3,1,-1,0");
  ASSERT_EQ(m.visible.size(), 2u);
  EXPECT_EQ(m.visible[0], 3u);
  EXPECT_EQ(m.visible[1], 1u);
  EXPECT_EQ(model_of("dgx-h100", "").init_result, CUDA_ERROR_NO_DEVICE);
}

TEST(CudaModel, DriverStatesGiveTheRealInitErrors) {
  EXPECT_EQ(model_of("nvidia-no-driver").init_result, CUDA_ERROR_NO_DEVICE);
  EXPECT_EQ(model_of("nvidia-mismatch").init_result, CUDA_ERROR_SYSTEM_DRIVER_MISMATCH);
  EXPECT_EQ(model_of("cpu-only").init_result, CUDA_ERROR_NO_DEVICE);
}

TEST(CudaModel, Gb10IsIntegratedWithHostMemory) {
  Model m = model_of("gx10");
  ASSERT_EQ(m.init_result, CUDA_SUCCESS);
  ASSERT_EQ(m.visible.size(), 1u);
  const Device& d = m.devices[m.visible[0]];
  EXPECT_TRUE(d.unified);
  EXPECT_TRUE(d.coherent);
  EXPECT_EQ(d.cc_major, 12);
  EXPECT_EQ(d.cc_minor, 1);
  EXPECT_EQ(d.free, 124659519488u);  // MemAvailable
}

TEST(CudaModel, GraceHopperReachesHostMemory) {
  Model m = model_of("gh200");
  ASSERT_EQ(m.init_result, CUDA_SUCCESS);
  const Device& d = m.devices[m.visible[0]];
  EXPECT_FALSE(d.unified);
  EXPECT_TRUE(d.coherent);  // ATS addressing
}

TEST(CudaModel, MigHostEnumeratesOneMigDevice) {
  Model m = model_of("h100-mig");
  ASSERT_EQ(m.init_result, CUDA_SUCCESS);
  ASSERT_EQ(m.visible.size(), 1u);
  const Device& d = m.devices[m.visible[0]];
  EXPECT_TRUE(d.is_mig);
  EXPECT_EQ(d.name, "NVIDIA H100 80GB HBM3 MIG 3g.40gb");
  EXPECT_EQ(d.multiprocessors, 60u);  // the 3g profile's SMs
  // A MIG UUID names another one.
  Model other = model_of("h100-mig", "MIG-00000002-0000-0000-0000-000000000002");
  ASSERT_EQ(other.visible.size(), 1u);
  EXPECT_EQ(other.devices[other.visible[0]].uuid, "MIG-00000002-0000-0000-0000-000000000002");
  // v1 names the GPU, v2 the MIG device.
  const Device& named = other.devices[other.visible[0]];
  EXPECT_NE(std::memcmp(named.uuid_bytes.bytes, named.gpu_uuid_bytes.bytes, 16), 0);
  EXPECT_EQ(named.uuid_bytes.bytes[3], 2);
}

}  // namespace
}  // namespace hwaccel::cuda
