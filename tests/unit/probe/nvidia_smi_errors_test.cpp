#include "src/probe/nvidia_smi_errors.h"

#include <gtest/gtest.h>

namespace hwaccel {
namespace {

// The texts are nvidia-smi's own, as recorded on real machines (fixtures/real/README.md).
TEST(NvidiaSmiErrors, NoDriver) {
  auto reason = classify_nvidia_smi_failure(
      "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure "
      "that the latest NVIDIA driver is installed and running.\n\n",
      9);
  EXPECT_EQ(reason.code, ReasonCode::driver_not_found);
  EXPECT_EQ(reason.detail,
            "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make "
            "sure that the latest NVIDIA driver is installed and running.");
}

TEST(NvidiaSmiErrors, NoNvml) {
  auto reason = classify_nvidia_smi_failure(
      "NVIDIA-SMI couldn't find libnvidia-ml.so library in your system. Please make sure that "
      "the NVIDIA Display Driver is properly installed and present in your system.\nPlease also "
      "try adding directory that contains libnvidia-ml.so to your system PATH.\n",
      12);
  EXPECT_EQ(reason.code, ReasonCode::driver_not_found);
  EXPECT_EQ(reason.detail.rfind("NVIDIA-SMI couldn't find libnvidia-ml.so library", 0), 0u);
  EXPECT_LE(reason.detail.size(), 200u);
}

TEST(NvidiaSmiErrors, VersionMismatchKeepsTheToolsWords) {
  auto reason = classify_nvidia_smi_failure(
      "Failed to initialize NVML: Driver/library version mismatch\nNVML library version: 550.54\n",
      18);
  EXPECT_EQ(reason.code, ReasonCode::probe_failed);
  EXPECT_EQ(reason.detail, "Failed to initialize NVML: Driver/library version mismatch");
}

TEST(NvidiaSmiErrors, InsufficientPermissions) {
  auto reason =
      classify_nvidia_smi_failure("Failed to initialize NVML: Insufficient Permissions\n", 4);
  EXPECT_EQ(reason.code, ReasonCode::permission_denied);
  EXPECT_EQ(reason.detail, "Failed to initialize NVML: Insufficient Permissions");
}

TEST(NvidiaSmiErrors, GpuIsLost) {
  auto reason = classify_nvidia_smi_failure(
      "Unable to determine the device handle for GPU 0000:02:00.0: GPU is lost. Reboot the "
      "system to recover this GPU\n",
      15);
  EXPECT_EQ(reason.code, ReasonCode::probe_failed);
  EXPECT_EQ(reason.detail,
            "Unable to determine the device handle for GPU 0000:02:00.0: GPU is lost. Reboot the "
            "system to recover this GPU");
}

TEST(NvidiaSmiErrors, NoDevices) {
  auto reason = classify_nvidia_smi_failure("No devices were found\n", 6);
  EXPECT_EQ(reason.code, ReasonCode::no_device);
  EXPECT_EQ(reason.detail, "No devices were found");
}

TEST(NvidiaSmiErrors, KnownPhraseFoundBelowOtherLines) {
  auto reason = classify_nvidia_smi_failure(
      "\x1b[31mWarning: something first\x1b[0m\nFailed to initialize NVML: Insufficient "
      "Permissions\n",
      4);
  EXPECT_EQ(reason.code, ReasonCode::permission_denied);
  EXPECT_EQ(reason.detail, "Failed to initialize NVML: Insufficient Permissions");
}

TEST(NvidiaSmiErrors, AnythingElseIsProbeFailedWithTheFirstMeaningfulLine) {
  auto reason = classify_nvidia_smi_failure(
      "\n   \n\x1b[1m  Failed to initialize NVML: Unknown Error  \x1b[0m\nmore\n", 255);
  EXPECT_EQ(reason.code, ReasonCode::probe_failed);
  EXPECT_EQ(reason.detail, "Failed to initialize NVML: Unknown Error");
}

TEST(NvidiaSmiErrors, SilentFailureSaysSo) {
  auto reason = classify_nvidia_smi_failure(" \n\n", 3);
  EXPECT_EQ(reason.code, ReasonCode::probe_failed);
  EXPECT_EQ(reason.detail, "nvidia-smi exited with status 3 and printed nothing");
}

TEST(NvidiaSmiErrors, DetailIsOneShortLine) {
  std::string long_line(5000, 'e');
  auto reason = classify_nvidia_smi_failure(long_line + "\nsecond", 1);
  EXPECT_EQ(reason.detail.size(), 200u);
  EXPECT_EQ(reason.detail.find('\n'), std::string::npos);
}

TEST(NvidiaSmiErrors, KnownErrorOnlyForKnownText) {
  EXPECT_FALSE(known_nvidia_smi_error(""));
  EXPECT_FALSE(known_nvidia_smi_error("index, name\n0, NVIDIA H100\n"));
  EXPECT_TRUE(known_nvidia_smi_error("No devices were found"));
}

TEST(NvidiaSmiErrors, RejectedFields) {
  EXPECT_EQ(rejected_query_fields("Field \"compute_cap\" is not a valid field to query.\n\n"),
            std::vector<std::string>{"compute_cap"});
  EXPECT_EQ(rejected_query_fields("Field \"compute_cap\" is not a valid field to query.\n"
                                  "Field \"driver_version\" is not a valid field to query.\n"
                                  "Field \"compute_cap\" is not a valid field to query.\n"),
            (std::vector<std::string>{"compute_cap", "driver_version"}));
  EXPECT_TRUE(rejected_query_fields("").empty());
  EXPECT_TRUE(rejected_query_fields("Field \"\" is not a valid field to query.").empty());
  EXPECT_TRUE(rejected_query_fields("Field \"compute_cap").empty());
  EXPECT_TRUE(rejected_query_fields("No devices were found").empty());
}

TEST(NvidiaSmiErrors, GarbageNeverThrows) {
  std::string binary;
  for (int i = 0; i < 65536; ++i) binary += static_cast<char>((i * 97) & 0xff);
  for (const std::string& text : {binary, std::string(1 << 20, '\n'), std::string("\x1b"),
                                  std::string("\x1b["), std::string("\x1b]0;title")}) {
    auto reason = classify_nvidia_smi_failure(text, 1);
    EXPECT_LE(reason.detail.size(), 200u);
    rejected_query_fields(text);
  }
}

}  // namespace
}  // namespace hwaccel
