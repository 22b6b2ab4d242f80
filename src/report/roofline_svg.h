// A roofline chart as plain SVG 1.1: the device's memory-bandwidth roof, one
// compute roof per number format it runs natively, and the workload's points,
// on log-log axes (arithmetic intensity in FLOP/byte against TFLOP/s). Pure:
// numbers in, bytes out; the same numbers give the same bytes.
#pragma once

#include <string>
#include <vector>

namespace hwaccel {

struct RooflineRoof {
  std::string format;  // "bf16"
  double flops_s = 0;  // dense peak, FLOP/s
};

struct RooflinePoint {
  std::string label;     // "decode, batch 1"
  double intensity = 0;  // FLOP per byte moved
  double flops_s = 0;    // attained, FLOP/s
};

struct RooflineChart {
  std::string title;              // the device
  std::string subtitle;           // the model and plan
  std::string memory = "memory";  // what the bandwidth roof is ("HBM3")
  double bandwidth_bytes_s = 0;
  std::vector<RooflineRoof> roofs;
  std::vector<RooflinePoint> points;
  std::vector<std::string> notes;  // footnotes: where the numbers come from
};

// The plot area inside the SVG's user space (viewBox "0 0 kWidth kHeight").
struct RooflineFrame {
  double left, top, right, bottom;
};
inline constexpr int kRooflineWidth = 880;
inline constexpr int kRooflineHeight = 600;
RooflineFrame roofline_frame();

// Empty `error` and the document, or why no chart can be drawn (no bandwidth,
// no compute roof, a point that is not a positive finite number).
struct RooflineSvg {
  std::string svg;
  std::string error;
};
RooflineSvg render_roofline_svg(const RooflineChart& chart);

// "3.35 TB/s", "989 TFLOP/s": three significant digits, fixed formatting.
std::string format_rate(double value, const std::string& unit);

}  // namespace hwaccel
