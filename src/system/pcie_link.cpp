#include "src/system/pcie_link.h"

#include <cerrno>
#include <cmath>
#include <cstdio>

#include "src/vocabulary/text_util.h"

namespace hwaccel {

namespace {

// "16.0" -> 16.0; digits with at most one '.', nothing else.
std::optional<double> parse_decimal(std::string_view text) {
  if (text.empty() || text.size() > 12) return std::nullopt;
  double whole = 0, scale = 0;
  bool dot = false, digits = false;
  for (char c : text) {
    if (c == '.' && !dot) {
      dot = true;
      scale = 1;
    } else if (c >= '0' && c <= '9') {
      digits = true;
      whole = whole * 10 + (c - '0');
      if (dot) scale *= 10;
    } else {
      return std::nullopt;
    }
  }
  if (!digits) return std::nullopt;
  return dot ? whole / scale : whole;
}

double round2(double v) {
  return std::round(v * 100.0) / 100.0;
}

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::string state_text(const PcieLinkState& s) {
  std::string out = s.generation ? "Gen" + std::to_string(*s.generation) : "? GT/s";
  out += s.width ? " x" + std::to_string(*s.width) : " x?";
  return out;
}

}  // namespace

std::optional<double> parse_pcie_link_speed(std::string_view text) {
  text = trim(text);
  auto space = text.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  auto unit = trim(text.substr(space + 1));
  if (unit != "GT/s" && unit != "GT/s PCIe") return std::nullopt;
  auto value = parse_decimal(text.substr(0, space));
  if (!value || *value <= 0 || *value > 1024) return std::nullopt;
  return value;
}

std::optional<int> parse_pcie_link_width(std::string_view text) {
  auto v = parse_u64(trim(text));
  if (!v || *v == 0 || *v > 32) return std::nullopt;
  return int(*v);
}

std::optional<int> pcie_generation(double gt) {
  const double rates[] = {2.5, 5, 8, 16, 32, 64, 128};
  for (int i = 0; i < 7; ++i)
    if (std::fabs(gt - rates[i]) < 0.01) return i + 1;
  return std::nullopt;
}

double pcie_encoding(double gt) {
  if (gt < 8) return 8.0 / 10.0;
  if (gt < 64) return 128.0 / 130.0;
  return 242.0 / 256.0;
}

double pcie_gbytes_per_s(double gt, int width) {
  return round2(gt * width * pcie_encoding(gt) / 8.0);
}

PcieLinkState pcie_link_state(std::optional<std::string_view> speed,
                              std::optional<std::string_view> width) {
  PcieLinkState s;
  if (speed) s.gt_per_s = parse_pcie_link_speed(*speed);
  if (width) s.width = parse_pcie_link_width(*width);
  if (s.gt_per_s) s.generation = pcie_generation(*s.gt_per_s);
  if (s.gt_per_s && s.width) s.gbytes_per_s = pcie_gbytes_per_s(*s.gt_per_s, *s.width);
  return s;
}

std::optional<PcieLink> read_pcie_link(Host& host, const std::string& bus_id,
                                       std::vector<Warning>& warnings) {
  const std::string dir = "/sys/bus/pci/devices/" + bus_id;
  const char* names[] = {"current_link_speed", "current_link_width", "max_link_speed",
                         "max_link_width"};
  std::optional<std::string> texts[4];
  bool any = false;
  for (int i = 0; i < 4; ++i) {
    const std::string path = dir + "/" + names[i];
    auto r = host.read(path);
    if (r) {
      texts[i] = *r;
      any = true;
    } else if (r.error().code != ENOENT) {
      warnings.push_back({"system", path + ": " + r.error().errno_name() + ", link not known"});
    }
  }
  if (!any) return std::nullopt;
  PcieLink link;
  link.source = dir;
  auto view = [](const std::optional<std::string>& t) {
    return t ? std::optional<std::string_view>(*t) : std::nullopt;
  };
  link.current = pcie_link_state(view(texts[0]), view(texts[1]));
  link.max = pcie_link_state(view(texts[2]), view(texts[3]));
  // "Unknown" speed and width 0 are what sysfs says for a link that is down or
  // not reported (VM pass-through); anything else unparsable is worth a word.
  for (int i = 0; i < 4; ++i) {
    if (!texts[i]) continue;
    bool speed = i % 2 == 0;
    bool parsed = speed ? parse_pcie_link_speed(*texts[i]).has_value()
                        : parse_pcie_link_width(*texts[i]).has_value();
    auto t = trim(*texts[i]);
    bool known_blank = speed ? (t.rfind("Unknown", 0) == 0) : (t == "0");
    if (!parsed && !known_blank)
      warnings.push_back({"system", dir + "/" + names[i] + ": unexpected \"" +
                                        printable_line(t, 40) + "\", link not known"});
  }
  return link;
}

std::string pcie_link_text(const PcieLink& link) {
  std::string out = state_text(link.current);
  if (link.current.gbytes_per_s) out += " (" + number_text(*link.current.gbytes_per_s) + " GB/s";
  if (link.below_max()) {
    out += std::string(link.current.gbytes_per_s ? "; " : " (") + "max " + state_text(link.max);
    out += ", " + number_text(*link.max.gbytes_per_s) + " GB/s";
  }
  if (link.current.gbytes_per_s || link.below_max()) out += ")";
  return out;
}

}  // namespace hwaccel
