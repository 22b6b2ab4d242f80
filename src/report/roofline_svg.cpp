#include "src/report/roofline_svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numbers>

namespace hwaccel {

namespace {

constexpr double kLeft = 90, kTop = 72, kRight = 690, kBottom = 500;
constexpr const char* kFont = "DejaVu Sans, Arial, Helvetica, sans-serif";
// Roof and point colours (colour-blind safe, after Okabe and Ito).
constexpr const char* kRoofColours[] = {"#0072b2", "#e69f00", "#009e73",
                                        "#cc79a7", "#56b4e9", "#d55e00"};
constexpr const char* kPointColours[] = {"#d55e00", "#0072b2", "#009e73", "#cc79a7", "#e69f00"};

// Fixed formatting, never the locale's: the same numbers give the same bytes.
std::string num(double v, int decimals = 1) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  std::string s = buf;
  if (s == "-0.0" || s == "-0") s = s.substr(1);
  return s;
}

// Three significant digits: 989, 33.5, 3.35, 0.335.
std::string sig3(double v) {
  double a = std::fabs(v);
  if (a >= 100) return num(v, 0);
  if (a >= 10) return num(v, 1);
  if (a >= 1) return num(v, 2);
  return num(v, 3);
}

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        // Control characters are not allowed in XML 1.0 text.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n')
          out += ' ';
        else
          out += c;
    }
  }
  return out;
}

bool positive(double v) {
  return std::isfinite(v) && v > 0;
}

// A decade's tick label: 0.01, 0.1, 1, 10, 100 ...
std::string decade_label(int exponent) {
  if (exponent >= 0) return "1" + std::string(std::size_t(exponent), '0');
  return "0." + std::string(std::size_t(-exponent - 1), '0') + "1";
}

struct Scale {
  double x_lo, x_hi, y_lo, y_hi;  // decades (log10) at the frame's edges
  double px(double intensity) const {
    return kLeft + (std::log10(intensity) - x_lo) / (x_hi - x_lo) * (kRight - kLeft);
  }
  double py(double flops) const {
    return kBottom - (std::log10(flops) - y_lo) / (y_hi - y_lo) * (kBottom - kTop);
  }
};

std::string text(double x, double y, const std::string& body, const std::string& attrs = "") {
  return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\"" + (attrs.empty() ? "" : " " + attrs) +
         ">" + escape(body) + "</text>\n";
}

std::string line(double x1, double y1, double x2, double y2, const std::string& attrs) {
  return "<line x1=\"" + num(x1) + "\" y1=\"" + num(y1) + "\" x2=\"" + num(x2) + "\" y2=\"" +
         num(y2) + "\" " + attrs + "/>\n";
}

}  // namespace

RooflineFrame roofline_frame() {
  return {kLeft, kTop, kRight, kBottom};
}

