#include "src/plan/training_fit.h"

#include <gtest/gtest.h>

#include "src/plan/catalogue.h"
#include "src/plan/devices.h"

namespace hwaccel::plan {
namespace {

TEST(TrainingFit, Llama70BLoraZero3OnEightH100SaysWhatWouldFit) {
  const auto& cat = builtin_catalogue();
  DeviceSet set = synthetic_devices(*cat.find("h100-sxm"), 8, 3584.0 * 1024 * 1024);
  const double capacity = set.devices[0].capacity;
  TrainRequest r;
  r.model = *builtin_model("Llama-3-70B").spec;
  r.method = TrainMethod::lora;
  r.zero = 3;
  r.devices = 8;
  r.seq = 4096;
  auto t = training_memory(r);
  // 34·s·b·h per layer without checkpointing: 88.9 GiB of activations per device.
  EXPECT_NEAR(t.activations / (1024.0 * 1024 * 1024), 88.9, 0.1);
  EXPECT_GT(t.total(), capacity);
  auto alt = training_alternatives(r, capacity);
  ASSERT_FALSE(alt.empty());
  EXPECT_EQ(alt.front().change, "activation checkpointing");
  bool shorter = false;
  for (const auto& a : alt) {
    EXPECT_LE(a.total, capacity) << a.change;
    EXPECT_EQ(a.change.find("ZeRO"), std::string::npos) << "already at ZeRO 3";
    shorter |= a.change.rfind("seq ", 0) == 0;
  }
  EXPECT_TRUE(shorter);
  // A request that fits needs no alternative to be asked; one that cannot fit
  // any way gets none.
  EXPECT_TRUE(training_alternatives(r, 1e9).empty());
}

}  // namespace
}  // namespace hwaccel::plan
