#include "src/probe/cuda_probe.h"

#include <algorithm>
#include <optional>

#include "src/probe/nvidia_smi_csv.h"
#include "src/probe/nvidia_smi_errors.h"
#include "src/probe/proc_meminfo.h"
#include "src/probe/text_util.h"

namespace hwaccel {
namespace {

constexpr std::string_view kTool = "nvidia-smi";
constexpr std::string_view kMeminfo = "/proc/meminfo";
constexpr std::uint16_t kNvidiaPciVendor = 0x10de;

Warning cuda_warning(std::string message) {
  return Warning{"cuda", std::move(message)};
}

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string joined;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) joined += separator;
    joined += parts[i];
  }
  return joined;
}

// nvidia-smi writes its complaints to stdout; stderr rarely says more.
std::string all_output(const ToolRun& run) {
  if (run.err.empty()) return run.out;
  return run.out + "\n" + run.err;
}

// Why a run that did not succeed gave us no table.
Reason reason_for_outcome(const ToolRun& run) {
  switch (run.outcome) {
    case ToolOutcome::not_found:
      return {ReasonCode::tool_not_found, "nvidia-smi not found on PATH"};
    case ToolOutcome::timeout:
      return {ReasonCode::timeout, "nvidia-smi did not answer within the timeout"};
    case ToolOutcome::signal:
      return {ReasonCode::probe_failed,
              "nvidia-smi killed by signal " + std::to_string(run.signal)};
    case ToolOutcome::permission_denied:
      return {ReasonCode::permission_denied, "nvidia-smi may not be run by this user"};
    case ToolOutcome::exited:
      break;
  }
  return classify_nvidia_smi_failure(all_output(run), run.exit_code);
}

// Runs the query; when an old driver rejects fields, drops them and asks again,
// once per field at most. `fields` ends as the list of the last run.
ToolRun run_query(Host& host, std::vector<std::string>& fields, std::vector<Warning>& warnings) {
  const std::size_t max_retries = fields.size();
  ToolRun run = host.run(cuda_query_argv(fields));
  for (std::size_t retry = 0; retry < max_retries; ++retry) {
    if (run.outcome != ToolOutcome::exited || run.exit_code == 0) break;
    bool dropped = false;
    for (const auto& field : rejected_query_fields(all_output(run))) {
      auto at = std::find(fields.begin(), fields.end(), field);
      if (at == fields.end()) continue;
      fields.erase(at);
      dropped = true;
      warnings.push_back(cuda_warning("nvidia-smi rejected field \"" + field +
                                      "\" (old driver?); retried without it"));
    }
    if (!dropped || fields.empty()) break;
    run = host.run(cuda_query_argv(fields));
  }
  return run;
}

// GB10 and Jetson report no memory of their own: the GPU uses the host's.
// /proc/meminfo is read once however many such GPUs there are.
class HostMemory {
 public:
  explicit HostMemory(Host& host) : host_(host) {}

  void fill(Entry& gpu, std::vector<Warning>& warnings) {
    gpu.memory.kind = MemoryKind::unified;
    gpu.memory.total_bytes.reset();  // half a figure from nvidia-smi would mislead
    gpu.memory.free_bytes.reset();
    gpu.memory.source.clear();
    gpu.provenance.push_back("file:" + std::string(kMeminfo));
    if (!read_) {
      read_ = true;
      auto text = host_.read(kMeminfo);
      if (text)
        info_ = parse_proc_meminfo(*text);
      else
        error_ = text.error().errno_name();
    }
    if (!info_) {
      warnings.push_back(cuda_warning("GPU " + std::to_string(gpu.index) +
                                      " shares host memory but " + std::string(kMeminfo) +
                                      " cannot be read (" + error_ + "); memory unknown"));
      return;
    }
    gpu.memory.total_bytes = info_->total_bytes;
    gpu.memory.free_bytes = info_->available_bytes;
    gpu.memory.source =
        std::string(kMeminfo) + (info_->available_estimated ? " (MemTotal, MemFree+Buffers+Cached)"
                                                            : " (MemTotal, MemAvailable)");
  }