std::string format_rate(double value, const std::string& unit) {
  static const std::pair<double, const char*> prefixes[] = {
      {1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
  for (const auto& [scale, prefix] : prefixes)
    if (std::fabs(value) >= scale) return sig3(value / scale) + " " + prefix + unit;
  return sig3(value) + " " + unit;
}

RooflineSvg render_roofline_svg(const RooflineChart& c) {
  RooflineSvg out;
  if (!positive(c.bandwidth_bytes_s)) {
    out.error = "no memory bandwidth for the device";
    return out;
  }
  std::vector<RooflineRoof> roofs;
  for (const auto& r : c.roofs)
    if (positive(r.flops_s)) roofs.push_back(r);
  if (roofs.empty()) {
    out.error = "no compute peak for the device";
    return out;
  }
  for (const auto& p : c.points)
    if (!positive(p.intensity) || !positive(p.flops_s)) {
      out.error = "point \"" + p.label + "\" has no positive intensity and performance";
      return out;
    }

  // Axis ranges: whole decades around the ridges and the points, at least two.
  double max_peak = 0, min_peak = roofs.front().flops_s;
  double x_min = roofs.front().flops_s / c.bandwidth_bytes_s, x_max = x_min;
  for (const auto& r : roofs) {
    max_peak = std::max(max_peak, r.flops_s);
    min_peak = std::min(min_peak, r.flops_s);
    x_min = std::min(x_min, r.flops_s / c.bandwidth_bytes_s);
    x_max = std::max(x_max, r.flops_s / c.bandwidth_bytes_s);
  }
  double y_min = min_peak;
  for (const auto& p : c.points) {
    x_min = std::min(x_min, p.intensity);
    x_max = std::max(x_max, p.intensity);
    y_min = std::min(y_min, p.flops_s);
  }
  Scale s;
  s.x_lo = std::floor(std::log10(x_min) - 0.3);
  s.x_hi = std::ceil(std::log10(x_max) + 0.3);
  if (s.x_hi - s.x_lo < 2) s.x_hi = s.x_lo + 2;
  s.y_lo = std::floor(std::log10(y_min) - 0.3);
  s.y_hi = std::ceil(std::log10(max_peak) + 0.15);
  if (s.y_hi - s.y_lo < 2) s.y_lo = s.y_hi - 2;

  const double height = 560 + 16.0 * double(c.notes.size());
  std::string svg;
  svg += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" +
         std::to_string(kRooflineWidth) + "\" height=\"" + num(height, 0) + "\" viewBox=\"0 0 " +
         std::to_string(kRooflineWidth) + " " + num(height, 0) + "\" font-family=\"" + kFont +
         "\" font-size=\"12\">\n";
  svg += "<title>" + escape("Roofline: " + c.title) + "</title>\n";
  svg += "<rect x=\"0\" y=\"0\" width=\"" + std::to_string(kRooflineWidth) + "\" height=\"" +
         num(height, 0) + "\" fill=\"#ffffff\"/>\n";
  svg += text(kLeft, 28, c.title, "font-size=\"17\" font-weight=\"bold\"");
  if (!c.subtitle.empty()) svg += text(kLeft, 50, c.subtitle, "font-size=\"13\"");

  // Grid and tick labels, one per decade.
  svg += "<g id=\"grid\" stroke=\"#dddddd\" stroke-width=\"1\">\n";
  for (int k = int(s.x_lo); k <= int(s.x_hi); ++k) {
    double x = s.px(std::pow(10.0, k));
    svg += line(x, kTop, x, kBottom, "");
  }
  for (int k = int(s.y_lo); k <= int(s.y_hi); ++k) {
    double y = s.py(std::pow(10.0, k));
    svg += line(kLeft, y, kRight, y, "");
  }
  svg += "</g>\n<g id=\"ticks\" fill=\"#333333\">\n";
  for (int k = int(s.x_lo); k <= int(s.x_hi); ++k)
    svg += text(s.px(std::pow(10.0, k)), kBottom + 18, decade_label(k), "text-anchor=\"middle\"");
  for (int k = int(s.y_lo); k <= int(s.y_hi); ++k)  // FLOP/s decades, labelled in TFLOP/s
    svg +=
        text(kLeft - 8, s.py(std::pow(10.0, k)) + 4, decade_label(k - 12), "text-anchor=\"end\"");
  svg += "</g>\n";
  svg += "<rect id=\"frame\" x=\"" + num(kLeft) + "\" y=\"" + num(kTop) + "\" width=\"" +
         num(kRight - kLeft) + "\" height=\"" + num(kBottom - kTop) +
         "\" fill=\"none\" stroke=\"#000000\" stroke-width=\"1\"/>\n";
  svg += text((kLeft + kRight) / 2, kBottom + 42, "arithmetic intensity (FLOP/byte)",
              "id=\"x-axis-title\" text-anchor=\"middle\" font-size=\"13\"");
  svg += text(0, 0, "performance (TFLOP/s)",
              "id=\"y-axis-title\" text-anchor=\"middle\" font-size=\"13\" transform=\"translate(" +
                  num(kLeft - 58) + " " + num((kTop + kBottom) / 2) + ") rotate(-90)\"");

  // The bandwidth roof: FLOP/s = bandwidth x intensity, from where it enters
  // the frame up to the highest ridge.
  double bw = c.bandwidth_bytes_s;
  double x_start = std::max(std::pow(10.0, s.x_lo), std::pow(10.0, s.y_lo) / bw);
  double x_ridge = max_peak / bw;
  svg += "<g id=\"roofs\" fill=\"none\" stroke-width=\"2.5\">\n";
  svg += line(s.px(x_start), s.py(bw * x_start), s.px(x_ridge), s.py(max_peak),
              "id=\"roof-bandwidth\" stroke=\"#444444\"");
  // Compute roofs, highest first; formats with the same peak share one.
  std::map<double, std::vector<std::string>, std::greater<double>> by_peak;
  for (const auto& r : roofs) by_peak[r.flops_s].push_back(r.format);
  std::size_t colour = 0;
  struct Label {
    double y;
    std::string body, colour;
  };
  std::vector<Label> labels;
  for (const auto& [peak, formats] : by_peak) {
    std::string names, id;
    for (const auto& f : formats) {
      names += (names.empty() ? "" : ", ") + f;
      id += (id.empty() ? "" : "-") + f;
    }
    const char* col = kRoofColours[colour++ % std::size(kRoofColours)];
    svg += line(s.px(peak / bw), s.py(peak), kRight, s.py(peak),
                "id=\"roof-" + escape(id) + "\" stroke=\"" + col + "\"");
    labels.push_back({s.py(peak), names + " " + sig3(peak / 1e12) + " TFLOP/s", col});
  }
  svg += "</g>\n";
  // Roof labels right of the frame, pushed apart when peaks are close.
  svg += "<g id=\"roof-labels\">\n";
  for (std::size_t i = 0; i < labels.size(); ++i) {
    if (i > 0) labels[i].y = std::max(labels[i].y, labels[i - 1].y + 15);
    svg += text(kRight + 8, labels[i].y + 4, labels[i].body, "fill=\"" + labels[i].colour + "\"");
  }
  // The bandwidth label along its roof, turned to its slope.
  double dx = s.px(x_ridge) - s.px(x_start), dy = s.py(max_peak) - s.py(bw * x_start);
  double angle = std::atan2(dy, dx) * 180.0 / std::numbers::pi;
  double lx = s.px(x_start) + 0.25 * dx, ly = s.py(bw * x_start) + 0.25 * dy;
  svg += text(0, 0, c.memory + " " + format_rate(bw, "B/s"),
              "id=\"bandwidth-label\" fill=\"#444444\" transform=\"translate(" + num(lx) + " " +
                  num(ly - 8) + ") rotate(" + num(angle) + ")\"");
  svg += "</g>\n";

  // The workload's points, labelled beside them (left of them near the edge).
  svg += "<g id=\"points\">\n";
  for (std::size_t i = 0; i < c.points.size(); ++i) {
    const auto& p = c.points[i];
    const char* col = kPointColours[i % std::size(kPointColours)];
    double x = s.px(p.intensity), y = s.py(p.flops_s);
    svg += "<circle cx=\"" + num(x) + "\" cy=\"" + num(y) + "\" r=\"6\" fill=\"" + col +
           "\" stroke=\"#000000\" stroke-width=\"1\"/>\n";
    std::string body =
        p.label + ": " + sig3(p.intensity) + " FLOP/B, " + sig3(p.flops_s / 1e12) + " TFLOP/s";
    bool left = x > (kLeft + kRight) / 2;
    svg += text(left ? x - 10 : x + 10, y - 10 - 14.0 * double(i % 2), body,
                std::string("fill=\"") + col + "\"" + (left ? " text-anchor=\"end\"" : ""));
  }
  svg += "</g>\n";

  svg += "<g id=\"notes\" fill=\"#555555\" font-size=\"11\">\n";
  for (std::size_t i = 0; i < c.notes.size(); ++i)
    svg += text(kLeft, 562 + 16.0 * double(i), c.notes[i]);
  svg += "</g>\n</svg>\n";
  out.svg = std::move(svg);
  return out;
}

}  // namespace hwaccel
