#include "src/report/devices_report.h"

#include "src/registry/identity.h"
#include "src/registry/selection.h"
#include "src/report/detect_json.h"
#include "src/report/detect_text.h"

namespace hwaccel {
namespace {

using nlohmann::json;

std::string reserve_text(const Reserve& r) {
  return "reserve=" + std::to_string(r.bytes >> 20) + "MiB (" + r.source + ")";
}

json reserve_json(const Reserve& r) {
  return {{"bytes", r.bytes}, {"source", r.source}};
}

json selected_json(const Detection& d, const Choice& c) {
  if (!c.entry)
    return {{"device", nullptr},
            {"physical_id", nullptr},
            {"ordinal", nullptr},
            {"uuid", nullptr},
            {"reason", c.reason}};
  const Entry& e = d.entries[*c.entry];
  return {{"device", entry_label(e)},
          {"physical_id", e.physical_id},
          {"ordinal", e.ordinal ? json(*e.ordinal) : json(nullptr)},
          {"uuid", e.uuid.empty() ? json(nullptr) : json(e.uuid)},
          {"reason", c.reason}};
}

// " ordinal=0 uuid=GPU-...": how the calling process's runtime numbers the
// device, for the backends that have such a numbering (cuda, rocm).
std::string runtime_text(const Entry& e) {
  std::string out;
  if (e.ordinal)
    out += " ordinal=" + std::to_string(*e.ordinal);
  else if (e.backend == "cuda" || e.backend == "rocm")
    out += " ordinal=none";
  if (!e.uuid.empty()) out += " uuid=" + e.uuid;
  return out;
}

}  // namespace

std::string render_devices_text(const Detection& d, const Reserve& reserve, const Choice& choice) {
  std::string out = render_detect_text(d);
  out += "\nselected: ";
  if (choice.entry) {
    const Entry& e = d.entries[*choice.entry];
    out += entry_label(e) + runtime_text(e) + " " + e.name;
  } else {
    out += "none";
  }
  out += " " + reserve_text(reserve) + " (" + choice.reason + ")\n";
  out += "source: " + choice.source + "\n";
  return out;
}

json devices_to_json(const Detection& d, const Reserve& reserve, const Choice& choice) {
  json doc = detect_to_json(d);
  doc["schema"] = kDevicesSchema;
  doc["reserve"] = reserve_json(reserve);
  doc["selected"] = selected_json(d, choice);
  doc["source"] = choice.source;
  doc["physical_devices"] = {{"accelerators", count_physical_accelerators(d.entries, false)},
                             {"ready", count_physical_accelerators(d.entries, true)}};
  return doc;
}

std::string render_devices_json(const Detection& d, const Reserve& reserve, const Choice& choice) {
  return devices_to_json(d, reserve, choice).dump(2, ' ', false, json::error_handler_t::replace) +
         "\n";
}

std::string render_select_text(const Detection& d, const Choice& choice) {
  if (!choice.entry) return "";
  const Entry& e = d.entries[*choice.entry];
  return entry_label(e) + runtime_text(e) + "\n";
}

std::string render_select_json(const Detection& d, const Reserve& reserve, const Choice& choice) {
  json doc = {{"schema", kSelectSchema},
              {"reserve", reserve_json(reserve)},
              {"selected", selected_json(d, choice)}};
  if (choice.entry) {
    json full = detect_to_json(d);
    doc["device"] = full["devices"][*choice.entry];
  } else {
    doc["device"] = nullptr;
  }
  doc["source"] = choice.source;  // required by hwaccel-select/1, as in devices
  return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace hwaccel
