#include "src/registry/selection.h"

#include <algorithm>
#include <map>

#include "src/registry/backends.h"
#include "src/registry/identity.h"
#include "src/registry/reserve.h"

namespace hwaccel {

std::string entry_label(const Entry& e) {
  return e.backend + ":" + std::to_string(e.index);
}

namespace {

int backend_rank(const Detection& d, const std::string& backend) {
  for (std::size_t i = 0; i < d.backends.size(); ++i)
    if (d.backends[i].name == backend) return int(i);
  return int(d.backends.size());
}

bool offerable(const Entry& e) {
  return e.status == EntryStatus::ready && !e.partitioned;
}

bool is_accelerator(const Entry& e) {
  return e.type != DeviceType::cpu;
}

// True when a should be chosen before b.
bool ranks_before(const Detection& d, const Entry& a, const Entry& b) {
  int ra = backend_rank(d, a.backend), rb = backend_rank(d, b.backend);
  if (ra != rb) return ra < rb;
  auto fa = a.memory.free_bytes, fb = b.memory.free_bytes;
  if (fa.has_value() != fb.has_value()) return fa.has_value();
  if (fa && fb && *fa != *fb) return *fa > *fb;
  return a.index < b.index;
}

std::optional<std::size_t> best(const Detection& d, const std::vector<std::size_t>& candidates) {
  if (candidates.empty()) return std::nullopt;
  return *std::min_element(candidates.begin(), candidates.end(), [&](std::size_t x, std::size_t y) {
    return ranks_before(d, d.entries[x], d.entries[y]);
  });
}

std::string reason_brief(const std::optional<Reason>& r) {
  if (!r) return "unavailable";
  std::string text(to_string(r->code));
  if (!r->detail.empty()) text += "(" + r->detail + ")";
  return text;
}

// "cuda=driver-not-found(...), rocm=no-device": why each backend offers nothing.
std::string why_no_accelerator(const Detection& d) {
  std::string out;
  for (const auto& b : d.backends) {
    if (b.name == "cpu") continue;
    std::string why;
    if (!b.ready) {
      why = reason_brief(b.reason);
    } else {
      for (const auto& e : d.entries)
        if (e.backend == b.name && is_accelerator(e) && e.status != EntryStatus::ready) {
          why = entry_label(e) + " " + reason_brief(e.reason);
          break;
        }
      if (why.empty()) why = "no device offered";
    }
    out += (out.empty() ? "" : ", ") + b.name + "=" + why;
  }
  return out.empty() ? "no accelerator backend in this build" : out;
}

std::string available_list(const Detection& d) {
  std::string out;
  for (const auto& e : d.entries) {
    out += (out.empty() ? "" : ", ") + entry_label(e);
    out += e.status == EntryStatus::ready
               ? " (ready)"
               : " (" +
                     std::string(to_string(e.reason ? e.reason->code : ReasonCode::probe_failed)) +
                     ")";
  }
  return out.empty() ? "none" : out;
}

// What a requirement compares memory against: free when known, else total.
std::optional<std::uint64_t> usable_memory(const Entry& e) {
  if (e.memory.free_bytes) return e.memory.free_bytes;
  return e.memory.total_bytes;
}

bool satisfies(const Entry& e, const Requirement& r) {
  switch (r.kind) {
    case Requirement::Kind::type:
      return e.type == r.type;
    case Requirement::Kind::accelerator:
      return is_accelerator(e);
    case Requirement::Kind::min_memory: {
      auto m = usable_memory(e);
      return m && *m >= r.bytes;
    }
  }
  return false;
}

bool satisfies_all(const Entry& e, const std::vector<Requirement>& rs) {
  return std::all_of(rs.begin(), rs.end(), [&](const Requirement& r) { return satisfies(e, r); });
}

std::string ready_count_text(const Detection& d) {
  auto n = count_physical_accelerators(d.entries, true);
  return std::to_string(n) + (n == 1 ? " physical device ready" : " physical devices ready");
}

}  // namespace

Selection select_default(const Detection& d) {
  std::vector<std::size_t> accelerators;
  std::optional<std::size_t> cpu;
  for (std::size_t i = 0; i < d.entries.size(); ++i) {
    const Entry& e = d.entries[i];
    if (!offerable(e)) continue;
    if (is_accelerator(e))
      accelerators.push_back(i);
    else if (!cpu)
      cpu = i;
  }
  Selection s;
  if (auto pick = best(d, accelerators)) {
    s.entry = pick;
    const Entry& e = d.entries[*pick];
    s.reason = "first ready " + e.backend + " device by backend order, free memory, index; " +
               ready_count_text(d);
    return s;
  }
  s.entry = cpu;
  s.reason = "no ready accelerator: " + why_no_accelerator(d);
  if (!cpu) s.reason += "; no CPU entry either";
  return s;
}

std::optional<Requirement> parse_requirement(const std::string& text) {
  Requirement r;
  r.text = text;
  if (text == "gpu") return r.kind = Requirement::Kind::type, r.type = DeviceType::gpu, r;
  if (text == "npu") return r.kind = Requirement::Kind::type, r.type = DeviceType::npu, r;
  if (text == "tpu") return r.kind = Requirement::Kind::type, r.type = DeviceType::tpu, r;
  if (text == "accelerator") return r.kind = Requirement::Kind::accelerator, r;
  if (text.rfind("mem>=", 0) == 0) {
    auto bytes = parse_size(text.substr(5));
    if (!bytes) return std::nullopt;
    r.kind = Requirement::Kind::min_memory;
    r.bytes = *bytes;
    return r;
  }
  return std::nullopt;
}

RequestResult resolve_request(const Detection& d, const Request& request,
                              const std::vector<std::string>& compiled) {
  RequestResult result;
  auto is_compiled = [&](const std::string& b) {
    return std::find(compiled.begin(), compiled.end(), b) != compiled.end();
  };
  if (request.empty()) {
    Selection s = select_default(d);
    result.entry = s.entry;
    result.outcome = s.entry ? RequestOutcome::selected : RequestOutcome::unsatisfiable;
    result.message = s.reason;
    return result;
  }

  std::string backend = request.backend;
  std::string pci;
  std::optional<int> index;
  if (!request.device.empty()) {
    auto colon = request.device.find(':');
    if (colon == std::string::npos || colon == 0) {
      result.outcome = RequestOutcome::bad_request;
      result.message =
          "--device \"" + request.device + "\": expected BACKEND:INDEX (cuda:1) or pci:ADDRESS";
      return result;
    }
    std::string head = request.device.substr(0, colon), tail = request.device.substr(colon + 1);
    if (head == "pci") {
      pci = tail;
      std::transform(pci.begin(), pci.end(), pci.begin(),
                     [](unsigned char c) { return char(std::tolower(c)); });
      if (std::count(pci.begin(), pci.end(), ':') == 1) pci = "0000:" + pci;  // "3b:00.0"
    } else {
      if (!backend.empty() && backend != head) {
        result.outcome = RequestOutcome::bad_request;
        result.message = "--device " + request.device + " contradicts --backend " + backend;
        return result;
      }
      backend = head;
      if (tail.empty() || tail.find_first_not_of("0123456789") != std::string::npos ||
          tail.size() > 6) {
        result.outcome = RequestOutcome::bad_request;
        result.message = "--device \"" + request.device + "\": the index must be a number";
        return result;
      }
      index = std::stoi(tail);
    }
  }
  if (!backend.empty()) {
    if (!is_known_backend(backend)) {
      result.outcome = RequestOutcome::bad_request;
      result.message = "unknown backend \"" + backend + "\"";
      return result;
    }
    if (!is_compiled(backend)) {
      result.outcome = RequestOutcome::not_compiled;
      result.message = "this build has no " + backend + " backend; available: " + available_list(d);
      return result;
    }
  }

  // The scope is what the request names; of it, what satisfies the
  // requirements; of that, what can be offered now.
  std::vector<std::size_t> fitting, offered;
  bool in_scope_at_all = false;
  for (std::size_t i = 0; i < d.entries.size(); ++i) {
    const Entry& e = d.entries[i];
    if (!backend.empty() && e.backend != backend) continue;
    if (index && e.index != *index) continue;
    if (!pci.empty() && e.physical_id != "pci:" + pci &&
        !(e.partition && e.partition->parent_physical_id == "pci:" + pci))
      continue;
    in_scope_at_all = true;
    // A partitioned (MIG) GPU is offered only through its instances: named, it
    // answers "partitioned" (8); it never satisfies a requirement itself (9).
    if (e.partitioned && request.device.empty()) continue;
    if (!satisfies_all(e, request.requirements)) continue;
    fitting.push_back(i);
    if (offerable(e)) offered.push_back(i);
  }

  if (auto pick = best(d, offered)) {
    result.outcome = RequestOutcome::selected;
    result.entry = pick;
    std::string asked = request.device.empty() ? "" : request.device + " ";
    if (!request.backend.empty()) asked += "backend " + request.backend + " ";
    for (const auto& r : request.requirements) asked += "require " + r.text + " ";
    result.message = "requested " + asked + "-> " + entry_label(d.entries[*pick]);
    return result;
  }
  if (!fitting.empty()) {
    const Entry& e = d.entries[fitting.front()];
    result.outcome = RequestOutcome::not_ready;
    result.message = e.partitioned
                         ? entry_label(e) + " is partitioned (MIG): request one of its instances"
                         : entry_label(e) + " is not ready: " + reason_brief(e.reason);
    result.message += "; available: " + available_list(d);
    return result;
  }
  if (!backend.empty() && !in_scope_at_all) {
    for (const auto& b : d.backends)
      if (b.name == backend && !b.ready) {
        result.outcome = RequestOutcome::not_ready;
        result.message = backend + " is not ready: " + reason_brief(b.reason) +
                         "; available: " + available_list(d);
        return result;
      }
  }
  result.outcome = RequestOutcome::unsatisfiable;
  std::string wanted;
  for (const auto& r : request.requirements) wanted += (wanted.empty() ? "" : ", ") + r.text;
  if (!in_scope_at_all)
    result.message =
        "nothing matches " + (request.device.empty() ? "backend " + backend : request.device);
  else if (request.device.empty() && backend.empty())
    result.message = "no device satisfies " + wanted;
  else
    result.message =
        (request.device.empty() ? backend : request.device) + " does not satisfy " + wanted;
  result.message += "; available: " + available_list(d);
  return result;
}

}  // namespace hwaccel
