#include "sim/golden.h"

#include "src/host/snapshot_host.h"
#include "src/registry/detection.h"
#include "src/registry/reserve.h"
#include "src/registry/selection.h"
#include "src/report/detect_json.h"
#include "src/report/detect_text.h"
#include "src/report/devices_report.h"

namespace hwaccel::sim {

GoldenRender render_goldens(const Snapshot& snapshot, const std::string& source) {
  GoldenRender out;
  SnapshotHost host(snapshot);
  Detection d = detect(host);
  out.misses = host.misses();
  out.files.emplace_back("detect.txt", render_detect_text(d));
  out.files.emplace_back("detect.json", render_detect_json(d));
  auto reserve = choose_reserve(std::nullopt, host.env(kReserveEnv));
  if (!reserve.reserve) {
    out.error = reserve.error;
    return out;
  }
  apply_reserve(d, *reserve.reserve);
  Selection s = select_default(d);
  Choice choice{s.entry, s.reason, source};
  out.files.emplace_back("devices.txt", render_devices_text(d, *reserve.reserve, choice));
  out.files.emplace_back("devices.json", render_devices_json(d, *reserve.reserve, choice));
  return out;
}

}  // namespace hwaccel::sim
