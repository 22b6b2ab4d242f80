#include "src/plan/gguf.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <set>

namespace hwaccel::plan {

namespace {

// ggml's tensor types that GGUF files carry (ggml.h enum ggml_type; sizes from
// gguf-py GGML_QUANT_SIZES). Ids 4, 5, 31-33 and 36-38 were removed from GGUF.
constexpr GgmlType kTypes[] = {
    {0, "F32", 1, 4},         {1, "F16", 1, 2},         {2, "Q4_0", 32, 18},
    {3, "Q4_1", 32, 20},      {6, "Q5_0", 32, 22},      {7, "Q5_1", 32, 24},
    {8, "Q8_0", 32, 34},      {9, "Q8_1", 32, 36},      {10, "Q2_K", 256, 84},
    {11, "Q3_K", 256, 110},   {12, "Q4_K", 256, 144},   {13, "Q5_K", 256, 176},
    {14, "Q6_K", 256, 210},   {15, "Q8_K", 256, 292},   {16, "IQ2_XXS", 256, 66},
    {17, "IQ2_XS", 256, 74},  {18, "IQ3_XXS", 256, 98}, {19, "IQ1_S", 256, 50},
    {20, "IQ4_NL", 32, 18},   {21, "IQ3_S", 256, 110},  {22, "IQ2_S", 256, 82},
    {23, "IQ4_XS", 256, 136}, {24, "I8", 1, 1},         {25, "I16", 1, 2},
    {26, "I32", 1, 4},        {27, "I64", 1, 8},        {28, "F64", 1, 8},
    {29, "IQ1_M", 256, 56},   {30, "BF16", 1, 2},       {34, "TQ1_0", 256, 54},
    {35, "TQ2_0", 256, 66},   {39, "MXFP4", 32, 17},    {40, "NVFP4", 64, 36},
};

constexpr std::uint32_t kMaxDims = 4;  // GGML_MAX_DIMS

struct Fail {
  Fail(std::string w, bool t = false, std::optional<std::uint64_t> a = std::nullopt)
      : what(std::move(w)), truncated(t), at(a) {}
  std::string what;
  bool truncated = false;
  std::optional<std::uint64_t> at;  // the byte it is about, when not where the reader is
};

class Reader {
 public:
  explicit Reader(std::string_view bytes) : b_(bytes) {}
  std::uint64_t at() const { return pos_; }
  template <typename T>
  T get(const char* what) {
    if (b_.size() - pos_ < sizeof(T)) throw Fail{"ended inside " + std::string(what), true};
    T v;
    std::memcpy(&v, b_.data() + pos_, sizeof(T));  // GGUF is little-endian, as every host here
    pos_ += sizeof(T);
    return v;
  }
  std::string str(const char* what, std::uint64_t max) {
    const auto n = get<std::uint64_t>(what);
    if (n > max)
      throw Fail{std::string(what) + " of " + std::to_string(n) + " bytes (at most " +
                 std::to_string(max) + ")"};
    if (b_.size() - pos_ < n) throw Fail{"ended inside " + std::string(what), true};
    std::string s(b_.substr(pos_, n));
    pos_ += n;
    return s;
  }
  void skip(std::uint64_t n, const char* what) {
    if (b_.size() - pos_ < n) throw Fail{"ended inside " + std::string(what), true};
    pos_ += n;
  }
  std::uint64_t left() const { return b_.size() - pos_; }

