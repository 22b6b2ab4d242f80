// libFuzzer target: the model-file headers of hwaccel plan --model: parse_gguf
// (FILE.gguf) with the model shape taken from a header that parsed, and
// parse_safetensors (DIR/*.safetensors) and parse_safetensors_index
// (DIR/model.safetensors.index.json) on the same bytes.
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "src/plan/gguf.h"
#include "src/plan/safetensors.h"
#include "src/plan/safetensors_index.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto st = hwaccel::plan::parse_safetensors(bytes, "m.safetensors");
  if (st.header) {
    hwaccel::plan::ModelSpec spec;
    hwaccel::plan::set_safetensors_weights(spec, st.header->tensors);
  } else if (!st.need_bytes && st.error.rfind("m.safetensors: ", 0) != 0) {
    std::abort();
  }
  auto idx = hwaccel::plan::parse_safetensors_index(bytes, "i.json");
  if (idx.index) {
    for (const auto& s : idx.index->shards)  // never a path out of the directory
      if (s.find('/') != std::string_view::npos || s.find("..") == 0) std::abort();
  } else if (idx.error.rfind("i.json: ", 0) != 0) {
    std::abort();
  }
  // The bytes are the whole file: its size bounds the tensors' data.
  auto r = hwaccel::plan::parse_gguf(bytes, "m.gguf", size);
  if (!r.header) {
    if (r.error.rfind("m.gguf: at byte ", 0) != 0) std::abort();  // errors say where
    return 0;
  }
  if (r.header->header_bytes > size) std::abort();
  for (const auto& t : r.header->tensors)  // every tensor's data is inside the file
    if (t.offset > size || t.bytes > size - t.offset) std::abort();
  auto m = hwaccel::plan::model_from_gguf(*r.header, "m.gguf");
  if (m.spec) {
    (void)hwaccel::plan::count_params(*m.spec);
    (void)hwaccel::plan::describe_shape(*m.spec);
  } else if (m.error.rfind("m.gguf", 0) != 0) {
    std::abort();
  }
  return 0;
}
