#include "src/probe/cuda_mig_sizes.h"

#include <map>

#include "src/catalog/mig_profiles.h"
#include "src/probe/cuda_tool.h"
#include "src/probe/nvidia_smi_mig.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

constexpr std::string_view kEstimated = "estimated from the profile name";

bool estimated(const Entry& e) {
  return e.backend == "cuda" && e.partition && e.memory.source.rfind(kEstimated, 0) == 0;
}

std::optional<int> mig_device_of(const Entry& e) {
  auto slash = e.physical_id.rfind('/');
  if (slash == std::string::npos) return std::nullopt;
  auto n = parse_u64(std::string_view(e.physical_id).substr(slash + 1));
  if (!n || *n > 100000) return std::nullopt;
  return int(*n);
}

std::string mib(std::uint64_t bytes) {
  return std::to_string(bytes >> 20) + " MiB";
}

// The table's row for each estimated entry (by parent index and MIG Dev).
void from_table(const MigTable& table, ProbeResult& result) {
  const std::string provenance = "tool:" + cuda_join(cuda_table_argv(), " ");
  std::map<std::pair<int, int>, std::string> holder;  // (GPU, GI) -> who carries its memory
  for (auto& e : result.entries) {
    if (!estimated(e)) continue;
    auto device = mig_device_of(e);
    const MigTableDevice* row = nullptr;
    for (const auto& d : table.devices)
      if (device && d.gpu == e.partition->parent_index && d.device == *device) row = &d;
    if (!row) continue;
    e.provenance.push_back(provenance);
    e.partition->gpu_instance_id = row->gpu_instance;
    e.partition->compute_instance_id = row->compute_instance;
    auto [at, first] = holder.emplace(std::pair{row->gpu, row->gpu_instance}, e.physical_id);
    if (!first) {
      e.memory.total_bytes.reset();
      e.memory.free_bytes.reset();
      e.memory.source = "shares GPU instance " + std::to_string(row->gpu_instance) +
                        "'s memory with " + at->second +
                        " (one memory for its compute instances; counted there)";
      continue;
    }
    e.memory.total_bytes = row->total_bytes;
    e.memory.free_bytes = row->total_bytes - row->used_bytes;
    e.memory.source = "nvidia-smi's table (MIG devices, GPU instance " +
                      std::to_string(row->gpu_instance) + ": " + mib(row->used_bytes) + " of " +
                      mib(row->total_bytes) + " used; free = total - used)";
  }
}

// A GPU instance profile's size for the entries of that profile. A compute
// instance smaller than its GPU instance ("1c.3g.40gb") shares it: left as is.
void from_profiles(const MigListing& listing, ProbeResult& result) {
  const std::string provenance = "tool:" + cuda_join(cuda_mig_lgip_argv(), " ");
  for (auto& e : result.entries) {
    if (!estimated(e) || e.partition->profile.find("c.") != std::string::npos) continue;
    for (const auto& p : listing.profiles) {
      if (p.gpu != e.partition->parent_index || p.name != e.partition->profile) continue;
      e.provenance.push_back(provenance);
      e.memory.total_bytes = p.memory_bytes;
      e.memory.free_bytes.reset();
      e.memory.source = "nvidia-smi mig -lgip (profile " + p.name + ": " + p.memory_text +
                        " GiB, to 0.01 GiB; free unknown)";
      break;
    }
  }
}

// The last resort before the name's GB: the GPU's MIG profile table (what
// -lgip prints on that SKU), found by the parent GPU's name and memory. As
// with -lgip, a compute instance smaller than its GPU instance is left as is.
void from_profile_tables(ProbeResult& result) {
  for (auto& e : result.entries) {
    if (!estimated(e) || e.partition->profile.find("c.") != std::string::npos) continue;
    const Entry* parent = nullptr;
    for (const auto& p : result.entries)
      if (p.backend == "cuda" && !p.partition && p.index == e.partition->parent_index) parent = &p;
    if (!parent) continue;
    const mig::MigTable* table = mig::mig_sizes_table_for(parent->name, parent->memory.total_bytes);
    const mig::GiProfile* profile =
        table ? mig::gi_profile_by_name(*table, e.partition->profile) : nullptr;
    if (!profile) continue;
    e.memory.total_bytes = profile->memory_mib << 20;
    e.memory.free_bytes.reset();
    e.memory.source = "the " + std::string(table->family) + " MIG profile table (profile " +
                      e.partition->profile + ": " + std::to_string(profile->memory_mib) +
                      " MiB, as nvidia-smi mig -lgip prints it on that GPU; free unknown)";
  }
}

bool any_estimated(const ProbeResult& result) {
  for (const auto& e : result.entries)
    if (estimated(e)) return true;
  return false;
}

}  // namespace

std::vector<std::string> cuda_table_argv() {
  return {std::string(kCudaTool)};
}

std::vector<std::string> cuda_mig_lgip_argv() {
  return {std::string(kCudaTool), "mig", "-lgip"};
}

void cuda_mig_sizes_without_q(Host& host, ProbeResult& result) {
  if (!any_estimated(result)) return;
  std::vector<std::string> failed;
  const ToolRun table = host.run(cuda_table_argv());
  if (table.ok()) {
    auto parsed = parse_nvidia_smi_table_mig(table.out);
    for (const auto& problem : parsed.problems)
      result.warnings.push_back(cuda_warning("nvidia-smi: " + problem));
    from_table(parsed, result);
    if (!parsed.has_block) failed.push_back("nvidia-smi's table has no MIG devices block");
  } else {
    failed.push_back("nvidia-smi failed (" + cuda_reason_text(cuda_run_reason(table)) + ")");
  }
  if (!any_estimated(result)) return;
  // -lgip needs root on some drivers: a refusal is one more reason, not an error.
  const ToolRun lgip = host.run(cuda_mig_lgip_argv());
  if (lgip.ok()) {
    auto parsed = parse_nvidia_smi_mig_lgip(lgip.out);
    for (const auto& problem : parsed.problems)
      result.warnings.push_back(cuda_warning("nvidia-smi mig -lgip: " + problem));
    from_profiles(parsed, result);
  } else {
    failed.push_back("nvidia-smi mig -lgip failed (" + cuda_reason_text(cuda_run_reason(lgip)) +
                     ")");
  }
  if (!any_estimated(result)) return;
  from_profile_tables(result);
  if (!any_estimated(result)) return;
  std::string why;
  for (const auto& f : failed) why += (why.empty() ? "" : "; ") + f;
  result.warnings.push_back(cuda_warning("MIG sizes estimated from the profile names" +
                                         (why.empty() ? std::string() : ": " + why)));
}

}  // namespace hwaccel
