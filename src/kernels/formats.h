// How a device executes a (weight, activation) format pair: natively, through
// a conversion that is exact, or not at all. Never a silent upcast: a
// conversion that could change a value is "unsupported".
#pragma once

#include <string>
#include <vector>

#include "src/plan/catalogue.h"
#include "src/plan/model_spec.h"
#include "src/plan/quant.h"

namespace hwaccel::kernels {

enum class Execution { native, converted, unsupported };
std::string to_string(Execution e);

struct FormatPair {
  std::string weight;      // bf16, fp8_e4m3, int8, nvfp4, mxfp4, or a GGUF level
  std::string activation;  // bf16, fp8_e4m3, int8, nvfp4
  std::string scope;       // which tensors: "linear layers", "embedding and lm_head"
  double weight_bits = 16;
};

struct FormatExecution {
  FormatPair pair;
  Execution kind = Execution::unsupported;
  std::string runs_as;  // the compute format: bf16, fp8, int8, fp4 ("" when unsupported)
  std::string detail;   // the conversion, or why nothing exact exists
};

// The pairs a model at quantisation `q` declares, linear layers first.
std::vector<FormatPair> declared_pairs(const plan::ModelSpec& spec, const plan::QuantLevel& q);

FormatExecution execute(const FormatPair& pair, const plan::Sku& sku);

}  // namespace hwaccel::kernels
