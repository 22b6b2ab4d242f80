#include "src/host/redaction_scan.h"

#include <cstdio>
#include <set>

#include "src/host/redaction_text.h"

namespace hwaccel::redaction {

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!is_digit(c)) return false;
  return true;
}
bool is_digit_run(std::string_view s) {
  return all_digits(s);
}
bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// The hex digits of `v`, lower case: "3C-FD-FE" -> "3cfdfe".
std::string hex_digits(std::string_view v) {
  std::string out;
  out.reserve(v.size());
  for (char c : v)
    if (is_hex(c)) out += lower_char(c);
  return out;
}

// What is kept: hex identifiers whose leading half is zeros (no identity left
// in them: AMD's PCI-address UUIDs, placeholder serials, and every shaped
// pseudonym below), all-f, and our own ranges (02:00:00:00:... MACs and
// 0200:0000:0000:... GUIDs, 00000000-0000-4000-8000-... UUIDs).
bool is_kept_hex(std::string_view hex) {
  if (hex.empty()) return true;
  if (hex.find_first_not_of('f') == std::string_view::npos) return true;
  if (hex.size() >= 4 &&
      hex.substr(0, (hex.size() + 1) / 2).find_first_not_of('0') == std::string_view::npos)
    return true;
  return starts_with(hex, "02000000") || starts_with(hex, "00000000000040008000");
}

// A UUID is kept only when it is one of ours: any other, even all zeros or a
// fixture's placeholder, counts as an identifier (as it always did).
bool is_kept_uuid(std::string_view hex32) {
  return starts_with(hex32, "00000000000040008000");
}

std::string uuid_pseudonym(int n, char separator) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "00000000-0000-4000-8000-%012d", n % 1000000000);
  std::string out;
  for (char c : std::string(buf))
    if (c != '-')
      out += c;
    else if (separator)
      out += separator;
  return out;
}
std::string mac_pseudonym(int n, char separator) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "02000000%02x%02x", (n >> 8) & 0xff, n & 0xff);
  std::string out;
  for (int i = 0; i < 12; i += 2) {
    if (i && separator) out += separator;
    out.append(buf + i, 2);
  }
  return out;
}
// 64 bits of an InfiniBand GUID or of a GID's interface half, as 16 hex digits.
std::string guid_digits(int n) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "020000000000%04x", n & 0xffff);
  return buf;
}
std::string colon_groups(const std::string& hex, std::size_t width) {
  std::string out;
  for (std::size_t i = 0; i < hex.size(); i += width) {
    if (i) out += ':';
    out += hex.substr(i, width);
  }
  return out;
}

// Lays the digits of `n` over the digit positions of `shape`, keeping its
// separators: "0c42-a103" -> "0000-0001". Empty when `n` needs more than half
// of the positions (the result would not keep the "leading half zeros" shape).
std::string shaped_number(const std::string& shape, int n, bool decimal) {
  std::size_t digits = 0;
  for (char c : shape) digits += decimal ? is_digit(c) : is_hex(c);
  char buf[32];
  std::snprintf(buf, sizeof buf, decimal ? "%d" : "%x", n);
  std::string number = buf;
  if (number.size() > digits / 2) return "";
  number.insert(0, digits - number.size(), '0');
  std::size_t next = 0;
  std::string out;
  for (char c : shape) out += (decimal ? is_digit(c) : is_hex(c)) ? number[next++] : c;
  return out;
}

// Values printed by every machine of a kind: keeping them loses no privacy and
// keeps what is derived from them (the cloud a VM runs in) intact on replay.
bool is_shared_value(std::string_view v) {
  static const std::set<std::string, std::less<>> values = {
      "None",
      "Not Specified",
      "Not Applicable",
      "Not Available",
      "Default string",
      "To be filled by O.E.M.",
      "To Be Filled By O.E.M.",
      "System Serial Number",
      "Chassis Serial Number",
      "0123456789",
      "Amazon EC2",
      "OracleCloud.com",
      "7783-7084-3265-9085-8269-3286-77",  // every Azure VM's chassis asset tag
      "No Asset Tag",
      "Chassis Asset Tag",
      "Asset Tag",
      "Unknown",
      "[N/A]"};
  return values.count(v) > 0;
}

