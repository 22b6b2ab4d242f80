// Properties of the runtime assumed without --runtime (runtime.h), over every
// catalogue SKU, every level, every model file kind and spelling: it is a
// runtime --runtime takes, with a reason; what says GGUF says llama.cpp; and
// it is never a runtime that refuses the device's kind outright (MLX off
// Apple, the CUDA/ROCm servers on Apple).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "src/plan/runtime.h"

namespace hwaccel::plan {
namespace {

RC_GTEST_PROP(DefaultRuntimeProp, IsARuntimeTheDeviceCanHostAndGgufMeansLlamaCpp, ()) {
  const auto& cat = builtin_catalogue();
  // Indices, not elements: a generated Sku would be copied on every draw.
  const Sku& sku = cat.skus[*rc::gen::inRange<std::size_t>(0, cat.skus.size())];
  const QuantLevel& q = quant_levels()[*rc::gen::inRange<std::size_t>(0, quant_levels().size())];
  RuntimeInputs in;
  in.quant = &q;
  in.sku = &sku;
  in.cpu = sku.type == "cpu";
  in.model_file = *rc::gen::element<std::string>("", "gguf", "safetensors", "mlx");
  in.quant_typed = *rc::gen::element<std::string>("", q.name, "F16");
  const auto c = default_runtime(in);
  RC_ASSERT(is_runtime(c.runtime));
  RC_ASSERT(!c.why.empty());
  const bool gguf_level = q.bits != 16 && q.scope == QuantScope::whole_file && q.name != "fp32";
  if (in.model_file == "gguf" || gguf_level || in.quant_typed == "F16")
    RC_ASSERT(c.runtime == "llama.cpp");
  const bool apple = sku.vendor == "Apple";
  if (c.runtime == "mlx") RC_ASSERT(apple);
  if (apple) RC_ASSERT(c.runtime == "mlx" || c.runtime == "llama.cpp");
  if (in.cpu) RC_ASSERT(c.runtime == "llama.cpp");
}

}  // namespace
}  // namespace hwaccel::plan
