#include "src/plan/catalogue.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <set>
#include <unordered_set>

#include "src/plan/catalogue_batches.h"
#include "src/plan/runtime.h"
#include "src/plan/toml_blocks.h"
#include "src/plan/toml_fields.h"

namespace hwaccel::plan {

bool Sku::is_native(std::string_view format) const {
  return std::find(native.begin(), native.end(), format) != native.end();
}

double Sku::peak(std::string_view format) const {
  auto it = peak_flops.find(std::string(format));
  return it == peak_flops.end() ? 0 : it->second;
}

bool Sku::has_instruction(std::string_view kind) const {
  return std::find(instructions.begin(), instructions.end(), kind) != instructions.end();
}

const Sku* Catalogue::find(std::string_view id) const {
  for (const auto& s : skus) {
    if (s.id == id) return &s;
  }
  return nullptr;
}

const PerfClass* Catalogue::perf(const Sku& sku) const {
  auto it = perf_classes.find(sku.perf_class);
  return it == perf_classes.end() ? nullptr : &it->second;
}

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The length of the longest match string of `sku` found in `name`; 0 when none.
std::size_t match_length(const Sku& sku, const std::string& name) {
  std::size_t best = 0;
  std::string lname = lower(name);
  for (const auto& m : sku.match) {
    std::string lm = lower(m);
    if (lname.find(lm) != std::string::npos) best = std::max(best, lm.size());
  }
  return best;
}

}  // namespace

const Sku* Catalogue::match(const Entry& entry) const {
  if (entry.pci_vendor_id && entry.pci_device_id) {
    std::vector<const Sku*> hits;
    for (const auto& s : skus) {
      for (const auto& [v, d] : s.pci) {
        if (v == *entry.pci_vendor_id && d == *entry.pci_device_id) hits.push_back(&s);
      }
    }
    if (hits.size() == 1) return hits.front();
    const Sku* best = nullptr;
    std::size_t best_len = 0;
    for (const auto* s : hits) {
      auto len = match_length(*s, entry.name);
      if (len > best_len) best = s, best_len = len;
    }
    if (best) return best;
  }
  const Sku* best = nullptr;
  std::size_t best_len = 0;
  for (const auto& s : skus) {
    if ((s.type == "cpu") != (entry.type == DeviceType::cpu)) continue;
    // "Apple M2 Ultra Neural Engine" names the SoC, not the GPU SKU of that name.
    if (s.type == "gpu" && entry.type == DeviceType::npu) continue;
    auto len = match_length(s, entry.name);
    if (len > best_len) best = &s, best_len = len;
  }
  return best;
}

std::vector<std::string> Catalogue::ids() const {
  std::vector<std::string> out;
  for (const auto& s : skus) out.push_back(s.id);
  return out;
}

namespace {

// Bounds on a [[sku]]'s numbers, far beyond any device (the largest in
// data/devices.toml: 512 GB, 8,000 GB/s, about 10,000 TFLOPS, 304 units), so
// that a typo or a hostile file (1e30, inf) is refused instead of planned.
constexpr double kMaxMemoryGb = 1e5;      // 100 TB
constexpr double kMaxBandwidthGbs = 1e6;  // 1 PB/s
constexpr double kMaxPeakTflops = 1e7;    // 10 EFLOPS
constexpr double kMaxComputeUnits = 1e7;
constexpr double kMaxOverheadUs = 1e6;  // a second per layer
constexpr double kMaxTdpWatts = 1e5;    // 100 kW: a rack, not a board

// The numeric fields of a [[sku]] that need a `sources` entry when present.
const std::set<std::string>& sourced_fields() {
  static const std::set<std::string> f{"memory_gb",   "memory_gib",    "bandwidth_gbs",
                                       "peak_tflops", "compute_units", "usable_fraction",
                                       "fabric_gbs",  "host_link_gbs", "tdp_w"};
  return f;
}

std::uint16_t hex16(const TableReader& r, const std::string& text) {
  // Four hex digits exactly (stoul also took " 10d" and "-001").
  unsigned v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v, 16);
  if (text.size() != 4 || ec != std::errc() || end != text.data() + text.size() || v > 0xffff)
    r.fail("pci", "\"" + text + "\": expected VVVV:DDDD in hex (10de:2330)");
  return static_cast<std::uint16_t>(v);
}