// Groups of exactly `width` hex digits joined by `sep`, starting at `i`: how
// many, and where the run ends. Zero groups when the run goes on with a group
// of another width (then it is something else: an IPv6 address, a path).
Run hex_groups(std::string_view in, std::size_t i, std::size_t width, char sep) {
  // Not the middle of a run: the text before a separator on the left is not a group.
  if (i > 0 && in[i - 1] == sep && i >= width + 1) {
    bool group = true;
    for (std::size_t k = i - 1 - width; k < i - 1; ++k) group = group && is_hex(in[k]);
    if (group && (i == width + 1 || !is_alnum(in[i - 2 - width]))) return {};
  }
  Run r;
  std::size_t p = i;
  while (p + width <= in.size()) {
    std::size_t k = 0;
    while (k < width && is_hex(in[p + k])) ++k;
    if (k < width || (p + width < in.size() && is_alnum(in[p + width]))) break;
    ++r.groups;
    r.end = p + width;
    if (r.end + 1 < in.size() && in[r.end] == sep && is_alnum(in[r.end + 1]))
      p = r.end + 1;
    else
      break;
  }
  // Stopped in front of a group of another width: not a clean run.
  if (r.groups && r.end + 1 < in.size() && in[r.end] == sep && is_alnum(in[r.end + 1])) return {};
  return r;
}

// 8-4-4-4-12 hex digits, separated all by '-' or all by '_' (systemd's
// kubepods-pod<UID>.slice), at `i`. Nothing is required on the left, so a UUID
// glued to a word ("pod1a2b...") is found.
bool uuid_at(std::string_view in, std::size_t i) {
  if (i + 36 > in.size()) return false;
  char sep = in[i + 8];
  if (sep != '-' && sep != '_') return false;
  for (std::size_t k = 0; k < 36; ++k) {
    bool dash = k == 8 || k == 13 || k == 18 || k == 23;
    if (dash ? in[i + k] != sep : !is_hex(in[i + k])) return false;
  }
  return i + 36 == in.size() || !is_alnum(in[i + 36]);
}

bool is_word_char(char c) {
  return is_alnum(c) || c == '-' || c == '_';
}
bool is_name_char(char c) {
  return is_alnum(c) || c == '.' || c == '_' || c == '-';
}

bool is_address_word(std::string_view w) {
  static const std::set<std::string, std::less<>> words = {
      "ip",      "ipv4",   "ipv6",       "inet",   "inet6",   "addr",      "address", "addresses",
      "gateway", "server", "nameserver", "dns",    "host",    "hosts",     "route",   "via",
      "peer",    "src",    "dst",        "subnet", "netmask", "broadcast", "brd",     "endpoint"};
  return words.count(w) > 0;
}
bool is_version_word(std::string_view w) {
  if (w.find("version") != std::string_view::npos) return true;
  for (std::string_view p : {"ver", "driver", "firmware", "fw", "bios", "vbios", "rev", "release",
                             "build", "kernel", "cuda", "rocm"})
    if (starts_with(w, p)) return true;
  return false;
}

// The key of a "key: value" or "key=value": names an identifier when one of
// its last three words is a serial ("Serial Number", "Board serial",
// "serialNumber", "ID_SERIAL_SHORT"), or it ends in sn, s/n, uuid, guid, udid,
// or names a host, MAC, machine, boot or instance id or asset tag.
bool is_identifier_key(std::string_view key) {
  // The last three words, read backwards from the separator (a key can be a
  // whole line long; only its end matters).
  std::string words[3];
  std::size_t count = 0, p = key.size();
  while (count < 3 && p > 0) {
    while (p > 0 && !is_alnum(key[p - 1])) --p;
    std::size_t end = p;
    while (p > 0 && (is_alnum(key[p - 1]) || (key[p - 1] == '/' && p < end))) --p;
    if (end == p) break;
    std::string& w = words[2 - count++];
    for (char c : key.substr(p, std::min<std::size_t>(end - p, 40))) w += lower_char(c);
  }
  if (count == 0) return false;
  // words[3 - count .. 2] hold them, the last at words[2].
  const std::string& last = words[2];
  const std::string before = count >= 2 ? words[1] : "";
  for (std::size_t k = 3 - count; k < 3; ++k) {
    const std::string& w = words[k];
    if (w.find("serial") != std::string::npos && w.find_first_of("0123456789") == std::string::npos)
      return true;
  }
  auto ends = [&](std::string_view suffix) {
    return last.size() >= suffix.size() && last.substr(last.size() - suffix.size()) == suffix;
  };
  if (last == "sn" || last == "s/n" || ends("uuid") || ends("guid") || ends("udid")) return true;
  if (last == "hostname" || last == "macaddress" || last == "machineid" || last == "instanceid")
    return true;
  if ((before == "host" && last == "name") || (before == "mac" && last == "address") ||
      (before == "machine" && last == "id") || (before == "boot" && last == "id") ||
      (before == "instance" && last == "id") || (before == "asset" && last == "tag"))
    return true;
  return false;
}