 private:
  std::string_view b_;
  std::uint64_t pos_ = 0;
};

// Bytes of one scalar of a GGUF value type; 0 for string and array.
std::uint64_t scalar_size(std::uint32_t t) {
  switch (t) {
    case 0:
    case 1:
    case 7:
      return 1;
    case 2:
    case 3:
      return 2;
    case 4:
    case 5:
    case 6:
      return 4;
    case 10:
    case 11:
    case 12:
      return 8;
    default:
      return 0;
  }
}

double scalar(Reader& r, std::uint32_t t) {
  switch (t) {
    case 0:
      return r.get<std::uint8_t>("a uint8");
    case 1:
      return r.get<std::int8_t>("an int8");
    case 2:
      return r.get<std::uint16_t>("a uint16");
    case 3:
      return r.get<std::int16_t>("an int16");
    case 4:
      return r.get<std::uint32_t>("a uint32");
    case 5:
      return r.get<std::int32_t>("an int32");
    case 6:
      return double(r.get<float>("a float32"));
    case 7:
      return r.get<std::uint8_t>("a bool") ? 1 : 0;
    case 10:
      return double(r.get<std::uint64_t>("a uint64"));
    case 11:
      return double(r.get<std::int64_t>("an int64"));
    case 12:
      return r.get<double>("a float64");
  }
  throw Fail{"value type " + std::to_string(t) + " is not a GGUF type (0-12)"};
}

void read_value(Reader& r, GgufHeader& h, const std::string& key) {
  const auto t = r.get<std::uint32_t>("a value type");
  if (t == 8) {
    h.strings[key] = r.str("a string value", kMaxGgufHeadBytes);
    return;
  }
  if (t != 9) {
    double v = scalar(r, t);
    if (std::isfinite(v)) h.numbers[key] = v;
    return;
  }
  const auto et = r.get<std::uint32_t>("an array's element type");
  const auto n = r.get<std::uint64_t>("an array's length");
  if (et == 9) throw Fail{"key \"" + key + "\": arrays of arrays are not read"};
  if (et == 8) {
    // Each string is at least its 8-byte length: a count beyond that is a lie.
    if (n > r.left() / 8)
      throw Fail{"key \"" + key + "\": " + std::to_string(n) + " strings cannot fit in the file",
                 r.left() / 8 < n};
    for (std::uint64_t i = 0; i < n; ++i) (void)r.str("an array string", kMaxGgufHeadBytes);
  } else {
    const auto size = scalar_size(et);
    if (size == 0)
      throw Fail{"key \"" + key + "\": element type " + std::to_string(et) + " is not a GGUF type"};
    if (n > r.left() / size) throw Fail{"ended inside array \"" + key + "\"", true};
    bool integer = et != 6 && et != 12;
    double best = -std::numeric_limits<double>::infinity();
    for (std::uint64_t i = 0; i < n; ++i) best = std::max(best, scalar(r, et));
    if (integer && n > 0) h.numbers[key + "#max"] = best;
  }
  h.numbers[key + "#len"] = double(n);
}

std::string shown(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::uint64_t checked_mul(std::uint64_t a, std::uint64_t b, const std::string& what) {
  if (a != 0 && b > std::numeric_limits<std::int64_t>::max() / a)
    throw Fail{what + ": the element count overflows 63 bits"};
  return a * b;
}

// general.alignment: a power of two (ggml's GGML_PAD needs one; 0 would divide
// by zero), as a uint32 says it. `at`: the byte of its value.
std::uint64_t alignment(const GgufHeader& h, std::uint64_t at) {
  auto it = h.numbers.find("general.alignment");
  const double v = it == h.numbers.end() ? -1 : it->second;
  if (!(v >= 1 && v <= 4294967295.0 && v == std::floor(v)) ||
      (std::uint64_t(v) & (std::uint64_t(v) - 1)) != 0)
    throw Fail{"general.alignment " +
                   (it == h.numbers.end() ? std::string("is not a number") : shown(v)) +
                   " (expected a power of two, 32 by default)",
               false, at};
  return std::uint64_t(v);
}

// Each tensor's data: at an offset that is a multiple of the alignment, from
// the aligned end of the header, and (when the file's size is known) inside
// the file. A header-only copy of a model is refused here: it has no weights.
void check_offsets(const GgufHeader& h, const std::vector<std::uint64_t>& offset_at,
                   std::optional<std::uint64_t> file_size) {
  const std::uint64_t a = h.alignment;
  const std::uint64_t data_start = (h.header_bytes + a - 1) / a * a;
  for (std::size_t i = 0; i < h.tensors.size(); ++i) {
    const GgufTensor& t = h.tensors[i];
    if (t.offset % a != 0)
      throw Fail{"tensor \"" + t.name + "\": offset " + std::to_string(t.offset) +
                     " is not a multiple of the alignment " + std::to_string(a),
                 false, offset_at[i]};
    if (!file_size) continue;
    const std::uint64_t room = *file_size > data_start ? *file_size - data_start : 0;
    if (t.offset > room || t.bytes > room - t.offset)
      throw Fail{"tensor \"" + t.name + "\": its " + std::to_string(t.bytes) + " bytes at offset " +
                     std::to_string(t.offset) + " (file byte " + std::to_string(data_start) +
                     " + offset) end past the file's " + std::to_string(*file_size) +
                     " bytes (expected the data inside the file)",
                 false, offset_at[i]};
  }
}

}  // namespace

const GgmlType* ggml_type(std::uint32_t id) {
  for (const auto& t : kTypes)
    if (t.id == id) return &t;
  return nullptr;
}

GgufResult parse_gguf(std::string_view bytes, const std::string& file,
                      std::optional<std::uint64_t> file_size) {
  GgufResult out;
  Reader r(bytes);
  try {
    if (bytes.size() < 4 || bytes.substr(0, 4) != "GGUF")
      throw Fail{"not a GGUF file (expected the magic \"GGUF\")", bytes.size() < 4};
    r.skip(4, "the magic");
    GgufHeader h;
    h.version = r.get<std::uint32_t>("the version");
    if (h.version != 2 && h.version != 3)
      throw Fail{"GGUF version " + std::to_string(h.version) + " (this reader knows 2 and 3)"};
    const auto tensors = r.get<std::uint64_t>("the tensor count");
    const auto keys = r.get<std::uint64_t>("the metadata count");
    if (tensors > kMaxGgufTensors)
      throw Fail{std::to_string(tensors) + " tensors (at most " + std::to_string(kMaxGgufTensors) +
                 ")"};
    if (keys > kMaxGgufKeys)
      throw Fail{std::to_string(keys) + " metadata keys (at most " + std::to_string(kMaxGgufKeys) +
                 ")"};
    // ggml refuses a second definition of a key or a tensor; so do we (which
    // one would count?). general.alignment places the tensors' data.
    std::set<std::string> seen;
    std::uint64_t alignment_at = 0;
    for (std::uint64_t i = 0; i < keys; ++i) {
      const std::uint64_t key_at = r.at();
      const std::string key = r.str("a metadata key", kMaxGgufNameBytes);
      if (!seen.insert(key).second)
        throw Fail{"metadata key \"" + key + "\" is defined twice (expected each key once)", false,
                   key_at};
      if (key == "general.alignment") alignment_at = r.at() + 4;  // past the value's type
      read_value(r, h, key);
    }
    if (alignment_at) h.alignment = alignment(h, alignment_at);
    h.architecture =
        h.strings.count("general.architecture") ? h.strings["general.architecture"] : "";
    if (h.strings.count("general.name")) h.name = h.strings["general.name"];
    seen.clear();
    std::vector<std::uint64_t> offset_at;  // where each tensor's offset is written
    for (std::uint64_t i = 0; i < tensors; ++i) {
      GgufTensor t;
      const std::uint64_t name_at = r.at();
      t.name = r.str("a tensor name", kMaxGgufNameBytes);
      if (!seen.insert(t.name).second)
        throw Fail{"tensor \"" + t.name + "\" is defined twice (expected each name once)", false,
                   name_at};
      const auto dims = r.get<std::uint32_t>("a tensor's dimension count");
      if (dims == 0 || dims > kMaxDims)
        throw Fail{"tensor \"" + t.name + "\": " + std::to_string(dims) +
                   " dimensions (expected 1 to 4)"};
      t.elements = 1;
      for (std::uint32_t d = 0; d < dims; ++d) {
        const auto n = r.get<std::uint64_t>("a tensor's shape");
        if (n == 0) throw Fail{"tensor \"" + t.name + "\": a dimension of 0"};
        t.shape.push_back(n);
        t.elements = checked_mul(t.elements, n, "tensor \"" + t.name + "\"");
      }
      t.type = r.get<std::uint32_t>("a tensor's type");
      offset_at.push_back(r.at());
      t.offset = r.get<std::uint64_t>("a tensor's offset");
      const GgmlType* ty = ggml_type(t.type);
      if (!ty)
        throw Fail{"tensor \"" + t.name + "\": ggml type " + std::to_string(t.type) +
                   " is not one this reader knows"};
      if (t.shape[0] % ty->block != 0)
        throw Fail{"tensor \"" + t.name + "\": a row of " + std::to_string(t.shape[0]) +
                   " is not a whole number of " + ty->name + " blocks of " +
                   std::to_string(ty->block)};
      t.bytes = checked_mul(t.elements / ty->block, ty->bytes, "tensor \"" + t.name + "\"");
      if (h.weight_bytes > std::numeric_limits<std::int64_t>::max() - t.bytes)
        throw Fail{"the tensors' bytes overflow 63 bits"};
      h.weight_bytes += t.bytes;
      h.bytes_by_type[ty->name] += t.bytes;
      h.tensors.push_back(std::move(t));
    }
    h.header_bytes = r.at();
    check_offsets(h, offset_at, file_size);
    out.header = std::move(h);
  } catch (const Fail& f) {
    out.truncated = f.truncated;
    out.error = file + ": at byte " + std::to_string(f.at ? *f.at : r.at()) + ": " + f.what;
    if (f.truncated && bytes.size() >= kMaxGgufHeadBytes)
      out.error += " (the header is larger than the " + std::to_string(kMaxGgufHeadBytes >> 20) +
                   " MiB read)";
  }
  return out;
}

}  // namespace hwaccel::plan
