#include "src/kernels/formats.h"

namespace hwaccel::kernels {

std::string to_string(Execution e) {
  switch (e) {
    case Execution::native:
      return "native";
    case Execution::converted:
      return "converted-exactly";
    case Execution::unsupported:
      return "unsupported";
  }
  return "?";
}

std::vector<FormatPair> declared_pairs(const plan::ModelSpec& spec, const plan::QuantLevel& q) {
  std::vector<FormatPair> out;
  const std::string& n = q.name;
  if (n == "bf16" || n == "fp16") {
    out.push_back({n, n, "linear layers", 16});
  } else if (n == "fp8") {
    out.push_back({"fp8_e4m3", "fp8_e4m3", "linear layers (W8A8, per-tensor scales)", 8});
  } else if (n == "int8") {
    out.push_back({"int8", "int8", "linear layers (W8A8, per-channel scales)", 8});
  } else if (n == "nvfp4") {
    out.push_back({"nvfp4", "nvfp4", "linear layers (W4A4, E4M3 scale per 16)", q.bits});
  } else if (n == "mxfp4") {
    // As published (gpt-oss): the experts in MXFP4, attention in BF16.
    out.push_back({"mxfp4", "bf16",
                   spec.moe() ? "MoE experts (E8M0 scale per 32)" : "linear layers", q.bits});
    if (spec.moe()) out.push_back({"bf16", "bf16", "attention and router", 16});
  } else {
    out.push_back({n, "bf16", "whole file (" + q.note + ")", q.bits});
  }
  out.push_back({"bf16", "bf16", "embedding and lm_head", 16});
  return out;
}

FormatExecution execute(const FormatPair& p, const plan::Sku& sku) {
  FormatExecution e;
  e.pair = p;
  auto native = [&](const std::string& as, const std::string& how) {
    e.kind = Execution::native;
    e.runs_as = as;
    e.detail = how;
    return e;
  };
  auto converted = [&](const std::string& as, const std::string& how) {
    e.kind = Execution::converted;
    e.runs_as = as;
    e.detail = how;
    return e;
  };
  auto unsupported = [&](const std::string& why) {
    e.kind = Execution::unsupported;
    e.detail = why;
    return e;
  };
  const std::string& w = p.weight;
  bool bf16 = sku.peak("bf16") > 0;
  bool fp8 = sku.peak("fp8") > 0;
  bool fp4 = sku.peak("fp4") > 0 && sku.has_instruction("fp4_block_scale");
  if (w == "bf16" || w == "fp16") {
    if (sku.peak(w) > 0) return native(w, "tensor-core MMA in " + w + ", fp32 accumulate");
    return unsupported("no " + w + " tensor-core peak on " + sku.id);
  }
  if (w == "fp8_e4m3") {
    if (fp8) return native("fp8", "FP8 E4M3 MMA, fp32 accumulate");
    if (bf16)
      return converted("bf16",
                       "E4M3 -> BF16 is exact (3 mantissa bits, exponents 2^-9..2^8 inside BF16's "
                       "range); activations quantised to E4M3 then widened the same way; runs at "
                       "the BF16 rate");
    return unsupported("no FP8 and no BF16 tensor cores on " + sku.id);
  }
  if (w == "nvfp4") {
    if (fp4) return native("fp4", "block-scaled FP4 MMA (E2M1 with an E4M3 scale per 16 values)");
    if (fp8)
      return converted("fp8",
                       "E2M1 -> E4M3 is exact (every E2M1 value is an E4M3 value); the E4M3 block "
                       "scales are applied per 16-value K block in the fp32 accumulator; runs at "
                       "the FP8 rate");
    if (bf16)
      return converted("bf16",
                       "E2M1 x E4M3 scale -> BF16 is exact (at most 6 significant bits, within "
                       "BF16's 8); runs at the BF16 rate");
    return unsupported("no FP4, FP8 or BF16 tensor cores on " + sku.id);
  }
  if (w == "mxfp4") {
    if (fp4) return native("fp4", "block-scaled FP4 MMA (E2M1 with an E8M0 scale per 32 values)");
    return unsupported(
        "no exact conversion: E8M0 scales span 2^-127..2^127, outside E4M3, and E2M1 6.0 x 2^127 "
        "overflows BF16; " +
        sku.id + " has no FP4 block-scale MMA");
  }
  if (w == "int8") {
    if (sku.peak("int8") > 0) return native("int8", "INT8 MMA, int32 accumulate");
    return unsupported("no INT8 MMA on " + sku.id +
                       ": int32 accumulation is not exact in an fp32 accumulator past 2^24, so no "
                       "upcast is exact");
  }
  return unsupported("\"" + w +
                     "\" is a whole-file GGUF format: this kernel tree has no kernels for it");
}

}  // namespace hwaccel::kernels