bool is_value_end(char c) {
  return c == '\n' || c == '\r' || c == ',' || c == ';' || c == ')' || c == ']' || c == '}' ||
         c == '"' || c == '\'';
}

// A dotted quad at `i` (no leading zeros in an octet: "96.00.74.00" is a VBIOS
// version), or 0.
std::size_t ipv4_length(std::string_view in, std::size_t i, std::size_t end) {
  std::size_t p = i;
  for (int octet = 0; octet < 4; ++octet) {
    if (octet) {
      if (p >= end || in[p] != '.') return 0;
      ++p;
    }
    std::size_t start = p;
    int value = 0;
    while (p < end && is_digit(in[p]) && p - start < 4) value = value * 10 + (in[p++] - '0');
    std::size_t len = p - start;
    if (len == 0 || len > 3 || value > 255 || (len > 1 && in[start] == '0')) return 0;
  }
  if (p < end && (is_alnum(in[p]) || (in[p] == '.' && p + 1 < end && is_digit(in[p + 1]))))
    return 0;
  return p - i;
}

bool keep_ipv4(std::string_view ip) {
  for (std::string_view p : {"127.", "255.", "192.0.2.", "198.51.100.", "203.0.113."})
    if (starts_with(ip, p)) return true;
  return ip == "0.0.0.0";
}

bool is_pseudonym_label(std::string_view v) {
  for (std::string_view p : {"REDACTED-SERIAL-", "REDACTED-", "host-", "user-"})
    if (starts_with(v, p) && is_digit_run(v.substr(p.size()))) return true;
  return false;
}

bool is_safe_user_name(std::string_view name) {
  static const std::set<std::string, std::less<>> names = {
      "root",  "home", "Users", "usr",    "bin",     "sbin",      "lib",    "lib32",
      "lib64", "etc",  "var",   "opt",    "srv",     "tmp",       "share",  "local",
      "sys",   "proc", "dev",   "run",    "snap",    "mnt",       "media",  "nix",
      "boot",  "data", "cuda",  "nvidia", "include", "linuxbrew", "nobody", "."};
  return name.size() < 2 || names.count(name) > 0 || name == ".." || is_pseudonym_label(name);
}

std::string Pseudonyms::identifier(const std::string& real) {
  int n = number(ids_, real);
  bool decimal = all_digits(real);
  bool hexish = real.size() >= 8;
  // Colons only: a shaped value with dashes can hold a UUID of zeros that the
  // next pass would take for a real one (found by tests/fuzz/redaction_fuzz.cpp).
  for (char c : real) hexish = hexish && (is_hex(c) || c == ':');
  if (decimal || hexish) {
    std::string shaped = shaped_number(real, n, decimal);
    if (!shaped.empty()) return shaped;
  }
  return "REDACTED-SERIAL-" + std::to_string(n);
}
std::string Pseudonyms::hostname(const std::string& real) {
  return "host-" + std::to_string(number(hosts_, real));
}
std::string Pseudonyms::user(const std::string& real) {
  return "user-" + std::to_string(number(users_, real));
}
std::string Pseudonyms::value(const std::string& real) {
  return "REDACTED-" + std::to_string(number(values_, real));
}
// Documentation ranges (RFC 5737, RFC 3849): never a real host.
std::string Pseudonyms::ipv4(const std::string& real) {
  int n = number(ipv4_, real);
  static const char* const nets[] = {"192.0.2.", "198.51.100.", "203.0.113."};
  return std::string(nets[((n - 1) / 254) % 3]) + std::to_string((n - 1) % 254 + 1);
}
std::string Pseudonyms::ipv6(const std::string& lower_real) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "2001:db8::%x", number(ipv6_, lower_real));
  return buf;
}

}  // namespace hwaccel::redaction
