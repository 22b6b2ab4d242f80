// The C API (include/hwaccel/hwaccel.h) over the C++ internals. No exception
// crosses this boundary: every entry point catches and turns it into a status
// and a per-thread message.
#include "hwaccel/hwaccel.h"

#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "src/host/live_host.h"
#include "src/host/snapshot_host.h"
#include "src/registry/detection.h"
#include "src/registry/request_text.h"
#include "src/registry/reserve.h"
#include "src/registry/selection.h"
#include "src/registry/summary.h"
#include "src/report/detect_json.h"

// The strings the per-device accessors return that no Entry holds as such.
struct hwaccel_device_strings {
  std::string id, status, reason_code, reason_detail, memory_kind;
  std::string partition_profile, partition_parent;  // "" for a whole device
};

struct hwaccel_detection {
  hwaccel::Detection detection;
  std::optional<std::string> reserve_env;       // HWACCEL_RESERVE_BYTES of the host detected
  std::vector<hwaccel_device_strings> strings;  // one per entry
};

namespace {

thread_local std::string last_error;

hwaccel_status fail(hwaccel_status status, std::string message) {
  last_error = std::move(message);
  return status;
}

char* copy_string(const std::string& s) {
  char* out = static_cast<char*>(std::malloc(s.size() + 1));
  if (out) std::memcpy(out, s.c_str(), s.size() + 1);
  return out;
}

template <typename F>
hwaccel_status guarded(F f) {
  try {
    last_error.clear();
    return f();
  } catch (const std::exception& e) {
    return fail(HWACCEL_ERROR_INTERNAL, std::string("internal error: ") + e.what());
  } catch (...) {
    return fail(HWACCEL_ERROR_INTERNAL, "internal error");
  }
}

hwaccel_status detect_on(hwaccel::Host& host, hwaccel_detection** out) {
  auto d = std::make_unique<hwaccel_detection>();
  d->detection = hwaccel::detect(host);
  d->reserve_env = host.env(hwaccel::kReserveEnv);
  for (const auto& e : d->detection.entries) {
    hwaccel_device_strings s;
    s.id = hwaccel::entry_label(e);
    s.status = e.status == hwaccel::EntryStatus::ready ? "ready" : "unavailable";
    if (e.reason) {
      s.reason_code = std::string(hwaccel::to_string(e.reason->code));
      s.reason_detail = e.reason->detail;
    }
    s.memory_kind = std::string(hwaccel::to_string(e.memory.kind));
    if (e.partition) {
      s.partition_profile = e.partition->profile;
      s.partition_parent = e.partition->parent_physical_id;  // the parent's id when listed
      for (const auto& parent : d->detection.entries)
        if (!parent.partition && parent.backend == e.backend &&
            parent.physical_id == e.partition->parent_physical_id)
          s.partition_parent = hwaccel::entry_label(parent);
    }
    d->strings.push_back(std::move(s));
  }
  *out = d.release();
  return HWACCEL_OK;
}

}  // namespace

