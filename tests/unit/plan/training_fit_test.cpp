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

// The framework a run is priced for: PyTorch + ZeRO unless --runtime mlx on
// Apple (QLoRA on MLX's 4-bit affine base, no ZeRO stage suggested); the
// serving runtimes refused.
TEST(TrainingFramework, MlxOnApplePricesMlxLmAndServingRuntimesAreRefused) {
  TrainRequest r;
  r.model = *builtin_model("Llama-3-70B").spec;
  r.method = TrainMethod::qlora;
  r.devices = 2;
  auto plain = training_framework("", r, true);
  EXPECT_FALSE(plain.refused);
  EXPECT_EQ(plain.name, "PyTorch + DeepSpeed ZeRO 0");
  const double nf4 = training_memory(r).weights;
  TrainRequest m = r;
  auto mlx = training_framework("mlx", m, true);
  ASSERT_FALSE(mlx.refused) << *mlx.refused;
  EXPECT_EQ(m.qlora_base, "q4_0");
  EXPECT_GT(training_memory(m).weights, nf4);  // 4.5 bits per weight, not NF4's
  m.method = TrainMethod::full;
  for (const auto& a : training_alternatives(m, 1.0))  // nothing fits: no ZeRO offered anyway
    EXPECT_EQ(a.change.find("ZeRO"), std::string::npos) << a.change;
  for (const char* rt : {"vllm", "llama.cpp", "sglang", "trt-llm"}) {
    TrainRequest x = r;
    auto f = training_framework(rt, x, false);
    ASSERT_TRUE(f.refused) << rt;
    EXPECT_NE(f.refused->find("does not train"), std::string::npos) << *f.refused;
  }
  TrainRequest z = r;
  z.zero = 2;
  EXPECT_TRUE(training_framework("mlx", z, true).refused);
  EXPECT_TRUE(training_framework("mlx", r, false).refused);  // off Apple
  TrainRequest d = r;
  d.method = TrainMethod::dpo;
  EXPECT_TRUE(training_framework("mlx", d, true).refused);
}

}  // namespace
}  // namespace hwaccel::plan
