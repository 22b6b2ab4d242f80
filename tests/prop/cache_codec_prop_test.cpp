// The detection cache's codec (src/registry/cache_codec.h) on generated hosts:
// a cached detection reports what the live one did, and a cache with any one
// value broken is refused with its place, never a throw.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "sim/generators.h"
#include "sim/synth.h"
#include "src/host/snapshot_host.h"
#include "src/registry/cache_codec.h"
#include "src/report/detect_json.h"

namespace hwaccel {
namespace {

Detection detect_spec(const sim::HostSpec& spec) {
  SnapshotHost host(sim::synthesize(spec));
  return detect(host);
}

RC_GTEST_PROP(CacheCodecProps, ACachedDetectionReportsWhatTheLiveOneDid, ()) {
  const Detection live = detect_spec(*sim::gen::host_spec());
  auto cached = decode_detection(encode_detection(live));
  RC_ASSERT(cached.detection.has_value());
  RC_ASSERT(render_detect_json(*cached.detection) == render_detect_json(live));
}

RC_GTEST_PROP(CacheCodecProps, OneBrokenValueIsRefusedWithItsPlaceOrHarmless, ()) {
  const nlohmann::json doc = encode_detection(detect_spec(*sim::gen::host_spec()));
  const nlohmann::json leaves = doc.flatten();
  RC_PRE(!leaves.empty());
  const auto at = *rc::gen::inRange<std::size_t>(0, leaves.size());
  const std::string pointer = std::next(leaves.items().begin(), long(at)).key();
  const int kind = *rc::gen::inRange(0, 7);
  const nlohmann::json value = kind == 0   ? nlohmann::json("x")
                               : kind == 1 ? nlohmann::json(-1)
                               : kind == 2 ? nlohmann::json(1e300)
                               : kind == 3 ? nlohmann::json(true)
                               : kind == 4 ? nlohmann::json(nullptr)
                               : kind == 5 ? nlohmann::json::object()
                                           : nlohmann::json::array();
  nlohmann::json broken = doc;
  broken[nlohmann::json::json_pointer(pointer)] = value;
  auto got = decode_detection(broken);
  RC_ASSERT(got.detection.has_value() != !got.error.empty());
  if (!got.detection) RC_ASSERT(got.error.rfind("detection", 0) == 0u);
}

}  // namespace
}  // namespace hwaccel
