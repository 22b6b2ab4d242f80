#include "src/plan/training.h"

#include "src/plan/quant.h"

namespace hwaccel::plan {

std::optional<TrainMethod> parse_train_method(std::string_view t) {
  if (t == "full") return TrainMethod::full;
  if (t == "lora") return TrainMethod::lora;
  if (t == "qlora") return TrainMethod::qlora;
  if (t == "prefix") return TrainMethod::prefix;
  if (t == "dpo" || t == "rlhf") return TrainMethod::dpo;
  if (t == "distill") return TrainMethod::distill;
  return std::nullopt;
}

std::string to_string(TrainMethod m) {
  switch (m) {
    case TrainMethod::full:
      return "full";
    case TrainMethod::lora:
      return "lora";
    case TrainMethod::qlora:
      return "qlora";
    case TrainMethod::prefix:
      return "prefix";
    case TrainMethod::dpo:
      return "dpo";
    case TrainMethod::distill:
      return "distill";
  }
  return "?";
}

double training_activations(const ModelSpec& m, int seq, int batch, bool checkpointing) {
  double sbh = double(seq) * batch * m.hidden;
  double layer = 34.0 * sbh;
  double acts = checkpointing ? 2.0 * sbh * m.layers + layer : layer * m.layers;
  double logits = double(seq) * batch * m.vocab * 4 * 2;  // fp32 logits and their gradient
  return acts + logits;
}

namespace {

// LoRA adapters of rank r on every attention and MLP projection.
double lora_params(const ModelSpec& m, int r) {
  double h = m.hidden;
  double q = double(m.heads) * m.head_dim, kv = double(m.kv_heads) * m.head_dim;
  double attn = r * ((h + q) + 2 * (h + kv) + (q + h));
  double mlp = r * 3.0 * (h + m.intermediate);
  return (attn + mlp) * m.layers;
}

// Weights (bf16) + grads (bf16) + Adam (fp32 master, m, v: 12 bytes) for P
// trainable parameters, partitioned by ZeRO stage over n devices
// (Rajbhandari et al. 2019, arXiv 1910.02054).
void adam(TrainMemory& t, double P, int zero, int n) {
  t.weights += 2 * P / (zero >= 3 ? n : 1);
  t.gradients += 2 * P / (zero >= 2 ? n : 1);
  t.optimizer += 12 * P / (zero >= 1 ? n : 1);
}

}  // namespace

TrainMemory training_memory(const TrainRequest& r) {
  TrainMemory t;
  const ModelSpec& m = r.model;
  double P = count_params(m).total();
  int n = std::max(1, r.devices);
  int shard_frozen = r.zero >= 3 ? n : 1;  // ZeRO-3 also partitions frozen weights
  int batch = r.micro_batch;
  switch (r.method) {
    case TrainMethod::full:
      t.trainable_params = P;
      adam(t, P, r.zero, n);
      t.notes.push_back("mixed-precision Adam: 2P weights + 2P grads + 12P optimizer (ZeRO " +
                        std::to_string(r.zero) + " over " + std::to_string(n) + ")");
      break;
    case TrainMethod::lora:
    case TrainMethod::qlora: {
      double A = lora_params(m, r.lora_rank);
      t.trainable_params = A;
      if (r.method == TrainMethod::lora) {
        t.weights = 2 * P / shard_frozen;
        t.notes.push_back("LoRA: frozen bf16 base + rank-" + std::to_string(r.lora_rank) +
                          " adapters on q,k,v,o,gate,up,down trained with Adam");
      } else {
        const QuantLevel* base = find_quant(r.qlora_base);
        if (!base) base = find_quant("nf4");
        t.weights = weight_bytes(m, count_params(m), *base).total / shard_frozen;
        t.notes.push_back(std::string("QLoRA: frozen ") +
                          (base->name == "nf4" ? "NF4 base (double quantised)"
                                               : "4-bit affine base (MLX, group 64: 4.5 bits)") +
                          " + rank-" + std::to_string(r.lora_rank) +
                          " bf16 adapters trained with Adam");
      }
      adam(t, A, r.zero, n);
      break;
    }
    case TrainMethod::prefix: {
      double A = 2.0 * m.layers * r.prefix_tokens * m.kv_heads * m.head_dim;
      t.trainable_params = A;
      t.weights = 2 * P / shard_frozen;
      adam(t, A, r.zero, n);
      t.notes.push_back("prefix tuning: frozen bf16 base + " + std::to_string(r.prefix_tokens) +
                        " trained key/value prefixes per layer");
      break;
    }
    case TrainMethod::dpo:
      t.trainable_params = P;
      adam(t, P, r.zero, n);
      t.frozen_extra = 2 * P / shard_frozen;
      batch *= 2;  // chosen and rejected completions
      t.notes.push_back(
          "DPO/RLHF: policy trained as full fine-tuning + frozen bf16 reference; "
          "chosen and rejected sequences double the activations");
      break;
    case TrainMethod::distill: {
      t.trainable_params = P;
      adam(t, P, r.zero, n);
      if (r.teacher) {
        t.frozen_extra = 2 * count_params(*r.teacher).total() / shard_frozen +
                         double(r.seq) * batch * r.teacher->vocab * 4;
        t.notes.push_back(
            "distillation: student trained as full fine-tuning + frozen bf16 teacher " +
            r.teacher->name + " and its fp32 logits");
      }
      break;
    }
  }
  t.activations = training_activations(m, r.seq, batch, r.checkpointing);
  t.notes.push_back(std::string("activations: ") +
                    (r.checkpointing
                         ? "2·s·b·h per layer kept (full recomputation) + one layer's 34·s·b·h"
                         : "34·s·b·h per layer (flash attention, no recomputation)") +
                    " + fp32 logits and their gradient (arXiv 2205.05198)");
  return t;
}

TrainFramework training_framework(std::string_view runtime, TrainRequest& r, bool apple) {
  TrainFramework f;
  if (runtime.empty()) {
    f.name = "PyTorch + DeepSpeed ZeRO " + std::to_string(r.zero);
    f.assumptions =
        "bf16 weights and grads, fp32 Adam master, m and v, flash-attention activations; FSDP "
        "shards the same way; --runtime prices inference (plan, cost): train takes only mlx, "
        "mlx-lm on Apple";
    return f;
  }
  const std::string rt(runtime);
  if (rt != "mlx") {
    f.refused = "--runtime " + rt +
                " serves models, it does not train: train prices PyTorch + DeepSpeed ZeRO "
                "(omit --runtime), or mlx-lm on Apple (--runtime mlx)";
    return f;
  }
  if (!apple) {
    f.refused = "--runtime mlx: MLX runs on Apple silicon only";
    return f;
  }
  if (r.method != TrainMethod::full && r.method != TrainMethod::lora &&
      r.method != TrainMethod::qlora) {
    f.refused = "--runtime mlx: mlx-lm trains full, lora and qlora (a quantised base), not " +
                to_string(r.method);
    return f;
  }
  if (r.zero > 0) {
    f.refused = "--runtime mlx: MLX has no ZeRO partitioning (--zero 0)";
    return f;
  }
  r.qlora_base = "q4_0";  // MLX's affine 4-bit, group 64: the q4_0 size
  r.zero_available = false;
  f.name = "MLX (mlx-lm)";
  f.assumptions =
      "mlx-lm's trainer: 16 bytes per trained parameter (weights, grads, Adam) as for PyTorch, "
      "QLoRA on MLX's 4-bit affine base (group 64, 4.5 bits), no ZeRO; activations priced as "
      "PyTorch's with flash attention (not checked against MLX)";
  return f;
}

}  // namespace hwaccel::plan
