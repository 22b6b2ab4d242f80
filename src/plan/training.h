// Training memory per device: weights, gradients, optimizer states (with ZeRO
// partitioning over N devices), activations (with or without checkpointing),
// and the frozen extra model some methods hold (DPO's reference, a teacher).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/plan/model_spec.h"

namespace hwaccel::plan {

enum class TrainMethod { full, lora, qlora, prefix, dpo, distill };
std::optional<TrainMethod> parse_train_method(std::string_view text);
std::string to_string(TrainMethod method);

struct TrainRequest {
  ModelSpec model;
  std::optional<ModelSpec> teacher;  // distill only
  TrainMethod method = TrainMethod::full;
  int zero = 0;     // ZeRO stage 0..3
  int devices = 1;  // data-parallel devices ZeRO partitions over
  int seq = 4096;
  int micro_batch = 1;
  bool checkpointing = false;
  int lora_rank = 16;
  int prefix_tokens = 32;
  // Set by the framework (training_framework): QLoRA's frozen base format
  // and whether ZeRO partitioning exists.
  std::string qlora_base = "nf4";
  bool zero_available = true;
};

// The framework the memory is priced for, said in the report. Without
// --runtime: PyTorch mixed precision with DeepSpeed ZeRO (FSDP shards the
// same way). `--runtime mlx` on Apple: mlx-lm's trainer (full, LoRA, QLoRA on
// MLX's 4-bit affine base; no ZeRO). The serving runtimes (llama.cpp, vLLM,
// SGLang, TensorRT-LLM) do not train: refused with the reason.
struct TrainFramework {
  std::string name;
  std::string assumptions;
  std::optional<std::string> refused;
};
TrainFramework training_framework(std::string_view runtime, TrainRequest& request, bool apple);

struct TrainMemory {
  double trainable_params = 0;
  double weights = 0;       // per device
  double gradients = 0;     // per device
  double optimizer = 0;     // per device (fp32 master + Adam m, v)
  double activations = 0;   // per device
  double frozen_extra = 0;  // reference model / teacher, per device
  double total() const { return weights + gradients + optimizer + activations + frozen_extra; }
  std::vector<std::string> notes;  // the formulas used
};

TrainMemory training_memory(const TrainRequest& request);

// Activation bytes of a forward+backward pass per device (Korthikanti et al.
// 2022, arXiv 2205.05198, with flash attention: 34·s·b·h per layer; with full
// recomputation 2·s·b·h per layer plus one layer's worth) plus fp32 logits.
double training_activations(const ModelSpec& m, int seq, int batch, bool checkpointing);

}  // namespace hwaccel::plan
