// The roofline SVG: well-formed XML with the SVG 1.1 root attributes, the axes
// and roofs labelled with units, every point inside the plot area, the same
// bytes for the same numbers, and no chart (an error) from numbers that cannot
// be drawn.
#include "src/report/roofline_svg.h"

#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <string>
#include <vector>

namespace hwaccel {
namespace {

// A minimal XML 1.0 well-formedness check, enough for what the writer emits:
// one root element, nested and closed tags, quoted attributes, no bare '<' or
// '&' in text. Returns "" or what is wrong and where.
std::string xml_problem(const std::string& s) {
  std::vector<std::string> open;
  std::size_t i = 0;
  bool seen_root = false;
  auto name_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == ':' ||
           c == '.';
  };
  while (i < s.size()) {
    if (s[i] == '<') {
      if (s.compare(i, 5, "<?xml") == 0) {
        if (i != 0) return "XML declaration not at the start";
        auto end = s.find("?>", i);
        if (end == std::string::npos) return "unclosed declaration";
        i = end + 2;
        continue;
      }
      bool closing = i + 1 < s.size() && s[i + 1] == '/';
      std::size_t j = i + (closing ? 2 : 1);
      std::size_t start = j;
      while (j < s.size() && name_char(s[j])) ++j;
      std::string name = s.substr(start, j - start);
      if (name.empty()) return "tag without a name at " + std::to_string(i);
      if (closing) {
        if (open.empty() || open.back() != name)
          return "</" + name + "> closes nothing at " + std::to_string(i);
        open.pop_back();
        if (j >= s.size() || s[j] != '>') return "bad end tag at " + std::to_string(i);
        i = j + 1;
        continue;
      }
      if (open.empty() && seen_root) return "second root element at " + std::to_string(i);
      // Attributes: name="value" pairs.
      while (true) {
        while (j < s.size() && std::isspace(static_cast<unsigned char>(s[j]))) ++j;
        if (j >= s.size()) return "unclosed tag <" + name;
        if (s[j] == '>' || s.compare(j, 2, "/>") == 0) break;
        std::size_t a = j;
        while (j < s.size() && name_char(s[j])) ++j;
        if (j == a || j >= s.size() || s[j] != '=')
          return "bad attribute in <" + name + " at " + std::to_string(j);
        ++j;
        if (j >= s.size() || s[j] != '"') return "unquoted attribute in <" + name;
        auto end = s.find('"', j + 1);
        if (end == std::string::npos) return "unclosed attribute in <" + name;
        std::string value = s.substr(j + 1, end - j - 1);
        if (value.find('<') != std::string::npos) return "'<' in an attribute of <" + name;
        j = end + 1;
      }
      seen_root = true;
      if (s[j] == '>') {
        open.push_back(name);
        i = j + 1;
      } else {
        i = j + 2;
      }
      continue;
    }
    if (s[i] == '&') {
      static const std::regex entity("&(amp|lt|gt|quot|apos|#[0-9]+);");
      std::smatch m;
      std::string rest = s.substr(i, 8);
      if (!std::regex_search(rest, m, entity) || m.position(0) != 0)
        return "bare '&' at " + std::to_string(i);
    } else if (!open.empty() || std::isspace(static_cast<unsigned char>(s[i]))) {
      // text inside the root, or whitespace around it
    } else {
      return "text outside the root element at " + std::to_string(i);
    }
    ++i;
  }
  if (!open.empty()) return "<" + open.back() + "> is never closed";
  if (!seen_root) return "no root element";
  return "";
}

RooflineChart h100_chart() {
  // An H100 SXM's figures (NVIDIA's datasheet, dense) and points of the kind
  // a 70B plan gives.
  RooflineChart c;
  c.title = "cuda:0 NVIDIA H100 80GB HBM3 (h100-sxm)";
  c.subtitle = "Llama-3-70B, bf16, tensor x8, context 4k";
  c.memory = "HBM3";
  c.bandwidth_bytes_s = 3.35e12;
  c.roofs = {{"fp32", 67e12},
             {"bf16", 989.4e12},
             {"fp16", 989.4e12},
             {"fp8", 1978.9e12},
             {"int8", 1978.9e12}};
  c.points = {{"decode, batch 1", 0.99, 2.1e12},
              {"decode, batch 32", 30.5, 48e12},
              {"prefill, 4k tokens", 3900, 290e12}};
  c.notes = {"Roofs: a note", "Points: another <note> & more"};
  return c;
}

TEST(RooflineSvg, IsWellFormedSvg11WithExplicitSize) {
  auto r = render_roofline_svg(h100_chart());
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(xml_problem(r.svg), "") << r.svg;
  EXPECT_EQ(r.svg.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ", 0), 0u);
  EXPECT_NE(r.svg.find("xmlns=\"http://www.w3.org/2000/svg\""), std::string::npos);
  EXPECT_NE(r.svg.find("version=\"1.1\""), std::string::npos);
  EXPECT_NE(r.svg.find("width=\"880\" height=\"592\" viewBox=\"0 0 880 592\""), std::string::npos)
      << r.svg.substr(0, 300);
  // The note's markup characters are escaped, not markup.
  EXPECT_NE(r.svg.find("another &lt;note&gt; &amp; more"), std::string::npos);
}

TEST(RooflineSvg, TheCheckerCatchesBrokenXml) {
  // The checker above is what the first test relies on: it must fail on these.
  EXPECT_NE(xml_problem("<svg><g></svg>"), "");
  EXPECT_NE(xml_problem("<svg a=1></svg>"), "");
  EXPECT_NE(xml_problem("<svg>a & b</svg>"), "");
  EXPECT_NE(xml_problem("<svg></svg><svg></svg>"), "");
  EXPECT_EQ(xml_problem("<?xml version=\"1.0\"?>\n<svg a=\"1\"><g/>&amp;</svg>\n"), "");
}

TEST(RooflineSvg, AxesAndRoofsAreLabelledWithUnits) {
  auto r = render_roofline_svg(h100_chart());
  for (const char* s : {"arithmetic intensity (FLOP/byte)", "performance (TFLOP/s)",
                        "HBM3 3.35 TB/s", "fp8, int8 1979 TFLOP/s", "bf16, fp16 989 TFLOP/s",
                        "fp32 67.0 TFLOP/s", "decode, batch 1: 0.990 FLOP/B, 2.10 TFLOP/s",
                        "prefill, 4k tokens: 3900 FLOP/B, 290 TFLOP/s",
                        ">cuda:0 NVIDIA H100 80GB HBM3 (h100-sxm)<"})
    EXPECT_NE(r.svg.find(s), std::string::npos) << s;
  // Decade ticks in both units: 0.1 .. 10000 FLOP/byte, TFLOP/s up to 10000.
  for (const char* s : {">0.1</text>", ">1</text>", ">10000</text>", ">1000</text>"})
    EXPECT_NE(r.svg.find(s), std::string::npos) << s;
  // Three distinct compute roofs (equal peaks share one) and the bandwidth roof.
  EXPECT_NE(r.svg.find("id=\"roof-bandwidth\""), std::string::npos);
  EXPECT_NE(r.svg.find("id=\"roof-fp8-int8\""), std::string::npos);
  EXPECT_NE(r.svg.find("id=\"roof-bf16-fp16\""), std::string::npos);
  EXPECT_NE(r.svg.find("id=\"roof-fp32\""), std::string::npos);
}

TEST(RooflineSvg, PointsLieInsideThePlotAreaOnTheirRoofSide) {
  auto chart = h100_chart();
  auto r = render_roofline_svg(chart);
  RooflineFrame f = roofline_frame();
  std::regex circle("<circle cx=\"([0-9.]+)\" cy=\"([0-9.]+)\"");
  std::vector<std::pair<double, double>> at;
  for (auto it = std::sregex_iterator(r.svg.begin(), r.svg.end(), circle);
       it != std::sregex_iterator(); ++it)
    at.push_back({std::stod((*it)[1]), std::stod((*it)[2])});
  ASSERT_EQ(at.size(), chart.points.size());
  for (const auto& [x, y] : at) {
    EXPECT_GT(x, f.left);
    EXPECT_LT(x, f.right);
    EXPECT_GT(y, f.top);
    EXPECT_LT(y, f.bottom);
  }
  // Higher intensity is further right, more FLOP/s higher up (smaller y).
  EXPECT_LT(at[0].first, at[1].first);
  EXPECT_LT(at[1].first, at[2].first);
  EXPECT_GT(at[0].second, at[1].second);
  EXPECT_GT(at[1].second, at[2].second);
}

TEST(RooflineSvg, TheSameNumbersGiveTheSameBytes) {
  auto a = render_roofline_svg(h100_chart()).svg;
  auto b = render_roofline_svg(h100_chart()).svg;
  EXPECT_EQ(a, b);
  auto c = h100_chart();
  c.points[0].flops_s *= 1.5;
  EXPECT_NE(render_roofline_svg(c).svg, a);
}

TEST(RooflineSvg, NumbersThatCannotBeDrawnAreAnError) {
  auto c = h100_chart();
  c.bandwidth_bytes_s = 0;
  EXPECT_NE(render_roofline_svg(c).error.find("bandwidth"), std::string::npos);
  c = h100_chart();
  c.roofs = {{"bf16", 0}};
  EXPECT_NE(render_roofline_svg(c).error.find("compute peak"), std::string::npos);
  c = h100_chart();
  c.points[1].intensity = std::nan("");
  auto r = render_roofline_svg(c);
  EXPECT_NE(r.error.find("decode, batch 32"), std::string::npos) << r.error;
  EXPECT_EQ(r.svg, "");
}

TEST(RooflineSvg, RatesHaveThreeSignificantDigitsAndAPrefix) {
  EXPECT_EQ(format_rate(3.35e12, "B/s"), "3.35 TB/s");
  EXPECT_EQ(format_rate(273e9, "B/s"), "273 GB/s");
  EXPECT_EQ(format_rate(1978.9e12, "FLOP/s"), "1.98 PFLOP/s");
  EXPECT_EQ(format_rate(50e9, "B/s"), "50.0 GB/s");
  EXPECT_EQ(format_rate(12, "B/s"), "12.0 B/s");
}

}  // namespace
}  // namespace hwaccel
