#include "src/host/redaction_text.h"

#include <cstdio>

#include "src/host/redaction_names.h"
#include "src/host/redaction_scan.h"

namespace hwaccel::redaction {

TextRedactor::TextRedactor(std::string hostname, const std::set<std::string>& user_names)
    : hostname_(std::move(hostname)) {
  if (!hostname_.empty()) fake_hostname_ = names_.hostname(hostname_);
  for (char c : hostname_) hostname_lower_ += lower_char(c);
  if (auto dot = hostname_lower_.find('.'); dot != std::string::npos && dot >= 4)
    short_hostname_ = hostname_lower_.substr(0, dot);
  for (const auto& u : user_names)
    if (!is_safe_user_name(u)) users_.insert(u);
}

std::string TextRedactor::user(const std::string& name) {
  if (is_safe_user_name(name)) return name;
  return names_.user(name);
}

// One identifier shape at `i`: its length (0: none here) and what replaces it
// (the same text when it is kept).
std::size_t TextRedactor::shape_at(std::string_view in, std::size_t i, std::string& out) {
  if (uuid_at(in, i)) {
    std::string hex = hex_digits(in.substr(i, 36));
    out = is_kept_uuid(hex) ? std::string(in.substr(i, 36))
                            : uuid_pseudonym(names_.uuid(hex), in[i + 8]);
    return 36;
  }
  if (i > 0 && is_alnum(in[i - 1])) return 0;
  // MACs (aa:bb:.., AA-BB-..), 20-byte IPoIB addresses, EUI-64s.
  for (char sep : {':', '-'}) {
    Run r = hex_groups(in, i, 2, sep);
    if (r.groups < 6) continue;
    std::string_view v = in.substr(i, r.end - i);
    std::string hex = hex_digits(v);
    if (r.groups == 20) {
      if (is_kept_hex(hex.substr(24))) {
        out = std::string(v);
      } else {
        char buf[16];
        std::snprintf(buf, sizeof buf, "%04x", names_.ipoib(hex) & 0xffff);
        std::string fake = std::string("00000000fe80000000000000020000000000") + buf;
        out.clear();
        for (std::size_t k = 0; k < fake.size(); k += 2) {
          if (k) out += sep;
          out += fake.substr(k, 2);
        }
      }
    } else if (is_kept_hex(hex)) {
      out = std::string(v);
    } else if (r.groups == 6) {
      out = mac_pseudonym(names_.mac(hex), sep);
    } else {
      out = names_.identifier(std::string(v));
    }
    return r.end - i;
  }
  // InfiniBand GUIDs (0c42:a103:00d5:b0e4) and GIDs (two of them).
  Run g = hex_groups(in, i, 4, ':');
  if (g.groups == 4 || g.groups == 8) {
    std::string hex = hex_digits(in.substr(i, g.end - i));
    out.clear();
    for (std::size_t half = 0; half < hex.size(); half += 16) {
      std::string part = hex.substr(half, 16);
      if (half) out += ':';
      bool keep = is_kept_hex(part) || part == "fe80000000000000";
      out += colon_groups(keep ? part : guid_digits(names_.guid(part)), 4);
    }
    return g.end - i;
  }
  // 0x0002c903000a1b2c: a GUID as ibstat prints it.
  if (in[i] == '0' && i + 18 <= in.size() && (in[i + 1] == 'x' || in[i + 1] == 'X')) {
    std::size_t k = i + 2;
    while (k < i + 18 && is_hex(in[k])) ++k;
    if (k == i + 18 && (k == in.size() || !is_alnum(in[k])) && !uuid_at(in, k - 8)) {
      std::string hex = hex_digits(in.substr(i + 2, 16));
      out = is_kept_hex(hex) ? std::string(in.substr(i, 18))
                             : std::string(in.substr(i, 2)) + guid_digits(names_.guid(hex));
      return 18;
    }
  }
  // A word of hex digits: 32 is a UUID without dashes (vulkaninfo, machine-id),
  // longer a container id or hash, 12 with a letter and a digit a bare MAC
  // (twelve decimal digits are a size: 206158430208 bytes of VRAM).
  std::size_t end = i;
  bool letter = false, digit = false;
  while (end < in.size() && is_hex(in[end])) {
    letter = letter || !is_digit(in[end]);
    digit = digit || is_digit(in[end]);
    ++end;
  }
  if (end < in.size() && is_alnum(in[end])) return 0;
  // The last 8 digits begin a UUID (4b2e7c9d10ab-4d1b-...): that match wins.
  if (end - i >= 8 && uuid_at(in, end - 8)) return 0;
  std::size_t len = end - i;
  if (len < 32 && !(len == 12 && letter && digit)) return 0;
  std::string_view v = in.substr(i, len);
  std::string hex = hex_digits(v);
  if (len == 32)
    out = is_kept_uuid(hex) ? std::string(v) : uuid_pseudonym(names_.uuid(hex), 0);
  else if (is_kept_hex(hex))
    out = std::string(v);
  else if (len == 12)
    out = mac_pseudonym(names_.mac(hex), 0);
  else
    out = names_.identifier(std::string(v));
  return len;
}

std::string TextRedactor::shapes(std::string_view in) {
  std::string out, replacement;
  out.reserve(in.size());
  std::size_t copied = 0, i = 0;
  while (i < in.size()) {
    if (!is_hex(in[i])) {
      ++i;
      continue;
    }
    std::size_t len = shape_at(in, i, replacement);
    if (len == 0) {
      ++i;
      continue;
    }
    out.append(in, copied, i - copied);
    out += replacement;
    i += len;
    copied = i;
  }
  out.append(in, copied, std::string_view::npos);
  return out;
}

// Whole-word occurrences of the hostname, in any case, and of its first label
// (a short name such as "gpu" is left alone: replacing it everywhere would
// corrupt ordinary words).
std::string TextRedactor::hostnames(std::string_view in) const {
  if (hostname_.size() < 4) return std::string(in);
  std::string low(in);
  for (char& c : low) c = lower_char(c);
  std::string out;
  // The next match of each name at or after `from` (each is searched for
  // from left to right once: linear however often the names occur).
  constexpr auto npos = std::string::npos;
  std::size_t from = 0, copied = 0;
  std::size_t full = low.find(hostname_lower_);
  std::size_t part = short_hostname_.empty() ? npos : low.find(short_hostname_);
  while (true) {
    if (full != npos && full < from) full = low.find(hostname_lower_, from);
    if (part != npos && part < from) part = low.find(short_hostname_, from);
    std::size_t at = full, size = hostname_lower_.size();
    if (part < at) at = part, size = short_hostname_.size();
    if (at == npos) break;
    bool left_ok = at == 0 || !is_word_char(in[at - 1]);
    bool right_ok = at + size >= in.size() || !is_word_char(in[at + size]);
    if (!left_ok || !right_ok) {
      from = at + 1;
      continue;
    }
    out.append(in, copied, at - copied);
    out += fake_hostname_;
    copied = from = at + size;
  }
  out.append(in, copied, std::string_view::npos);
  return out;
}

bool TextRedactor::is_hostname(std::string_view v) const {
  if (hostname_.empty() || v.size() != hostname_.size()) return false;
  for (std::size_t k = 0; k < v.size(); ++k)
    if (lower_char(v[k]) != hostname_lower_[k]) return false;
  return true;
}

// The classes of redaction_names.h, each a linear pass: cloud-internal names
// before the addresses in names, so that a whole name gets one pseudonym.
std::string TextRedactor::names_by_class(std::string_view in) {
  return macs_by_notation(
      pod_names(dashed_addresses(internal_host_names(in, names_), names_), names_), names_);
}

// "key: value" and "key=value" whose key names an identifier (is_identifier_key),
// in any case and quoting ("serial_number": "X"), and KFD's "unique_id N".
// The value runs to the end of the line or to , ; ) ] } or a quote.
std::string TextRedactor::key_values(std::string_view in) {
  std::string out;
  std::size_t copied = 0, key_start = 0;
  auto replace_value = [&](std::size_t from) {
    std::size_t v = from;
    while (v < in.size() && (in[v] == ' ' || in[v] == '\t')) ++v;
    char quote = 0;
    if (v < in.size() && (in[v] == '"' || in[v] == '\'')) quote = in[v++];
    std::size_t e = v;
    if (quote)
      while (e < in.size() && in[e] != quote && in[e] != '\n') ++e;
    else
      while (e < in.size() && !is_value_end(in[e])) ++e;
    std::size_t end = e;
    while (end > v && (in[end - 1] == ' ' || in[end - 1] == '\t')) --end;
    if (end > v) {
      out.append(in, copied, v - copied);
      out += whole_value(in.substr(v, end - v));
      copied = end;
    }
    return e;
  };
  for (std::size_t i = 0; i < in.size(); ++i) {
    char c = in[i];
    if (c == '\n' || c == ',' || c == ';' || c == '{' || c == '(' || c == '[') {
      key_start = i + 1;
      // KFD topology properties: "unique_id 14034291938114584209".
      if (c == '\n' || i == 0) {
        std::size_t line = c == '\n' ? i + 1 : 0;
        std::string_view rest = in.substr(line);
        if (starts_with(rest, "unique_id") && rest.size() > 9 &&
            (rest[9] == ' ' || rest[9] == '\t')) {
          std::size_t e = replace_value(line + 9);
          key_start = e;
          i = e - 1;
        }
      }
      continue;
    }
    if (i == 0 && starts_with(in, "unique_id") && in.size() > 9 &&
        (in[9] == ' ' || in[9] == '\t')) {
      std::size_t e = replace_value(9);
      key_start = e;
      i = e - 1;
      continue;
    }
    if (c != ':' && c != '=') continue;
    std::string_view key = in.substr(key_start, i - key_start);
    key_start = i + 1;
    if (!is_identifier_key(key)) continue;
    std::size_t e = replace_value(i + 1);
    key_start = e;
    if (e > i + 1) i = e - 1;
  }
  out.append(in, copied, std::string_view::npos);
  return out;
}

// User names as path components: any name under /home and /Users, and the
// names the redactor was given wherever they are a component (/srv/alice,
// /var/lib/jenkins).
std::string TextRedactor::user_paths(std::string_view in) {
  std::string out;
  std::size_t copied = 0, i = 0, previous_end = std::string_view::npos;
  std::string_view previous;
  while ((i = in.find('/', i)) != std::string_view::npos) {
    std::size_t s = i + 1, e = s;
    while (e < in.size() && is_name_char(in[e])) ++e;
    std::string_view component = in.substr(s, e - s);
    bool under_home = previous_end == i && (previous == "home" || previous == "Users");
    bool replace = !component.empty() && !is_safe_user_name(component) &&
                   (under_home || users_.count(component) > 0);
    if (replace) {
      out.append(in, copied, s - copied);
      out += names_.user(std::string(component));
      copied = e;
    }
    previous = component;
    previous_end = e;
    i = e > s ? e : s;
  }
  out.append(in, copied, std::string_view::npos);
  return out;
}

// An IPv4 (when `ipv4`) or IPv6 address at `i`, within the line ending at
// `line_end`: its length and replacement, 0 when none starts here.
std::size_t TextRedactor::address_at(std::string_view in, std::size_t i, std::size_t line_end,
                                     bool ipv4, std::string& out) {
  char before = i > 0 ? in[i - 1] : ' ';
  if (is_alnum(before) || before == '.') return 0;
  if (ipv4 && is_digit(in[i])) {
    if (std::size_t len = ipv4_length(in, i, line_end)) {
      std::string v(in.substr(i, len));
      out = keep_ipv4(v) ? v : names_.ipv4(v);
      return len;
    }
  }
  if (before == ':') return 0;
  // IPv6: the run of hex digits and colons, at most one "::", groups of 1-4
  // digits, three colons or a "::", two groups or more. Not hardware addresses
  // (every group two digits) nor GUIDs and GIDs (4 or 8 groups of four).
  std::size_t end = i;
  while (end < line_end && (is_hex(in[end]) || in[end] == ':')) ++end;
  std::string_view v = in.substr(i, end - i);
  if (v.size() >= 2 && v.back() == ':' && v[v.size() - 2] != ':') v.remove_suffix(1);
  end = i + v.size();
  std::size_t colons = 0, groups = 0, doubles = 0, width = 0;
  bool all_two = true, all_four = true, valid = true;
  for (std::size_t k = 0; k <= v.size(); ++k) {
    if (k < v.size() && v[k] != ':') {
      ++width;
      continue;
    }
    if (width) {
      ++groups;
      all_two = all_two && width == 2;
      all_four = all_four && width == 4;
      valid = valid && width <= 4;
    }
    if (k < v.size()) {
      ++colons;
      if (k + 1 < v.size() && v[k + 1] == ':') ++doubles;
    }
    width = 0;
  }
  if (!valid || doubles > 1 || groups < 2 || groups > 8 || (colons < 3 && doubles == 0) ||
      all_two || (all_four && doubles == 0 && (groups == 4 || groups == 8)))
    return 0;
  if (end < line_end && in[end] == '.' && end + 1 < line_end && is_digit(in[end + 1])) {
    while (end < line_end && (is_digit(in[end]) || in[end] == '.')) ++end;  // ::ffff:10.1.2.3
  } else if (end < line_end && is_alnum(in[end])) {
    return 0;
  }
  std::string lower;
  for (char c : in.substr(i, end - i)) lower += lower_char(c);
  out = starts_with(lower, "2001:db8:") || is_kept_hex(hex_digits(lower)) ? lower
                                                                          : names_.ipv6(lower);
  if (out == lower) out = std::string(in.substr(i, end - i));
  return end - i;
}

std::string TextRedactor::addresses(std::string_view in, Addresses where) {
  std::string out, replacement;
  out.reserve(in.size());
  std::size_t copied = 0, start = 0;
  while (start < in.size()) {
    std::size_t line_end = in.find('\n', start);
    if (line_end == std::string_view::npos) line_end = in.size();
    std::string_view line = in.substr(start, line_end - start);
    // Whether dotted quads on this line are addresses, decided when one is seen.
    int ipv4 = where == Addresses::everywhere ? 1 : where == Addresses::not_dotted_quads ? 0 : -1;
    std::size_t i = start;
    while (i < line_end) {
      if (!is_hex(in[i]) && in[i] != ':') {
        ++i;
        continue;
      }
      if (ipv4 < 0 && is_digit(in[i]) && ipv4_length(in, i, line_end))
        ipv4 = any_word(line, is_address_word) || !any_word(line, is_version_word);
      std::size_t len = address_at(in, i, line_end, ipv4 > 0, replacement);
      if (len == 0) {
        // Skip the rest of this run: no address starts inside it.
        while (i < line_end && (is_hex(in[i]) || in[i] == ':' || in[i] == '.')) ++i;
        continue;
      }
      out.append(in, copied, i - copied);
      out += replacement;
      i += len;
      copied = i;
    }
    start = line_end + 1;
  }
  out.append(in, copied, std::string_view::npos);
  return out;
}

std::string TextRedactor::text(std::string_view in, Addresses where) {
  return addresses(
      user_words(user_paths(names_by_class(key_values(hostnames(shapes(in))))), users_, names_),
      where);
}

std::string TextRedactor::path(std::string_view in) {
  return user_paths(shapes(in));
}

std::string TextRedactor::whole_value(std::string_view v) {
  if (v.size() < 4 || is_shared_value(v) || is_pseudonym_label(v)) return std::string(v);
  if (is_hostname(v)) return fake_hostname_;
  std::string_view core = v;
  for (std::string_view prefix : {"GPU-", "MIG-", "0x", "0X"})
    if (starts_with(core, prefix)) core.remove_prefix(prefix.size());
  if (core.size() < 4) return std::string(v);  // GPU-0: an index, not an identifier
  std::string prefix(v.substr(0, v.size() - core.size()));
  if (core.size() == 36 && uuid_at(core, 0)) {
    std::string hex = hex_digits(core);
    return is_kept_uuid(hex) ? std::string(v) : prefix + uuid_pseudonym(names_.uuid(hex), core[8]);
  }
  if (ipv4_length(core, 0, core.size()) == core.size())
    return keep_ipv4(core) ? std::string(v) : names_.ipv4(std::string(core));
  bool hexish = core.size() >= 4;
  for (char c : core) hexish = hexish && (is_hex(c) || c == ':' || c == '-' || c == '_');
  if (hexish) {
    std::string hex = hex_digits(core);
    if (hex.size() == 32 && core.size() == 32)
      return is_kept_uuid(hex) ? std::string(v) : prefix + uuid_pseudonym(names_.uuid(hex), 0);
    if (hex.size() >= 4 && is_kept_hex(hex)) return std::string(v);
  }
  return names_.identifier(std::string(v));
}

}  // namespace hwaccel::redaction