// Instruction kinds must be known and agree with the peaks: a device with an
// FP8 (FP4) peak executes an instruction that computes in FP8 (FP4), and the
// reverse.
void check_instructions(const TableReader& r, const Sku& s) {
  const auto& known = known_instructions();
  for (const auto& k : s.instructions) {
    if (std::find(known.begin(), known.end(), k) == known.end()) {
      std::string list;
      for (const auto& n : known) list += (list.empty() ? "" : ", ") + n;
      r.fail("instructions", "\"" + k + "\": not an instruction kind (" + list + ")");
    }
  }
  struct Rule {
    const char* format;
    std::vector<std::string> kinds;
  };
  const Rule rules[] = {{"bf16", {"mma_sync", "wgmma", "tcgen05"}},
                        {"fp8", {"mma_sync_fp8", "wgmma", "tcgen05"}},
                        {"fp4", {"fp4_block_scale"}}};
  for (const auto& rule : rules) {
    bool has = false;
    for (const auto& k : rule.kinds) has = has || s.has_instruction(k);
    bool peak = s.peak(rule.format) > 0;
    if (peak && !has)
      r.fail("instructions", std::string("peak_tflops.") + rule.format +
                                 " is non-zero but no instruction computes in " + rule.format +
                                 " (inconsistent entry)");
    if (has && !peak && std::string(rule.format) != "bf16")
      r.fail("instructions", std::string("an instruction computes in ") + rule.format +
                                 " but peak_tflops." + rule.format +
                                 " is zero or missing (inconsistent entry)");
  }
}

