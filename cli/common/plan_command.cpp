#include "cli/common/plan_command.h"

#include <algorithm>
#include <iostream>
#include <sstream>

#include "cli/common/exit_codes.h"
#include "cli/common/host_source.h"
#include "cli/common/kernel_plan_command.h"
#include "cli/common/number_options.h"
#include "cli/common/plan_svg.h"
#include "cli/common/root_tools_flag.h"
#include "src/host/inside_tree.h"
#include "src/host/live_host.h"
#include "src/host/terminal.h"
#include "src/plan/gguf.h"
#include "src/plan/model_folder.h"
#include "src/plan/planner.h"
#include "src/plan/runtime.h"
#include "src/plan/safetensors.h"
#include "src/plan/safetensors_index.h"
#include "src/registry/reserve.h"
#include "src/report/plan_report.h"

namespace hwaccel::cli {

void add_plan_flags(CLI::App& cmd, PlanArgs& a) {
  cmd.add_option("--model", a.model,
                 "A built-in model name (Llama-3-70B), path/config.json or FILE.gguf (its header "
                 "only: exact weight bytes)");
  cmd.add_option("--params", a.params, "A bare parameter count (70B) for a Llama-like model");
  cmd.add_option("--quant", a.quant, "Weight format: " + plan::quant_names());
  cmd.add_option("--runtime", a.runtime,
                 "The runtime the speed is priced for: llama.cpp, vllm, sglang, trt-llm or mlx "
                 "(default: llama.cpp for GGUF and CPUs, mlx on Apple, vllm elsewhere; said)")
      ->check(CLI::IsMember(plan::runtime_names()));
  cmd.add_option("--kv", a.kv, "KV-cache element type: fp16, fp8 or q8_0 (default fp16)");
  cmd.add_option("--flash-attn", a.flash_attn,
                 "llama.cpp's flash attention: on, off or auto (default auto: on, as llama.cpp's "
                 "-fa auto picks on every backend planned); off puts one layer's f32 attention "
                 "scores in its compute buffer")
      ->check(CLI::IsMember({"on", "off", "auto"}));
  cmd.add_option("--gpu-memory-utilization", a.gpu_memory_utilization,
                 "vLLM's share of each GPU's total memory the plan budgets (default 0.92, vLLM's)")
      ->check(CLI::Range(0.01, 1.0));
  cmd.add_option("--context", a.context,
                 "Tokens per sequence held in the KV cache (default 4096, or prompt + gen)")
      ->check(CLI::Range(1, 10000000))
      ->each([&a](const std::string&) { a.context_given = true; });
  cmd.add_option("--prompt", a.prompt,
                 "Prompt tokens: prefill is estimated at this length (default with --gen: 512, "
                 "llama-bench's pp512)")
      ->check(CLI::Range(1, 10000000));
  cmd.add_option("--gen", a.gen,
                 "Generated tokens: decode is estimated at the KV length in their middle "
                 "(default with --prompt: 128, llama-bench's tg128)")
      ->check(CLI::Range(1, 10000000));
  cmd.add_option("--batch", a.batch, "Sequences held at once (default 1)")
      ->check(CLI::Range(1, 100000));
  cmd.add_option("--decode-batch", a.decode_batch,
                 "Batch B of the second decode estimate (default 32)")
      ->check(CLI::Range(1, 100000));
  cmd.add_flag("--json", a.json, "Print hwaccel-plan/1 JSON");
  auto* host =
      cmd.add_option("--host", a.host_path, "Plan on a snapshot FILE instead of this machine");
  auto* root = cmd.add_option("--root", a.root, "Read files under DIR as if it were /")
                   ->check(CLI::ExistingDirectory);
  add_root_tools_flag(cmd, a.root_tools, root);
  host->excludes(root);
  cmd.add_option("--timeout", a.timeout_s, "Seconds each probe tool may run (default 5)")
      ->check(timeout_seconds());
  cmd.add_option("--reserve", a.reserve, "Memory that must stay free per device (default 3584M)");
  cmd.add_option("--devices", a.devices_file,
                 "A DEVICES.toml SKU catalogue instead of the built-in one");
  cmd.add_option("--on", a.on, "Only these devices (cuda:0,cuda:1,cpu:0)");
  cmd.add_option("--add", a.add, "What-if: add SKU[xN] from the catalogue (h100-sxmx8)");
  cmd.add_option("--remove", a.remove, "What-if: leave out a device (cuda:3)");
  cmd.add_option("--svg", a.svg,
                 "Also write the roofline chart (SVG) of the plan's device with its decode and "
                 "prefill points to FILE");
  cmd.add_flag("--force", a.force, "With --svg or --record-tree: replace FILE if it exists");
  add_kernel_plan_flags(cmd, a);
}

bool apply_lengths(const PlanArgs& a, plan::Workload& w) {
  w.context = a.context;
  if (a.prompt == 0 && a.gen == 0) return true;
  w.prompt = a.prompt > 0 ? a.prompt : 512;
  w.gen = a.gen > 0 ? a.gen : 128;
  const long long need = static_cast<long long>(w.prompt) + w.gen;
  if (!a.context_given) {
    w.context = static_cast<int>(std::min<long long>(need, 10000000));
  } else if (a.context < need) {
    std::cerr << "error: --context " << a.context << " cannot hold --prompt " << w.prompt
              << " + --gen " << w.gen << " = " << need << " tokens\n";
    return false;
  }
  return true;
}

Loaded load_catalogue(const std::string& file) {
  Loaded l;
  if (file.empty()) {
    l.catalogue = plan::builtin_catalogue();
    return l;
  }
  LiveHost host;
  auto text = host.read(absolute_path(file));  // the user's path, relative to the working folder
  if (!text) {
    std::cerr << "error: --devices " << file << ": " << text.error().message << "\n";
    l.exit = kExitBadInput;
    return l;
  }
  auto parsed = plan::parse_catalogue(*text, file);
  if (!parsed.catalogue) {
    std::cerr << "error: " << parsed.error << "\n";
    l.exit = kExitBadInput;
    return l;
  }
  l.catalogue = std::move(parsed.catalogue);
  return l;
}

const plan::QuantLevel* requested_quant(const PlanArgs& a, const Loaded& l, int& exit) {
  std::string qname = a.quant.empty() ? l.spec->dtype : a.quant;
  const plan::QuantLevel* q =
      a.quant.empty() && l.file_quant ? &*l.file_quant : plan::find_quant(qname);
  if (!q) {
    std::cerr << "error: --quant " << qname << ": unknown; known: " << plan::quant_names() << "\n";
    exit = kExitUsage;
    return nullptr;
  }
  if (!plan::kv_bytes_per_element(a.kv)) {
    std::cerr << "error: --kv " << a.kv << ": expected fp16, fp8 or q8_0\n";
    exit = kExitUsage;
    return nullptr;
  }
  return q;
}

namespace {

bool is_directory(const std::string& path) {
  LiveHost host;
  auto kind = host.stat(absolute_path(path));
  return kind && *kind == FileKind::directory;
}

// --model DIR: config.json for the shape, the safetensors headers (never the
// weights) for the exact bytes of every tensor. Every read stays in the model's
// folder (src/plan/model_folder.h): a link out of it is refused, never followed.
int load_model_dir(const std::string& dir, plan::ModelResult& r) {
  auto canonical = canonical_path(absolute_path(dir));
  if (!canonical) {
    std::cerr << "error: --model " << dir << ": " << canonical.error().message << "\n";
    return kExitBadInput;
  }
  LiveHostOptions confined;
  confined.confine = plan::model_folder_tree(*canonical);
  LiveHost host(confined);
  const std::string base = *canonical + "/";
  const std::string shown = dir + (dir.empty() || dir.back() == '/' ? "" : "/");
  auto text = host.read(base + "config.json");
  if (!text) {
    std::cerr << "error: --model " << dir << ": " << text.error().message << "\n";
    return kExitBadInput;
  }
  r = plan::parse_hf_config(*text, shown + "config.json");
  if (!r.spec) {
    std::cerr << "error: " << r.error << "\n";
    return kExitBadInput;
  }
  // A sharded checkpoint's index names its shards; else every *.safetensors.
  std::vector<std::string> shard_names;
  bool indexed = false;
  const std::string index_name = "model.safetensors.index.json";
  auto index_kind = host.stat(base + index_name);
  if (index_kind && *index_kind == FileKind::regular) {
    auto index_text = host.read_head(base + index_name, plan::kMaxSafetensorsIndexBytes + 1);
    if (!index_text) {
      std::cerr << "error: --model " << shown + index_name << ": " << index_text.error().message
                << "\n";
      return kExitBadInput;
    }
    auto index = plan::parse_safetensors_index(*index_text, shown + index_name);
    if (!index.index) {
      std::cerr << "error: " << index.error << "\n";
      return kExitBadInput;
    }
    shard_names = index.index->shards;
    indexed = true;
  } else {
    auto names = host.list(*canonical);
    if (!names) {
      std::cerr << "error: --model " << dir << ": " << names.error().message << "\n";
      return kExitBadInput;
    }
    shard_names = *names;
  }
  std::vector<plan::SafetensorsTensor> tensors;
  std::size_t files = 0;
  for (const auto& n : shard_names) {
    if (n.size() <= 12 || n.substr(n.size() - 12) != ".safetensors") continue;
    if (++files > plan::kMaxSafetensorsFiles) {
      std::cerr << "error: --model " << dir << ": more than " << plan::kMaxSafetensorsFiles
                << " .safetensors files\n";
      return kExitBadInput;
    }
    auto parsed = plan::SafetensorsResult{};
    for (std::uint64_t want = 8;;) {
      auto head = host.read_head(base + n, want);
      if (!head) {
        std::cerr << "error: --model " << shown + n << ": " << head.error().message << "\n";
        return kExitBadInput;
      }
      parsed = plan::parse_safetensors(*head, shown + n);
      if (!parsed.need_bytes || want > 8) break;
      want = 8 + *parsed.need_bytes;
    }
    if (!parsed.header) {
      std::cerr << "error: " << parsed.error << "\n";
      return kExitBadInput;
    }
    if (tensors.size() + parsed.header->tensors.size() > plan::kMaxSafetensorsTensors) {
      std::cerr << "error: --model " << dir << ": more than " << plan::kMaxSafetensorsTensors
                << " tensors\n";
      return kExitBadInput;
    }
    for (auto& t : parsed.header->tensors) tensors.push_back(std::move(t));
  }
  if (files == 0) {
    r.spec->assumptions.push_back(shown + ": no .safetensors files; sizes from config.json");
    return kExitOk;
  }
  plan::set_safetensors_weights(*r.spec, tensors);
  if (indexed)
    r.spec->assumptions.push_back(shown + index_name + ": " + std::to_string(files) +
                                  " shard files read (their headers only)");
  return kExitOk;
}

}  // namespace

int load_model(const std::string& model, const std::string& params, Loaded& out) {
  if (model.empty() == params.empty()) {
    std::cerr << "error: give one of --model NAME|config.json or --params COUNT\n";
    return kExitUsage;
  }
  plan::ModelResult r;
  if (!params.empty()) {
    r = plan::model_from_params(params);
    if (!r.spec) {
      std::cerr << "error: " << r.error << "\n";
      return kExitUsage;
    }
  } else if (is_directory(model)) {
    if (int rc = load_model_dir(model, r); rc != kExitOk) return rc;
    out.file_quant = plan::file_quant_level(*r.spec);
  } else if (model.size() > 5 && model.substr(model.size() - 5) == ".gguf") {
    // The header only: metadata and tensor infos, never the weights.
    LiveHost host;
    auto head = host.read_head(absolute_path(model), plan::kMaxGgufHeadBytes);
    if (!head) {
      std::cerr << "error: --model " << model << ": " << head.error().message << "\n";
      return kExitBadInput;
    }
    auto size = host.regular_file_size(absolute_path(model));
    if (!size) {
      std::cerr << "error: --model " << model << ": " << size.error().message << "\n";
      return kExitBadInput;
    }
    auto parsed = plan::parse_gguf(*head, model, *size);
    if (!parsed.header) {
      std::cerr << "error: " << parsed.error << "\n";
      return kExitBadInput;
    }
    r = plan::model_from_gguf(*parsed.header, model);
    if (!r.spec) {
      std::cerr << "error: " << r.error << "\n";
      return kExitBadInput;
    }
    out.file_quant = plan::file_quant_level(*r.spec);
  } else if (model.find('/') != std::string::npos ||
             (model.size() > 5 && model.substr(model.size() - 5) == ".json")) {
    LiveHost host;
    auto text = host.read(absolute_path(model));
    if (!text) {
      std::cerr << "error: --model " << model << ": " << text.error().message << "\n";
      return kExitBadInput;
    }
    r = plan::parse_hf_config(*text, model);
    if (!r.spec) {
      std::cerr << "error: " << r.error << "\n";
      return kExitBadInput;
    }
  } else {
    r = plan::builtin_model(model);
    if (!r.spec) {
      std::cerr << "error: " << r.error << "\n";
      return kExitUsage;
    }
  }
  out.spec = std::move(r.spec);
  return kExitOk;
}

int load_devices(const PlanArgs& a, Loaded& out) {
  auto opened = open_host(a.host_path, a.root, a.timeout_s, a.root_tools);
  if (opened.exit != kExitOk) return opened.exit;
  out.source = opened.source;
  Detection det = detect(*opened.host);
  std::optional<std::string> flag;
  if (!a.reserve.empty()) flag = a.reserve;
  auto choice = choose_reserve(flag, opened.host->env(kReserveEnv));
  if (!choice.reserve) {
    std::cerr << "error: " << choice.error << "\n";
    return kExitBadReserve;
  }
  out.reserve_bytes = double(choice.reserve->bytes);
  out.reserve_text = format_mib(choice.reserve->bytes) + " (" + choice.reserve->source + ")";
  plan::DeviceOptions o;
  std::stringstream on(a.on);
  for (std::string item; std::getline(on, item, ',');)
    if (!item.empty()) o.on.push_back(item);
  o.add = a.add;
  o.remove = a.remove;
  o.reserve_bytes = out.reserve_bytes;
  auto built = plan::build_devices(det, *out.catalogue, o);
  if (!built.set) {
    std::cerr << "error: " << built.error << "\n";
    return kExitUsage;
  }
  out.devices = std::move(built.set);
  return kExitOk;
}

int run_plan(const PlanArgs& a) {
  if (!a.kernels.empty() || !a.hardware.empty()) return run_kernel_plan(a);
  Loaded l = load_catalogue(a.devices_file);
  if (l.exit != kExitOk) return l.exit;
  if (int rc = load_model(a.model, a.params, l); rc != kExitOk) return rc;
  int exit = kExitOk;
  const plan::QuantLevel* q = requested_quant(a, l, exit);
  if (!q) return exit;
  if (int rc = load_devices(a, l); rc != kExitOk) return rc;
  plan::PlanRequest req;
  req.spec = *l.spec;
  req.quant = *q;
  if (!apply_lengths(a, req.workload)) return kExitUsage;
  req.workload.batch = a.batch;
  req.workload.kv = a.kv;
  req.workload.flash_attention = a.flash_attn != "off";
  req.workload.gpu_memory_utilization = a.gpu_memory_utilization;
  req.decode_batch = a.decode_batch;
  req.runtime = a.runtime;
  req.quant_typed = a.quant;
  auto result = plan::make_plan(req, *l.devices, *l.catalogue);
  PlanContext ctx{l.source, l.catalogue->origin, l.reserve_text};
  std::cout << (a.json ? render_plan_json(result, *l.devices, ctx)
                       : render_plan_text(result, *l.devices, ctx));
  if (!a.svg.empty())
    if (int rc = write_plan_svg(a.svg, a.force, result, req, *l.devices, *l.catalogue); rc != 0)
      return rc;
  return result.fits() ? kExitOk : kExitDoesNotFit;
}

}  // namespace hwaccel::cli
