// `nvidia-smi mig -lgi`, `-lgip` and `-lci` from the host model. Sources (public
// outputs; facts, not text, carried over):
// - -lgip's box (79 columns, name 17 wide) as driver 550/570 print it on an H100
//   NVL (tests/unit/probe/nvidia_smi_mig_test.cpp keeps its first rows), and the
//   wider box (81 columns, name 19 wide, room for "+me.all" names) that later
//   drivers print (an A100 40GB walk-through of -lgip/-lgi/-lci). Which driver
//   widened it is not in the sources: 580 (the first with "+me.all") is assumed.
// - -lgi's box (57/59 columns, the same two name widths), rows ordered by profile
//   id, highest first, then GPU instance id; -lci's box (70 columns, driver 580+).
// - The profile tables (ids, instances, memory, SMs, engines, placements) are
//   src/catalog/mig_profiles.cpp's, which the simulated NVML answers from too (their
//   sources are written there); memory is printed from MiB (mig::gib_text). Other
//   MIG-capable SKUs (GH200 144G, B200, GB200, the PCIe A100s, H200 NVL) are
//   answered for -lgi and -lci, not -lgip: no complete public table was at hand.
// - Refusals: "No MIG-enabled devices found." where MIG is off or not supported,
//   "No GPU instances found: Not Found" where it is on with none (public reports);
//   status 6, nvidia-smi's "not found" code.
#include <algorithm>
#include <cstdio>

#include "sim/emulate/emulate_common.h"
#include "sim/emulate/nvidia_smi.h"
#include "src/catalog/mig_profiles.h"
#include "src/probe/nvidia_smi_list.h"