Sku read_sku(const TableReader& r) {
  r.allow_only({"id",
                "name",
                "vendor",
                "family",
                "type",
                "match",
                "pci",
                "memory_gb",
                "memory_gib",
                "memory_type",
                "unified",
                "usable_fraction",
                "bandwidth_gbs",
                "peak_tflops",
                "native",
                "target",
                "compute_units",
                "perf_class",
                "fabric",
                "fabric_gbs",
                "host_link_gbs",
                "sources",
                "class",
                "instructions",
                "tdp_w",
                "segment"});
  Sku s;
  s.location = location(r.file(), r.raw().source(), r.line_offset());
  s.id = r.text("id");
  s.name = r.text("name");
  s.vendor = r.text("vendor");
  s.family = r.text("family");
  s.type = r.text("type");
  static const std::set<std::string> types{"gpu", "npu", "tpu", "cpu"};
  if (!types.count(s.type)) r.fail("type", "\"" + s.type + "\": expected gpu, npu, tpu or cpu");
  s.match = r.texts("match");
  for (const auto& p : r.texts("pci")) {
    auto colon = p.find(':');
    if (colon == std::string::npos) r.fail("pci", "\"" + p + "\": expected VVVV:DDDD in hex");
    s.pci.emplace_back(hex16(r, p.substr(0, colon)), hex16(r, p.substr(colon + 1)));
  }
  // 0 only for a CPU, whose memory comes from detection. DRAM, GDDR, HBM and
  // LPDDR come in binary sizes: a "24 GB" RTX 4090 has 24 GiB, so such products
  // say memory_gib; memory_gb (decimal) is for figures measured in bytes.
  if (r.has("memory_gb") == r.has("memory_gib"))
    r.fail(r.has("memory_gb") ? "memory_gib" : "memory_gb",
           "expected exactly one of memory_gb (decimal GB) or memory_gib (binary GiB)");
  const bool binary = r.has("memory_gib");
  const char* mem_key = binary ? "memory_gib" : "memory_gb";
  double gb = r.number_in(mem_key, 0, kMaxMemoryGb, binary ? "GiB" : "GB");
  if (gb == 0 && s.type != "cpu")
    r.fail(mem_key, "0: a " + s.type + " needs its memory size (0 is for a cpu only)");
  s.memory_bytes = gb * (binary ? 1024.0 * 1024 * 1024 : 1e9);
  s.memory_type = r.text("memory_type");
  s.unified = r.boolean_or("unified", false);
  s.usable_fraction = r.number("usable_fraction");
  if (!(s.usable_fraction > 0 && s.usable_fraction <= 1))
    r.fail("usable_fraction", "expected a fraction in (0, 1]");
  s.bandwidth_bytes_s = r.number_in("bandwidth_gbs", 0, kMaxBandwidthGbs, "GB/s") * 1e9;
  if (s.bandwidth_bytes_s <= 0) r.fail("bandwidth_gbs", "expected a positive number");

  auto peaks = r.sub("peak_tflops");
  std::set<std::string> formats(known_formats().begin(), known_formats().end());
  peaks.allow_only(formats);
  for (const auto& f : known_formats()) {
    if (!peaks.has(f)) continue;
    double v = peaks.number(f);
    if (v < 0) peaks.fail(f, "must not be negative");
    if (v > kMaxPeakTflops)
      peaks.fail(f, shown_number(v) + " is out of range (expected 0 to " +
                        shown_number(kMaxPeakTflops) + " TFLOPS)");
    if (v > 0) s.peak_flops[f] = v * 1e12;
  }
  s.native = r.texts("native");
  for (const auto& f : s.native) {
    if (!formats.count(f))
      r.fail("native", "\"" + f + "\": not a format (fp32, bf16, fp16, fp8, int8, fp4)");
    if (s.peak(f) <= 0)
      r.fail("native", "\"" + f + "\" is native but peak_tflops." + f +
                           " is zero or missing (inconsistent entry)");
  }
  for (const auto& [f, v] : s.peak_flops) {
    if (!s.is_native(f))
      peaks.fail(f, "a peak for \"" + f + "\" but it is not in native (inconsistent entry)");
  }
  s.target = r.text("target");
  // A whole number: a cast of 1e30 to int is undefined behaviour.
  const double units = r.number_in("compute_units", 1, kMaxComputeUnits, "units");
  if (units != std::floor(units)) r.fail("compute_units", "expected a whole number");
  s.compute_units = static_cast<int>(units);
  s.perf_class = r.text("perf_class");
  s.fabric = r.text("fabric");
  s.fabric_bytes_s = r.number_in_or("fabric_gbs", 0, kMaxBandwidthGbs, "GB/s", 0) * 1e9;
  s.host_link_bytes_s = r.number_in_or("host_link_gbs", 0, kMaxBandwidthGbs, "GB/s", 0) * 1e9;
  if (s.fabric != "none" && s.fabric_bytes_s <= 0)
    r.fail("fabric_gbs", "missing: fabric \"" + s.fabric + "\" needs its bandwidth");

  s.tdp_watts = r.number_in_or("tdp_w", 0, kMaxTdpWatts, "W", 0);
  if (r.has("tdp_w") && s.tdp_watts <= 0) r.fail("tdp_w", "expected a positive number");
  if (r.has("segment")) {
    s.segment = r.text("segment");
    static const std::set<std::string> segments{"datacenter", "workstation", "consumer",
                                                "embedded"};
    if (!segments.count(s.segment))
      r.fail("segment",
             "\"" + s.segment + "\": expected datacenter, workstation, consumer or embedded");
  }
  if (r.has("class")) s.kernel_class = r.text("class");
  if (r.has("instructions")) {
    s.instructions = r.texts("instructions");
    check_instructions(r, s);
  }

  auto sources = r.sub("sources");
  sources.allow_only(sourced_fields());
  for (const auto& f : sourced_fields()) {
    if (r.has(f) && !sources.has(f))
      r.fail(f, "has no sources." + f + " entry (every number needs a source)");
    if (sources.has(f)) s.sources[f] = sources.text(f);
  }
  return s;
}