extern "C" {

const char* hwaccel_version(void) {
  return HWACCEL_VERSION;
}

const char* hwaccel_status_name(hwaccel_status status) {
  switch (status) {
    case HWACCEL_OK:
      return "ok";
    case HWACCEL_ERROR_INVALID_ARGUMENT:
      return "invalid-argument";
    case HWACCEL_ERROR_BAD_INPUT:
      return "bad-input";
    case HWACCEL_ERROR_NOT_COMPILED:
      return "not-compiled";
    case HWACCEL_ERROR_NOT_READY:
      return "not-ready";
    case HWACCEL_ERROR_UNSATISFIED:
      return "unsatisfied";
    case HWACCEL_ERROR_INTERNAL:
      return "internal";
  }
  return "unknown";
}

const char* hwaccel_last_error(void) {
  return last_error.c_str();
}

hwaccel_status hwaccel_detect(hwaccel_detection** out) {
  return guarded([&] {
    if (!out) return fail(HWACCEL_ERROR_INVALID_ARGUMENT, "hwaccel_detect: out is NULL");
    *out = nullptr;
    hwaccel::LiveHost host;
    return detect_on(host, out);
  });
}

hwaccel_status hwaccel_detect_snapshot(const char* path, hwaccel_detection** out) {
  return guarded([&] {
    if (!out) return fail(HWACCEL_ERROR_INVALID_ARGUMENT, "hwaccel_detect_snapshot: out is NULL");
    *out = nullptr;
    if (!path) return fail(HWACCEL_ERROR_INVALID_ARGUMENT, "hwaccel_detect_snapshot: path is NULL");
    auto loaded = hwaccel::load_snapshot_file(path);
    if (loaded.error) return fail(HWACCEL_ERROR_BAD_INPUT, loaded.error->to_string());
    hwaccel::SnapshotHost host(std::move(*loaded.snapshot));
    return detect_on(host, out);
  });
}

void hwaccel_detection_free(hwaccel_detection* detection) {
  delete detection;
}

size_t hwaccel_device_count(const hwaccel_detection* d) {
  return d ? d->detection.entries.size() : 0;
}

int hwaccel_has_accelerator(const hwaccel_detection* d) {
  return d && hwaccel::has_ready_accelerator(d->detection) ? 1 : 0;
}

uint64_t hwaccel_accelerator_memory_bytes(const hwaccel_detection* d) {
  return d ? hwaccel::accelerator_memory_bytes(d->detection) : 0;
}

// Device accessors: NULL for a NULL detection or an index out of range.
#define HWACCEL_DEVICE_FIELD(function, expr)                            \
  const char* function(const hwaccel_detection* d, size_t i) {          \
    if (!d || i >= d->detection.entries.size()) return nullptr;         \
    [[maybe_unused]] const hwaccel::Entry& e = d->detection.entries[i]; \
    [[maybe_unused]] const hwaccel_device_strings& s = d->strings[i];   \
    return (expr).c_str();                                              \
  }
HWACCEL_DEVICE_FIELD(hwaccel_device_id, s.id)
HWACCEL_DEVICE_FIELD(hwaccel_device_backend, e.backend)
HWACCEL_DEVICE_FIELD(hwaccel_device_status, s.status)
HWACCEL_DEVICE_FIELD(hwaccel_device_reason_code, s.reason_code)
HWACCEL_DEVICE_FIELD(hwaccel_device_reason_detail, s.reason_detail)
HWACCEL_DEVICE_FIELD(hwaccel_device_name, e.name)
HWACCEL_DEVICE_FIELD(hwaccel_device_vendor, e.vendor)
HWACCEL_DEVICE_FIELD(hwaccel_device_memory_kind, s.memory_kind)
HWACCEL_DEVICE_FIELD(hwaccel_device_bus_id, e.pci_bus_id)
HWACCEL_DEVICE_FIELD(hwaccel_device_physical_id, e.physical_id)
HWACCEL_DEVICE_FIELD(hwaccel_device_compute_class, e.compute_class)
HWACCEL_DEVICE_FIELD(hwaccel_device_uuid, e.uuid)
HWACCEL_DEVICE_FIELD(hwaccel_device_partition_profile, s.partition_profile)
HWACCEL_DEVICE_FIELD(hwaccel_device_partition_parent, s.partition_parent)
#undef HWACCEL_DEVICE_FIELD

static int memory_out(const hwaccel_detection* d, size_t i, uint64_t* out,
                      std::optional<std::uint64_t> hwaccel::Memory::*field) {
  if (out) *out = 0;
  if (!d || i >= d->detection.entries.size()) return 0;
  const auto& value = d->detection.entries[i].memory.*field;
  if (!value) return 0;
  if (out) *out = *value;
  return 1;
}

int hwaccel_device_memory_total(const hwaccel_detection* d, size_t i, uint64_t* bytes_out) {
  return memory_out(d, i, bytes_out, &hwaccel::Memory::total_bytes);
}

int hwaccel_device_memory_free(const hwaccel_detection* d, size_t i, uint64_t* bytes_out) {
  return memory_out(d, i, bytes_out, &hwaccel::Memory::free_bytes);
}

int hwaccel_device_numa_node(const hwaccel_detection* d, size_t i, int* node_out) {
  if (node_out) *node_out = -1;
  if (!d || i >= d->detection.entries.size() || !d->detection.entries[i].numa_node) return 0;
  if (node_out) *node_out = *d->detection.entries[i].numa_node;
  return 1;
}

int hwaccel_device_ordinal(const hwaccel_detection* d, size_t i, int* ordinal_out) {
  if (ordinal_out) *ordinal_out = -1;
  if (!d || i >= d->detection.entries.size() || !d->detection.entries[i].ordinal) return 0;
  if (ordinal_out) *ordinal_out = *d->detection.entries[i].ordinal;
  return 1;
}

static hwaccel_status select_entry(const hwaccel_detection* d, const char* request,
                                   const char* function, size_t* entry_out) {
  auto parsed = hwaccel::parse_request_text(request ? request : "");
  if (!parsed.request) return fail(HWACCEL_ERROR_INVALID_ARGUMENT, parsed.error);
  auto reserve = hwaccel::choose_reserve(std::nullopt, d->reserve_env);
  if (!reserve.reserve) return fail(HWACCEL_ERROR_INVALID_ARGUMENT, reserve.error);
  hwaccel::Detection detection = d->detection;
  hwaccel::apply_reserve(detection, *reserve.reserve);
  auto r = hwaccel::resolve_request(detection, *parsed.request, hwaccel::backend_names());
  switch (r.outcome) {
    case hwaccel::RequestOutcome::selected:
      *entry_out = *r.entry;
      return HWACCEL_OK;
    case hwaccel::RequestOutcome::bad_request:
      return fail(HWACCEL_ERROR_INVALID_ARGUMENT, r.message);
    case hwaccel::RequestOutcome::not_compiled:
      return fail(HWACCEL_ERROR_NOT_COMPILED, r.message);
    case hwaccel::RequestOutcome::not_ready:
      return fail(HWACCEL_ERROR_NOT_READY, r.message);
    case hwaccel::RequestOutcome::unsatisfiable:
      return fail(HWACCEL_ERROR_UNSATISFIED, r.message);
  }
  return fail(HWACCEL_ERROR_INTERNAL, std::string(function) + ": unknown outcome");
}

hwaccel_status hwaccel_select(const hwaccel_detection* d, const char* request, char** device_out) {
  return guarded([&] {
    if (!d || !device_out)
      return fail(HWACCEL_ERROR_INVALID_ARGUMENT, "hwaccel_select: detection or out is NULL");
    *device_out = nullptr;
    size_t entry = 0;
    if (auto status = select_entry(d, request, "hwaccel_select", &entry); status != HWACCEL_OK)
      return status;
    *device_out = copy_string(hwaccel::entry_label(d->detection.entries[entry]));
    return *device_out ? HWACCEL_OK : fail(HWACCEL_ERROR_INTERNAL, "out of memory");
  });
}

hwaccel_status hwaccel_select_index(const hwaccel_detection* d, const char* request,
                                    size_t* index_out) {
  return guarded([&] {
    if (!d || !index_out)
      return fail(HWACCEL_ERROR_INVALID_ARGUMENT, "hwaccel_select_index: detection or out is NULL");
    return select_entry(d, request, "hwaccel_select_index", index_out);
  });
}

hwaccel_status hwaccel_json(const hwaccel_detection* d, char** json_out) {
  return guarded([&] {
    if (!d || !json_out)
      return fail(HWACCEL_ERROR_INVALID_ARGUMENT, "hwaccel_json: detection or out is NULL");
    *json_out = copy_string(hwaccel::render_detect_json(d->detection));
    return *json_out ? HWACCEL_OK : fail(HWACCEL_ERROR_INTERNAL, "out of memory");
  });
}

void hwaccel_string_free(char* string) {
  std::free(string);
}

}  // extern "C"