namespace hwaccel::sim {
namespace {

using emulate::pad_left;
using emulate::pad_right;
using mig::GiProfile;
using mig::MigTable;

const MigTable* sku_of(const NvGpu& g) {
  std::optional<std::uint64_t> bytes;
  if (g.total_mib) bytes = *g.total_mib << 20;
  return mig::mig_table_for(g.name, bytes);
}

// Name widths (see the sources above).
std::size_t name_width(const NvModel& m) {
  int major = 0;
  for (std::size_t i = 0; i < m.driver_version.size() && i < 4; ++i) {
    char c = m.driver_version[i];
    if (c < '0' || c > '9') break;
    major = major * 10 + (c - '0');
  }
  return major >= 580 ? 19 : 17;
}

std::string box_line(char edge, char fill, std::size_t inner) {
  return std::string(1, edge) + std::string(inner, fill) + std::string(1, edge) + "\n";
}
std::string boxed(const std::string& text, std::size_t inner) {
  return "|" + pad_right(text, inner) + "|\n";
}

// A GPU instance as -lgi lists it.
struct Gi {
  int gpu = 0, profile_id = 0, id = 0, start = 0, size = 0;
  std::string profile;     // "3g.40gb"
  std::string ci_profile;  // the compute instance's: "3g.40gb" or "1c.3g.40gb"
  int ci_id = 0, ci_slices = 0;
  std::vector<int> starts;  // where its profile's placements may start
  int memory_slices = 8;    // the GPU's (4 on an A30)
};

int leading_int(const std::string& s) {
  int n = 0;
  for (char c : s) {
    if (c < '0' || c > '9') break;
    n = n * 10 + (c - '0');
    if (n > 1000) break;
  }
  return n;
}

// The GPU instance profile id of a profile name, from the SKU's table, else by the
// numbering every MIG GPU shares (7g 0, 4g 5, 3g 9, 2g 14, 1g 19, 1g+me 20, and 15
// for the 1g with twice the memory: more GB than 1/5 of the GPU's).
int profile_id(const NvGpu& g, const std::string& gi) {
  if (const MigTable* s = sku_of(g))
    if (const GiProfile* p = mig::gi_profile_by_name(*s, gi)) return static_cast<int>(p->id);
  const int slices = leading_int(gi);
  if (gi.find("+me") != std::string::npos) return 20;
  switch (slices) {
    case 7:
      return 0;
    case 4:
      return 5;
    case 3:
      return 9;
    case 2:
      return 14;
    default:
      break;
  }
  auto gb = mig_profile_memory_bytes(gi);
  if (gb && g.total_mib && *gb / 1000000 * 5 > *g.total_mib) return 15;
  return 19;
}

// A profile's placement size and starts, in the GPU's memory slices: the SKU's
// table's; else NVML's possible placements every A100/H100 table shares (in slices of
// 8: 4g and 7g at 0 only, 3g at 0 or 4, 2g at 0, 2, 4, the 2-slice 1g at any even
// start, a 1-slice one at 0..6), by profile id.
void layout_of(const NvGpu& g, int id, Gi& gi) {
  if (const MigTable* s = sku_of(g))
    if (const GiProfile* p = mig::gi_profile_by_id(*s, static_cast<unsigned>(id))) {
      gi.size = static_cast<int>(p->placement_size);
      gi.starts.assign(p->starts.begin(), p->starts.end());
      gi.memory_slices = static_cast<int>(s->memory_slices);
      return;
    }
  switch (id) {
    case 0:
      gi.size = 8, gi.starts = {0};
      return;
    case 5:
      gi.size = 4, gi.starts = {0};
      return;
    case 9:
      gi.size = 4, gi.starts = {0, 4};
      return;
    case 14:
      gi.size = 2, gi.starts = {0, 2, 4};
      return;
    case 15:
      gi.size = 2, gi.starts = {0, 2, 4, 6};
      return;
    default:
      gi.size = 1, gi.starts = {0, 1, 2, 3, 4, 5, 6};
  }
}

// The placement a GPU instance id stands for where the driver numbers them by
// place (id 0 the whole GPU, 1-2 the halves, 3-6 the quarters, 7-14 the eighths:
// public -lgi outputs of A100s; an A30's 4 slices the same way, its quarters single
// slices), as the simulated NVML also places them.
std::pair<int, int> placement_of_id(int id, int slices) {
  if (id == 0) return {0, slices};
  if (id >= 1 && id <= 2) return {(id - 1) * slices / 2, slices / 2};
  if (id >= 3 && id <= 6) return {(id - 3) * slices / 4, slices / 4};
  if (id >= 7 && id <= 14 && slices == 8) return {id - 7, 1};
  return {-1, 0};
}

// Where each instance sits: where its id says when that is one of its profile's
// starts and free; else (larger first) the highest free start its profile allows.
// The driver's own choice depends on creation order; this one is valid.
void place(std::vector<Gi>& gis) {
  std::vector<Gi*> order;
  for (auto& g : gis) order.push_back(&g);
  std::stable_sort(order.begin(), order.end(), [](Gi* a, Gi* b) {
    if (a->gpu != b->gpu) return a->gpu < b->gpu;
    return a->size != b->size ? a->size > b->size : a->id > b->id;
  });
  std::vector<std::pair<int, unsigned>> used;  // gpu, slice mask
  auto mask_of = [&](int gpu) -> unsigned& {
    for (auto& entry : used)
      if (entry.first == gpu) return entry.second;
    used.emplace_back(gpu, 0u);
    return used.back().second;
  };
  auto bits = [](int start, int size) { return ((1u << size) - 1u) << start; };
  std::vector<Gi*> rest;
  for (Gi* g : order) {
    unsigned& mask = mask_of(g->gpu);
    auto [start, size] = placement_of_id(g->id, g->memory_slices);
    const auto& allowed = g->starts;
    if (size == g->size && std::find(allowed.begin(), allowed.end(), start) != allowed.end() &&
        (mask & bits(start, size)) == 0) {
      g->start = start;
      mask |= bits(start, size);
    } else {
      rest.push_back(g);
    }
  }
  for (Gi* g : rest) {
    unsigned& mask = mask_of(g->gpu);
    const auto& allowed = g->starts;
    g->start = 0;
    for (auto it = allowed.rbegin(); it != allowed.rend(); ++it)
      if ((mask & bits(*it, g->size)) == 0) {
        g->start = *it;
        mask |= bits(*it, g->size);
        break;
      }
  }
}

// One per GPU instance, or (`each_ci`) one per compute instance.
std::vector<Gi> instances(const NvModel& m, const std::vector<int>& gpus, bool each_ci = false) {
  std::vector<Gi> out;
  for (int i : gpus) {
    const NvGpu& g = m.gpus[static_cast<std::size_t>(i)];
    for (const NvMig& d : g.migs) {
      Gi gi;
      gi.gpu = g.index;
      // "1c.3g.40gb": a compute instance of 1 slice in a 3g.40gb GPU instance.
      gi.ci_profile = d.profile;
      gi.profile = d.profile;
      if (auto dot = d.profile.find('.'); dot != std::string::npos && d.profile.find('c') < dot)
        gi.profile = d.profile.substr(dot + 1);
      gi.profile_id = profile_id(g, gi.profile);
      gi.id = d.gpu_instance_id.value_or(d.device + 1);
      gi.ci_id = d.compute_instance_id.value_or(0);
      gi.ci_slices = leading_int(d.profile);
      layout_of(g, gi.profile_id, gi);
      bool seen = false;
      for (const auto& o : out) seen = seen || (!each_ci && o.gpu == gi.gpu && o.id == gi.id);
      if (!seen) out.push_back(gi);
    }
  }
  if (!each_ci) place(out);
  return out;
}

bool any_mig(const NvModel& m, const std::vector<int>& gpus) {
  for (int i : gpus)
    if (!m.gpus[static_cast<std::size_t>(i)].migs.empty()) return true;
  return false;
}

// MIG mode as recorded where the GPU has no MIG devices (a --query-gpu of
// mig.mode.current), else on exactly where it has some.
bool mig_enabled(const NvGpu& g) {
  if (!g.migs.empty()) return true;
  auto it = g.recorded.find("mig.mode.current");
  return it != g.recorded.end() && it->second == "Enabled";
}

ToolAnswer no_mig_devices() {
  return {"No MIG-enabled devices found.\n", "", 6};
}

}  // namespace

// GPUs that have MIG at all (NVIDIA's list of supported GPUs): Ampere A100/A30
// and the data-centre Hopper and Blackwell parts.
bool nvsmi_mig_capable(const NvGpu& g) {
  if (sku_of(g)) return true;
  for (const char* part : {"A100", "A30", "H100", "H200", "H800", "H20", "B200", "B300"})
    if (g.name.find(part) != std::string::npos) return true;
  return false;
}

ToolAnswer nvsmi_mig_lgi(const NvModel& m, const std::vector<int>& gpus) {
  bool enabled = false;
  for (int i : gpus) enabled = enabled || mig_enabled(m.gpus[static_cast<std::size_t>(i)]);
  if (!enabled) return no_mig_devices();
  if (!any_mig(m, gpus)) return {"No GPU instances found: Not Found\n", "", 6};
  std::vector<Gi> gis = instances(m, gpus);
  std::stable_sort(gis.begin(), gis.end(), [](const Gi& a, const Gi& b) {
    if (a.gpu != b.gpu) return a.gpu < b.gpu;
    if (a.profile_id != b.profile_id) return a.profile_id > b.profile_id;
    return a.id < b.id;
  });
  const std::size_t w = name_width(m);
  const std::size_t inner = w + 38;
  std::string out = box_line('+', '-', inner);
  out += boxed(" GPU instances:", inner);
  out += boxed(" GPU   " + pad_right("Name", w) + "Profile  Instance   Placement  ", inner);
  out += boxed(std::string(w + 9, ' ') + "ID       ID       Start:Size ", inner);
  out += box_line('|', '=', inner);
  for (const Gi& g : gis) {
    out += "|" + pad_left(std::to_string(g.gpu), 4) + "  " + pad_right("MIG " + g.profile, w + 2) +
           pad_left(std::to_string(g.profile_id), 3) + pad_left(std::to_string(g.id), 9) +
           pad_left(std::to_string(g.start), 11) + ":" + pad_right(std::to_string(g.size), 6) +
           "|\n";
    out += box_line('+', '-', inner);
  }
  return {out, "", 0};
}

ToolAnswer nvsmi_mig_lci(const NvModel& m, const std::vector<int>& gpus) {
  bool enabled = false;
  for (int i : gpus) enabled = enabled || mig_enabled(m.gpus[static_cast<std::size_t>(i)]);
  if (!enabled) return no_mig_devices();
  if (!any_mig(m, gpus)) return {"No compute instances found: Not Found\n", "", 6};
  std::vector<Gi> gis = instances(m, gpus, true);
  std::stable_sort(gis.begin(), gis.end(), [](const Gi& a, const Gi& b) {
    if (a.gpu != b.gpu) return a.gpu < b.gpu;
    if (a.profile_id != b.profile_id) return a.profile_id > b.profile_id;
    return a.id != b.id ? a.id < b.id : a.ci_id < b.ci_id;
  });
  // The compute instance profile id of a CI of N compute slices (NVML's
  // NVML_COMPUTE_INSTANCE_PROFILE_*_SLICE numbering).
  auto ci_profile_id = [](int slices) {
    switch (slices) {
      case 2:
        return 1;
      case 3:
        return 2;
      case 4:
        return 3;
      case 7:
        return 4;
      case 8:
        return 5;
      case 6:
        return 6;
      default:
        return 0;
    }
  };
  const std::size_t inner = 68;
  std::string out = box_line('+', '-', inner);
  out += boxed(" Compute instances:", inner);
  out += boxed(" GPU     GPU       Name             Profile   Instance   Placement  ", inner);
  out += boxed("       Instance                       ID        ID       Start:Size ", inner);
  out += boxed("         ID                                                         ", inner);
  out += box_line('|', '=', inner);
  for (const Gi& g : gis) {
    const int slices = std::max(1, g.ci_slices);
    out += "|" + pad_left(std::to_string(g.gpu), 4) + pad_left(std::to_string(g.id), 7) +
           "       " + pad_right("MIG " + g.ci_profile, 19) +
           pad_left(std::to_string(ci_profile_id(slices)), 3) +
           pad_left(std::to_string(g.ci_id), 10) + pad_left(std::to_string(g.ci_id * slices), 11) +
           ":" + pad_right(std::to_string(slices), 6) + "|\n";
    out += box_line('+', '-', inner);
  }
  return {out, "", 0};
}

ToolAnswer nvsmi_mig_lgip(const NvModel& m, const std::vector<int>& gpus) {
  const std::size_t w = name_width(m);
  const std::size_t inner = w + 60;
  std::string rows;
  bool capable = false;
  for (int i : gpus) {
    const NvGpu& g = m.gpus[static_cast<std::size_t>(i)];
    if (!nvsmi_mig_capable(g)) continue;
    capable = true;
    const MigTable* s = sku_of(g);
    if (!s)
      return {"", "hwsim: nvidia-smi mig -lgip: no MIG profile table for " + g.name + "\n", 2};
    // Free instances: what the existing ones leave (each profile counts its own
    // instances; a full GPU has none free of any larger profile).
    std::vector<Gi> existing = instances(m, {i});
    unsigned used = 0;
    for (const Gi& e : existing) used |= ((1u << e.size) - 1u) << e.start;
    for (const GiProfile& p : s->profiles) {
      unsigned free = 0;
      // Placements that fit one after another (remaining capacity, as NVML counts it).
      unsigned taken = used;
      for (unsigned start : p.starts) {
        unsigned bits = ((1u << p.placement_size) - 1u) << start;
        if ((taken & bits) != 0 || free >= p.instances) continue;
        taken |= bits;
        ++free;
      }
      // One +me per GPU, only on an empty one (ids 20, and 21 and 6 on the A30).
      if (std::string_view(p.name).find("+me") != std::string_view::npos && used != 0) free = 0;
      if (!mig_enabled(g)) free = 0;
      rows += "|" + pad_left(std::to_string(g.index), 4) + "  " +
              pad_right("MIG " + std::string(p.name), w) + pad_left(std::to_string(p.id), 3) +
              pad_left(std::to_string(free), 6) + "/" + pad_right(std::to_string(p.instances), 3) +
              "      " + pad_right(mig::gib_text(p.memory_mib), 11) + pad_right("No", 7) +
              pad_right(std::to_string(p.sms), 7) + pad_right(std::to_string(p.decoders), 6) +
              pad_right(std::to_string(p.encoders), 4) + "|\n";
      rows += "|" + std::string(w + 44, ' ') + pad_right(std::to_string(p.copy_engines), 6) +
              pad_right(std::to_string(p.jpegs), 6) + pad_right(std::to_string(p.ofas), 4) + "|\n";
      rows += box_line('+', '-', inner);
    }
  }
  if (!capable) return no_mig_devices();
  std::string out = box_line('+', '-', inner);
  out += boxed(" GPU instance profiles:", inner);
  out += boxed(
      " GPU   " + pad_right("Name", w) + "ID    Instances   Memory     P2P    SM    DEC   ENC  ",
      inner);
  out += boxed(std::string(w + 13, ' ') + "Free/Total   GiB              CE    JPEG  OFA  ", inner);
  out += box_line('|', '=', inner);
  return {out + rows, "", 0};
}

}  // namespace hwaccel::sim