PerfClass read_perf(const TableReader& r, const std::string& name) {
  r.allow_only(
      {"decode_efficiency", "prefill_efficiency", "decode_overhead_us_per_layer", "source"});
  PerfClass p;
  p.name = name;
  p.decode_efficiency = r.number("decode_efficiency");
  p.prefill_efficiency = r.number("prefill_efficiency");
  p.decode_overhead_us_per_layer =
      r.number_in_or("decode_overhead_us_per_layer", 0, kMaxOverheadUs, "us", 0);
  p.source = r.text("source");
  for (const char* key : {"decode_efficiency", "prefill_efficiency"}) {
    double v = r.number(key);
    if (!(v > 0 && v <= 1)) r.fail(key, "expected a fraction in (0, 1]");
  }
  return p;
}

RuntimeProfile read_profile(const TableReader& r, const std::string& runtime,
                            const std::string& cls) {
  r.allow_only({"decode_efficiency", "prefill_efficiency", "per_token_us", "per_layer_us",
                "moe_layer_us", "prefill_fixed_us", "prefill_efficiency_8bit", "activation",
                "source", "rows"});
  RuntimeProfile p;
  p.runtime = runtime;
  p.perf_class = cls;
  p.location = location(r.file(), r.raw().source(), r.line_offset());
  for (const char* key : {"decode_efficiency", "prefill_efficiency"}) {
    double v = r.number(key);
    if (!(v > 0 && v <= 1)) r.fail(key, "expected a fraction in (0, 1]");
  }
  p.decode_efficiency = r.number("decode_efficiency");
  p.prefill_efficiency = r.number("prefill_efficiency");
  p.per_token_us = r.number_in_or("per_token_us", 0, kMaxOverheadUs, "us", 0);
  p.per_layer_us = r.number_in_or("per_layer_us", 0, kMaxOverheadUs, "us", 0);
  p.moe_layer_us = r.number_in_or("moe_layer_us", 0, kMaxOverheadUs, "us", 0);
  p.moe_layer_fitted = r.has("moe_layer_us");
  p.prefill_fixed_us = r.number_in_or("prefill_fixed_us", 0, kMaxOverheadUs, "us", 0);
  p.prefill_fixed_fitted = r.has("prefill_fixed_us");
  if (r.has("prefill_efficiency_8bit")) {
    p.prefill_efficiency_8bit = r.number("prefill_efficiency_8bit");
    if (!(p.prefill_efficiency_8bit > 0 && p.prefill_efficiency_8bit <= 1))
      r.fail("prefill_efficiency_8bit", "expected a fraction in (0, 1]");
  }
  p.activation = r.text_or("activation", "weights");
  const auto& formats = known_formats();
  if (p.activation != "weights" &&
      std::find(formats.begin(), formats.end(), p.activation) == formats.end())
    r.fail("activation",
           "\"" + p.activation +
               "\": expected \"weights\" or a format (fp32, bf16, fp16, fp8, int8, fp4)");
  p.source = r.text("source");
  if (r.has("rows")) p.rows = r.texts("rows");
  return p;
}

}  // namespace

// A batch's tree is ~16 times its text (the built-in catalogue, ~60 KB, is
// parsed whole).
constexpr std::size_t kBatchBytes = 256u << 10;

