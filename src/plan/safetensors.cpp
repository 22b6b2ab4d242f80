#include "src/plan/safetensors.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>

namespace hwaccel::plan {

namespace {

// Bytes per element of the safetensors dtypes (safetensors' Dtype enum).
std::optional<std::uint64_t> dtype_bytes(const std::string& d) {
  static const std::map<std::string, std::uint64_t> sizes{
      {"BOOL", 1}, {"U8", 1},  {"I8", 1},  {"F8_E4M3", 1}, {"F8_E5M2", 1}, {"F8_E8M0", 1},
      {"I16", 2},  {"U16", 2}, {"F16", 2}, {"BF16", 2},    {"I32", 4},     {"U32", 4},
      {"F32", 4},  {"I64", 8}, {"U64", 8}, {"F64", 8}};
  auto it = sizes.find(d);
  if (it == sizes.end()) return std::nullopt;
  return it->second;
}

constexpr std::uint64_t kMax63 = std::uint64_t(std::numeric_limits<std::int64_t>::max());

}  // namespace

SafetensorsResult parse_safetensors(std::string_view bytes, const std::string& file) {
  SafetensorsResult out;
  if (bytes.size() < 8) {
    out.error = file + ": " + std::to_string(bytes.size()) +
                " bytes: too short for a safetensors file (expected an 8-byte header length)";
    return out;
  }
  std::uint64_t n = 0;
  std::memcpy(&n, bytes.data(), 8);  // little-endian, as every host here
  if (n < 2 || n > kMaxSafetensorsHeaderBytes) {
    out.error = file + ": header length " + std::to_string(n) + " (expected 2 to " +
                std::to_string(kMaxSafetensorsHeaderBytes) + " bytes)";
    return out;
  }
  if (bytes.size() == 8) {
    out.need_bytes = n;
    return out;
  }
  if (bytes.size() < 8 + n) {
    out.error = file + ": ends inside its " + std::to_string(n) + "-byte header (" +
                std::to_string(bytes.size() - 8) + " bytes there)";
    return out;
  }
  nlohmann::json j = nlohmann::json::parse(bytes.substr(8, n), nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    out.error = file + ": the header is not a JSON object";
    return out;
  }
  SafetensorsHeader h;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string name = it.key();  // a copy: clang 15 cannot capture a binding
    const auto& t = it.value();
    if (name == "__metadata__") continue;
    auto fail = [&](const std::string& what) {
      out.error = file + ": tensor \"" + name + "\": " + what;
    };
    if (h.tensors.size() >= kMaxSafetensorsTensors) {
      out.error = file + ": more than " + std::to_string(kMaxSafetensorsTensors) + " tensors";
      return out;
    }
    if (!t.is_object() || !t.contains("dtype") || !t["dtype"].is_string() || !t.contains("shape") ||
        !t["shape"].is_array() || !t.contains("data_offsets") || !t["data_offsets"].is_array() ||
        t["data_offsets"].size() != 2) {
      fail("expected {\"dtype\": STRING, \"shape\": [...], \"data_offsets\": [BEGIN, END]}");
      return out;
    }
    SafetensorsTensor st;
    st.name = name;
    st.dtype = t["dtype"].get<std::string>();
    auto size = dtype_bytes(st.dtype);
    if (!size) {
      fail("dtype \"" + st.dtype + "\" is not a safetensors dtype");
      return out;
    }
    if (t["shape"].size() > 8) {
      fail(std::to_string(t["shape"].size()) + " dimensions (at most 8)");
      return out;
    }
    std::uint64_t elements = 1;
    for (const auto& d : t["shape"]) {
      if (!d.is_number_unsigned()) {
        fail("shape: expected whole numbers");
        return out;
      }
      const auto v = d.get<std::uint64_t>();
      if (v != 0 && elements > kMax63 / v) {
        fail("shape: the element count overflows 63 bits");
        return out;
      }
      elements *= v;
      st.shape.push_back(v);
    }
    if (elements > kMax63 / *size) {
      fail("shape: the byte count overflows 63 bits");
      return out;
    }
    st.bytes = elements * *size;
    const auto& off = t["data_offsets"];
    if (!off[0].is_number_unsigned() || !off[1].is_number_unsigned() ||
        off[1].get<std::uint64_t>() < off[0].get<std::uint64_t>() ||
        off[1].get<std::uint64_t>() - off[0].get<std::uint64_t>() != st.bytes) {
      fail("data_offsets do not span its " + std::to_string(st.bytes) + " bytes (dtype x shape)");
      return out;
    }
    if (h.weight_bytes > kMax63 - st.bytes) {
      out.error = file + ": the tensors' bytes overflow 63 bits";
      return out;
    }
    h.weight_bytes += st.bytes;
    h.tensors.push_back(std::move(st));
  }
  out.header = std::move(h);
  return out;
}

void set_safetensors_weights(ModelSpec& m, const std::vector<SafetensorsTensor>& tensors) {
  FileWeights f;
  std::map<std::string, double> by_dtype;
  for (const auto& t : tensors) {
    const double b = double(t.bytes);
    f.total += b;
    by_dtype[t.dtype] += b;
    double elements = 1;
    for (auto d : t.shape) elements *= double(d);
    f.elements += elements;
    const std::string& n = t.name;
    if (n.find("embed_tokens.weight") != std::string::npos) f.embedding += b;
    if (n == "lm_head.weight") f.head += b;
    if (n.find(".experts.") != std::string::npos && n.find("shared_expert") == std::string::npos)
      f.experts += b;
  }
  f.tensors = static_cast<int>(tensors.size());
  std::vector<std::pair<double, std::string>> mix;
  for (const auto& [d, b] : by_dtype) mix.emplace_back(b, d);
  std::sort(mix.begin(), mix.end(), [](auto& a, auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  for (const auto& [b, d] : mix) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s %.2f GiB", d.c_str(), b / (1024.0 * 1024 * 1024));
    f.mix += (f.mix.empty() ? "" : ", ") + std::string(buf);
  }
  const std::string bulk = mix.empty() ? "BF16" : mix.front().second;
  // Packed integers (GPTQ/AWQ qweight in I32, bitsandbytes in U8) are
  // dequantised to 16-bit for the matrix products.
  f.compute = bulk == "F32" || bulk == "F64" ? "fp32"
              : bulk == "F16"                ? "fp16"
              : bulk.rfind("F8_", 0) == 0    ? "fp8"
                                             : "bf16";
  f.level = "safetensors:" + bulk;
  // An lm_head the config calls tied but the files hold (or the reverse) is
  // what the files say.
  if (f.head > 0 && m.tied_embeddings) {
    m.tied_embeddings = false;
    m.assumptions.push_back("the files hold lm_head.weight: planned untied, as stored");
  }
  m.file_weights = f;
}

}  // namespace hwaccel::plan