 private:
  Host& host_;
  bool read_ = false;
  std::optional<MemInfo> info_;
  std::string error_;
};

std::string physical_id_of(const NvidiaSmiGpu& gpu, int index) {
  if (!gpu.pci_bus_id.empty()) return "pci:" + gpu.pci_bus_id;
  if (!gpu.uuid.empty()) return "nvidia:" + gpu.uuid;
  return "cuda:" + std::to_string(index);
}

Entry make_entry(const NvidiaSmiGpu& gpu, int row, const std::string& provenance) {
  Entry entry;
  entry.backend = "cuda";
  entry.api = std::string(kTool);
  entry.index = gpu.index.value_or(row);
  entry.physical_id = physical_id_of(gpu, entry.index);
  entry.name = gpu.name;
  entry.vendor = "NVIDIA";
  entry.pci_vendor_id = kNvidiaPciVendor;
  entry.pci_bus_id = gpu.pci_bus_id;
  entry.uuid = gpu.uuid;
  entry.type = DeviceType::gpu;
  entry.memory.kind = MemoryKind::discrete;
  entry.memory.total_bytes = gpu.memory_total_bytes;
  entry.memory.free_bytes = gpu.memory_free_bytes;
  entry.memory.source = std::string(kTool);
  entry.compute_class = compute_class_from_cap(gpu.compute_cap);
  entry.driver_version = gpu.driver_version;
  entry.status = EntryStatus::ready;
  entry.provenance.push_back(provenance);
  return entry;
}

ProbeResult unavailable(ProbeResult result, Reason reason) {
  result.backend.ready = false;
  result.backend.reason = std::move(reason);
  result.entries.clear();
  return result;
}

}  // namespace

std::vector<std::string> cuda_query_argv(const std::vector<std::string>& fields) {
  return {std::string(kTool), "--query-gpu=" + join(fields, ","), "--format=csv"};
}

ProbeResult CudaProbe::run(Host& host) const {
  ProbeResult result;
  result.backend.name = "cuda";

  auto fields = cuda_query_fields();
  ToolRun run = run_query(host, fields, result.warnings);
  if (run.truncated)
    result.warnings.push_back(
        cuda_warning("nvidia-smi output was cut at the host's limit; GPUs may be missing"));
  if (!run.ok()) return unavailable(std::move(result), reason_for_outcome(run));

  auto query = parse_nvidia_smi_gpu_query(run.out);
  if (std::find(query.columns.begin(), query.columns.end(), "name") == query.columns.end()) {
    if (auto known = known_nvidia_smi_error(all_output(run)))
      return unavailable(std::move(result), *known);
    std::string detail = query.columns.empty()
                             ? "nvidia-smi printed nothing"
                             : "nvidia-smi output has no \"name\" column (first line: \"" +
                                   first_meaningful_line(run.out, 80) + "\")";
    return unavailable(std::move(result), {ReasonCode::probe_failed, detail});
  }
  for (const auto& field : fields)
    if (std::find(query.columns.begin(), query.columns.end(), field) == query.columns.end())
      result.warnings.push_back(cuda_warning("nvidia-smi output has no \"" + field + "\" column"));
  for (const auto& problem : query.problems)
    result.warnings.push_back(cuda_warning("nvidia-smi: " + problem));
  if (query.gpus.empty())
    return unavailable(std::move(result), {ReasonCode::no_device, "nvidia-smi listed no GPU"});

  const std::string provenance = "tool:" + join(cuda_query_argv(fields), " ");
  HostMemory host_memory(host);
  for (std::size_t row = 0; row < query.gpus.size(); ++row) {
    const auto& gpu = query.gpus[row];
    Entry entry = make_entry(gpu, static_cast<int>(row), provenance);
    if (gpu.memory_not_reported) host_memory.fill(entry, result.warnings);
    result.entries.push_back(std::move(entry));
  }
  result.backend.ready = std::any_of(result.entries.begin(), result.entries.end(),
                                     [](const Entry& e) { return e.status == EntryStatus::ready; });
  return result;
}

}  // namespace hwaccel
