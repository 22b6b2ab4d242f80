#include "src/probe/rocm_visible.h"

#include <gtest/gtest.h>

namespace hwaccel {
namespace {

using Ids = std::vector<std::size_t>;
const std::optional<std::string> kUnset;
const std::vector<std::string> kFour = {"GPU-a1", "GPU-b2", "GPU-b3", ""};

TEST(RocmVisible, UnsetShowsEveryAgent) {
  EXPECT_EQ(rocm_enumerate(kFour, kUnset, kUnset, kUnset).devices, (Ids{0, 1, 2, 3}));
}

TEST(RocmVisible, HipPicksFromWhatRocrLeft) {
  // ROCR_VISIBLE_DEVICES=1,2,3 leaves agents 1,2,3; HIP_VISIBLE_DEVICES=0 is agent 1.
  EXPECT_EQ(rocm_enumerate(kFour, "1,2,3", "0", kUnset).devices, (Ids{1}));
  EXPECT_EQ(rocm_enumerate(kFour, "3,1", "1,0", kUnset).devices, (Ids{1, 3}));
  EXPECT_EQ(rocm_enumerate(kFour, kUnset, "2", kUnset).devices, (Ids{2}));
}

TEST(RocmVisible, CudaVisibleDevicesStandsInForHips) {
  EXPECT_EQ(rocm_enumerate(kFour, kUnset, kUnset, "3").devices, (Ids{3}));
  EXPECT_EQ(rocm_enumerate(kFour, kUnset, "0", "3").devices, (Ids{0}));  // HIP's wins
}

TEST(RocmVisible, UuidsAndTheFirstBadEntryEndTheList) {
  EXPECT_EQ(rocm_enumerate(kFour, "GPU-b3,GPU-A1", kUnset, kUnset).devices, (Ids{2, 0}));
  auto e = rocm_enumerate(kFour, "0,GPU-b,1", kUnset, kUnset);  // ambiguous prefix
  EXPECT_EQ(e.devices, (Ids{0}));
  EXPECT_NE(e.problem.find("ROCR_VISIBLE_DEVICES=0,GPU-b,1: \"GPU-b\""), std::string::npos);
  EXPECT_EQ(rocm_enumerate(kFour, "1,9,2", kUnset, kUnset).devices, (Ids{1}));
  EXPECT_EQ(rocm_enumerate(kFour, "2,2", kUnset, kUnset).devices, (Ids{2}));
  EXPECT_EQ(rocm_enumerate(kFour, "1,2", "2", kUnset).devices, Ids{});  // past what ROCr left
}

TEST(RocmVisible, EmptyShowsNothing) {
  EXPECT_TRUE(rocm_enumerate(kFour, "", kUnset, kUnset).devices.empty());
  EXPECT_TRUE(rocm_enumerate(kFour, kUnset, " ", kUnset).devices.empty());
  EXPECT_TRUE(rocm_enumerate({}, "0", kUnset, kUnset).devices.empty());
}

}  // namespace
}  // namespace hwaccel