CatalogueResult parse_catalogue(std::string_view text, const std::string& file,
                                std::size_t whole_parse_bytes) {
  CatalogueResult result;
  try {
    // A file of more than a few [[sku]] blocks is parsed a batch at a time.
    auto blocks = text.size() > whole_parse_bytes ? split_array_blocks(text, "sku", kBatchBytes)
                                                  : std::optional<TomlBlocks>();
    if (blocks && blocks->blocks == 0) blocks.reset();
    toml::table root = parse_toml(blocks ? std::string_view(blocks->rest) : text, file);
    if (blocks) blocks->rest = std::string();
    TableReader r(root, file, "");
    r.allow_only({"format", "perf_class", "runtime", "sku", "guard"});
    if (r.text("format") != "hwaccel-devices/1") r.fail("format", "expected \"hwaccel-devices/1\"");
    Catalogue c;
    c.origin = file;
    auto classes = r.sub("perf_class");
    for (const auto& [key, node] : classes.raw()) {
      std::string name(key.str());
      c.perf_classes[name] = read_perf(classes.sub(name), name);
    }
    if (r.has("runtime")) {
      auto runtimes = r.sub("runtime");
      for (const auto& [key, node] : runtimes.raw()) {
        std::string runtime(key.str());
        if (!is_runtime(runtime))
          runtimes.fail(runtime, "\"" + runtime +
                                     "\": not a runtime (llama.cpp, vllm, sglang, trt-llm, mlx)");
        auto classes_of = runtimes.sub(runtime);
        for (const auto& [ckey, cnode] : classes_of.raw()) {
          std::string cls(ckey.str());
          if (!c.perf_classes.count(cls))
            classes_of.fail(cls, "\"" + cls + "\" has no [perf_class." + cls + "]");
          c.runtimes[runtime][cls] = read_profile(classes_of.sub(cls), runtime, cls);
        }
      }
    }
    // Ids seen so far: a set, not c.find(), which made a 300,000-SKU file
    // take 6 minutes (each id compared with every one before it).
    std::unordered_set<std::string> ids;
    std::size_t i = 0;
    auto add_skus = [&](const toml::array& skus, std::size_t line_offset) {
      for (const auto& node : skus) {
        TableReader sr(*node.as_table(), file, "sku[" + std::to_string(i++) + "]", line_offset);
        Sku s = read_sku(sr);
        if (!ids.insert(s.id).second) sr.fail("id", "\"" + s.id + "\" is defined twice");
        if (!c.perf_classes.count(s.perf_class))
          sr.fail("perf_class",
                  "\"" + s.perf_class + "\" has no [perf_class." + s.perf_class + "]");
        c.skus.push_back(std::move(s));
      }
    };
    if (blocks) {
      // One batch's tree at a time (toml_blocks.h); the vector sized once,
      // since its growth would hold two copies at the end.
      if (root.get("sku")) r.fail("sku", "expected [[sku]] entries only");
      c.skus.reserve(blocks->blocks);
      ids.reserve(blocks->blocks);
      for (const auto& batch : blocks->batches) {
        toml::table part = parse_toml(batch.text, file, batch.line - 1);
        const auto* skus = part.get("sku");
        if (!skus || !skus->is_array_of_tables() || part.size() != 1)
          TableReader(part, file, "", batch.line - 1).fail("sku", "expected [[sku]] entries");
        add_skus(*skus->as_array(), batch.line - 1);
      }
    } else {
      const auto* skus = root.get("sku");
      if (!skus || !skus->is_array_of_tables()) r.fail("sku", "expected [[sku]] entries");
      add_skus(*skus->as_array(), 0);
    }
    if (const auto* guards = root.get("guard")) {
      if (!guards->is_array_of_tables()) r.fail("guard", "expected [[guard]] entries");
      std::size_t g = 0;
      std::unordered_set<std::string> macros;
      for (const auto& node : *guards->as_array()) {
        TableReader gr(*node.as_table(), file, "guard[" + std::to_string(g++) + "]");
        gr.allow_only({"macro", "instruction"});
        Guard guard{gr.text("macro"), gr.text("instruction"),
                    location(file, node.as_table()->source())};
        const auto& known = known_instructions();
        if (std::find(known.begin(), known.end(), guard.instruction) == known.end())
          gr.fail("instruction", "\"" + guard.instruction + "\": not an instruction kind");
        if (!macros.insert(guard.macro).second)
          gr.fail("macro", "\"" + guard.macro + "\" is mapped twice");
        c.guards.push_back(std::move(guard));
      }
      std::sort(c.guards.begin(), c.guards.end(),
                [](const Guard& a, const Guard& b) { return a.macro < b.macro; });
    }
    result.catalogue = std::move(c);
  } catch (const LocatedError& e) {
    result.error = e.what();
  }
  return result;
}

CatalogueResult parse_catalogue(std::string_view text, const std::string& file) {
  return parse_catalogue(text, file, kWholeParseBytes);
}

const Catalogue& builtin_catalogue() {
  static const Catalogue c = [] {
    auto r = parse_catalogue(builtin_devices_toml(), "data/devices.toml");
    if (!r.catalogue) throw std::logic_error("built-in catalogue: " + r.error);
    r.catalogue->origin = "built-in";
    return *r.catalogue;
  }();
  return c;
}

}  // namespace hwaccel::plan
