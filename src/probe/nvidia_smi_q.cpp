#include "src/probe/nvidia_smi_q.h"

#include "src/probe/nvidia_smi_csv.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

constexpr std::size_t kMaxGpus = 256;
constexpr std::size_t kMaxMigPerGpu = 64;

std::size_t indent_of(std::string_view line) {
  std::size_t n = 0;
  while (n < line.size() && (line[n] == ' ' || line[n] == '\t')) ++n;
  return n;
}

std::optional<int> small_int(std::string_view text) {
  auto value = parse_u64(trim(text));
  if (!value || *value > 100000) return std::nullopt;
  return int(*value);
}

// "40448 MiB" -> bytes.
std::optional<std::uint64_t> mib_bytes(std::string_view text) {
  text = trim(text);
  if (text.size() < 5 || text.substr(text.size() - 4) != " MiB") return std::nullopt;
  auto mib = parse_u64(trim(text.substr(0, text.size() - 4)));
  if (!mib) return std::nullopt;
  return checked_multiply(*mib, 1048576);
}

// A key line of a GPU outside its MIG devices, under `section` ("" at the top).
void read_gpu_line(std::string_view section, std::string_view key, std::string_view value,
                   NvidiaSmiQGpu& gpu) {
  if (section.empty()) {
    if (key == "Addressing Mode") gpu.addressing_mode = printable_line(value, 20);
    if (key == "Product Name") gpu.product_name = printable_line(value, 96);
    if (key == "GPU UUID") gpu.uuid = printable_line(value, 96);
  } else if (section == "MIG Mode" && key == "Current") {
    gpu.mig_mode_current = printable_line(value, 20);
  } else if (section == "FB Memory Usage") {
    if (key == "Total") {
      gpu.total_bytes = mib_bytes(value);
      gpu.total_not_available = is_no_value(trim(value));
    }
    if (key == "Used") gpu.used_bytes = mib_bytes(value);
    if (key == "Free") gpu.free_bytes = mib_bytes(value);
  }
}

}  // namespace

NvidiaSmiQ parse_nvidia_smi_q(std::string_view text) {
  NvidiaSmiQ out;
  NvidiaSmiQGpu* gpu = nullptr;
  NvidiaSmiQMig* mig = nullptr;
  std::size_t mig_indent = 0;
  std::string section;      // the header a MIG device's key lines fall under
  std::string gpu_section;  // the header a GPU's own key lines fall under ("" at its top)
  std::size_t gpu_section_indent = 0;
  for (auto raw : split_lines(text)) {
    const std::size_t indent = indent_of(raw);
    const auto line = trim(raw);
    if (line.empty()) continue;
    if (indent == 0) {
      mig = nullptr;
      gpu = nullptr;
      gpu_section.clear();
      if (line.rfind("GPU ", 0) == 0 && out.gpus.size() < kMaxGpus) {
        auto bus = normalise_pci_bus_id(line.substr(4));
        if (!bus.empty()) {
          out.gpus.emplace_back();
          out.gpus.back().bus_id = bus;
          gpu = &out.gpus.back();
        }
      } else if (auto kv = split_key_value(line)) {  // the driver's lines, before any GPU
        if (kv->key == "Driver Version") out.driver_version = printable_line(kv->value, 40);
        if (kv->key == "CUDA Version") out.cuda_version = printable_line(kv->value, 20);
      }
      continue;
    }
    if (!gpu) continue;
    if (mig && indent <= mig_indent) mig = nullptr;
    if (!gpu_section.empty() && indent <= gpu_section_indent) gpu_section.clear();
    auto kv = split_key_value(line);
    if (!kv) {  // a header: a MIG device, or a section inside one or the GPU
      if (line == "MIG Device" && gpu->mig_devices.size() < kMaxMigPerGpu) {
        gpu->mig_devices.emplace_back();
        mig = &gpu->mig_devices.back();
        mig_indent = indent;
        section.clear();
        gpu_section.clear();
      } else if (mig) {
        section = std::string(line);
      } else {
        gpu_section = std::string(line);
        gpu_section_indent = indent;
      }
      continue;
    }
    if (!mig) {
      read_gpu_line(gpu_section, kv->key, kv->value, *gpu);
      continue;
    }
    if (kv->key == "Index")
      mig->index = small_int(kv->value);
    else if (kv->key == "GPU Instance ID")
      mig->gpu_instance = small_int(kv->value);
    else if (kv->key == "Compute Instance ID")
      mig->compute_instance = small_int(kv->value);
    else if (kv->key == "Multiprocessor count")
      mig->sms = small_int(kv->value);
    else if (section == "Shared FB Memory Usage" || section == "FB Memory Usage") {
      if (kv->key == "Total")
        mig->total_bytes = mib_bytes(kv->value);
      else if (kv->key == "Free")
        mig->free_bytes = mib_bytes(kv->value);
    }
  }
  return out;
}

}  // namespace hwaccel
