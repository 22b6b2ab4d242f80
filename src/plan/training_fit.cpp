#include "src/plan/training_fit.h"

#include <functional>

namespace hwaccel::plan {

namespace {

struct Change {
  std::string what;
  std::function<bool(TrainRequest&)> apply;  // false: not a change for this request
};

std::vector<Change> changes(const TrainRequest& base) {
  std::vector<Change> out;
  out.push_back({"activation checkpointing", [](TrainRequest& r) {
                   if (r.checkpointing) return false;
                   r.checkpointing = true;
                   return true;
                 }});
  for (int z = base.zero + 1; z <= 3; ++z)
    out.push_back({"ZeRO " + std::to_string(z), [z](TrainRequest& r) {
                     if (r.devices < 2 || !r.zero_available) return false;
                     r.zero = z;
                     return true;
                   }});
  out.push_back({"micro-batch 1", [](TrainRequest& r) {
                   if (r.micro_batch <= 1) return false;
                   r.micro_batch = 1;
                   return true;
                 }});
  out.push_back({base.qlora_base == "nf4" ? "QLoRA (NF4 base)" : "QLoRA (4-bit affine base)",
                 [](TrainRequest& r) {
                   if (r.method != TrainMethod::lora && r.method != TrainMethod::full) return false;
                   r.method = TrainMethod::qlora;
                   return true;
                 }});
  for (int seq = base.seq / 2; seq >= 512; seq /= 2)
    out.push_back({"seq " + std::to_string(seq), [seq](TrainRequest& r) {
                     r.seq = seq;
                     return true;
                   }});
  return out;
}

}  // namespace

std::vector<TrainAlternative> training_alternatives(const TrainRequest& base, double capacity) {
  std::vector<TrainAlternative> out;
  const auto all = changes(base);
  for (const auto& c : all) {
    TrainRequest r = base;
    if (!c.apply(r)) continue;
    double total = training_memory(r).total();
    if (total <= capacity) out.push_back({c.what, total, true});
  }
  // Checkpointing with one other change, when neither alone was enough.
  if (!base.checkpointing) {
    bool checkpointing_alone = !out.empty() && out.front().change == all.front().what;
    for (std::size_t i = 1; i < all.size() && !checkpointing_alone; ++i) {
      TrainRequest r = base;
      all.front().apply(r);
      if (!all[i].apply(r)) continue;
      bool alone = false;
      for (const auto& a : out) alone |= a.change == all[i].what;
      if (alone) continue;
      double total = training_memory(r).total();
      if (total <= capacity) out.push_back({all.front().what + " + " + all[i].what, total, true});
    }
  }
  return out;
}

}  // namespace hwaccel::plan
