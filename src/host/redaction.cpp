#include "src/host/redaction.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <functional>
#include <map>
#include <regex>
#include <set>

namespace hwaccel {
namespace {

// Files whose whole content is one identifier, by name. DMI names only count
// under the DMI folders; the others anywhere (NVMe and SCSI serials and WWIDs,
// amdgpu unique_id, InfiniBand GUIDs, systemd and D-Bus machine ids).
const std::set<std::string>& dmi_identifier_names() {
  static const std::set<std::string> names = {"product_serial",  "product_uuid",
                                              "board_serial",    "chassis_serial",
                                              "board_asset_tag", "chassis_asset_tag"};
  return names;
}
const std::set<std::string>& identifier_file_names() {
  static const std::set<std::string> names = {
      "serial",    "serial_number", "unique_id", "wwid", "node_guid", "sys_image_guid",
      "port_guid", "machine-id",    "boot_id",   "uuid", "eui",       "nguid"};
  return names;
}

// Values printed by every machine of a kind: keeping them loses no privacy and
// keeps what is derived from them (the cloud a VM runs in) intact on replay.
const std::set<std::string>& shared_values() {
  static const std::set<std::string> values = {
      "",
      "0",
      "None",
      "Not Specified",
      "Not Applicable",
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
      "N/A",
      "[N/A]"};
  return values;
}

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool all_of(const std::string& s, int (*pred)(int)) {
  if (s.empty()) return false;
  for (char c : s)
    if (!pred(static_cast<unsigned char>(c))) return false;
  return true;
}

int is_hexish(int c) {
  return std::isxdigit(c) || c == ':' || c == '-' || c == '.';
}

// Lays the digits of `n` over the hex (or decimal) digit positions of `shape`,
// keeping its separators: "0c42:a103:00d5:b0e4" -> "0000:0000:0000:0001".
std::string shaped_number(const std::string& shape, int n, bool decimal) {
  std::size_t digits = 0;
  for (char c : shape)
    if (std::isxdigit(static_cast<unsigned char>(c))) ++digits;
  char buf[32];
  std::snprintf(buf, sizeof buf, decimal ? "%d" : "%x", n);
  std::string number = buf;
  if (number.size() < digits) number.insert(0, digits - number.size(), '0');
  std::size_t next = number.size() - digits;
  std::string out;
  for (char c : shape) out += std::isxdigit(static_cast<unsigned char>(c)) ? number[next++] : c;
  return out;
}

class Pseudonyms {
 public:
  // Keyed by the lower-case hex alone, so GPU-x, MIG-x and a bare x (Vulkan's
  // deviceUUID) of one device keep matching.
  std::string uuid(const std::string& hex) {
    return assign(uuids_, lower(hex), [](int n) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "00000000-0000-4000-8000-%012d", n);
      return std::string(buf);
    });
  }
  std::string mac(const std::string& real) {
    return assign(macs_, lower(real), [](int n) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "02:00:00:00:%02x:%02x", (n >> 8) & 0xff, n & 0xff);
      return std::string(buf);
    });
  }
  // A whole-value identifier: digits stay digits, hex stays hex, anything else
  // becomes a label.
  std::string identifier(const std::string& real) {
    return assign(ids_, real, [&](int n) {
      if (all_of(real, [](int c) { return int(std::isdigit(c)); }))
        return shaped_number(real, n, true);
      if (real.size() >= 8 && all_of(real, is_hexish)) return shaped_number(real, n, false);
      return "REDACTED-SERIAL-" + std::to_string(n);
    });
  }
  // A 20-byte IPoIB hardware address (flags, QPN, GID): keeps its length.
  std::string ipoib(const std::string& real) {
    return assign(ipoibs_, lower(real), [](int n) {
      char buf[80];
      std::snprintf(buf, sizeof buf,
                    "00:00:00:00:fe:80:00:00:00:00:00:00:02:00:00:00:00:00:%02x:%02x",
                    (n >> 8) & 0xff, n & 0xff);
      return std::string(buf);
    });
  }
  // 64 bits of an InfiniBand GUID or of a GID's interface half: "0c42:a103:0012:3456".
  std::string guid(const std::string& real) {
    return assign(guids_, lower(real), [](int n) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "0200:0000:0000:%04x", n & 0xffff);
      return std::string(buf);
    });
  }
  std::string hostname(const std::string& real) {
    return assign(hosts_, real, [](int n) { return "host-" + std::to_string(n); });
  }
  std::string user(const std::string& real) {
    return assign(users_, real, [](int n) { return "user-" + std::to_string(n); });
  }
  // Documentation ranges (RFC 5737, RFC 3849): never a real host.
  std::string ipv4(const std::string& real) {
    return assign(ipv4_, real, [](int n) {
      static const char* const nets[] = {"192.0.2.", "198.51.100.", "203.0.113."};
      return std::string(nets[((n - 1) / 254) % 3]) + std::to_string((n - 1) % 254 + 1);
    });
  }
  std::string ipv6(const std::string& real) {
    return assign(ipv6_, lower(real), [](int n) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "2001:db8::%x", n);
      return std::string(buf);
    });
  }

 private:
  template <typename Make>
  std::string assign(std::map<std::string, std::string>& table, const std::string& real,
                     Make make) {
    auto it = table.find(real);
    if (it != table.end()) return it->second;
    std::string fake = make(int(table.size()) + 1);
    table.emplace(real, fake);
    return fake;
  }
  std::map<std::string, std::string> uuids_, macs_, ids_, hosts_, users_, ipv4_, ipv6_, ipoibs_,
      guids_;
};

std::string replace_all(const std::string& text, const std::regex& pattern,
                        const std::function<std::string(const std::smatch&)>& replace) {
  std::string out;
  auto begin = std::sregex_iterator(text.begin(), text.end(), pattern);
  std::size_t last = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    out.append(text, last, std::size_t(it->position()) - last);
    out += replace(*it);
    last = std::size_t(it->position() + it->length());
  }
  out.append(text, last, std::string::npos);
  return out;
}

// Whole-word occurrences of the hostname (a short name such as "gpu" is left
// alone: replacing it everywhere would corrupt ordinary words).
std::string replace_hostname(const std::string& text, const std::string& real,
                             const std::string& fake) {
  if (real.size() < 4) return text;
  std::string out;
  std::size_t from = 0;
  auto is_word = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
  };
  while (true) {
    auto at = text.find(real, from);
    if (at == std::string::npos) break;
    bool left_ok = at == 0 || !is_word(text[at - 1]);
    bool right_ok = at + real.size() >= text.size() || !is_word(text[at + real.size()]);
    out.append(text, from, at - from);
    out += (left_ok && right_ok) ? fake : real;
    from = at + real.size();
  }
  out.append(text, from, std::string::npos);
  return out;
}

bool octets_valid(const std::string& ip) {
  std::size_t start = 0;
  for (int i = 0; i < 4; ++i) {
    auto end = ip.find('.', start);
    std::string part = ip.substr(start, end == std::string::npos ? end : end - start);
    if (part.empty() || part.size() > 3 || std::stoi(part) > 255) return false;
    start = end + 1;
  }
  return true;
}

// Values this file already handed out (a JSON "uuid" holding a replaced UUID).
bool is_pseudonym(const std::string& v) {
  static const std::regex made(
      R"((GPU-|MIG-)?00000000-0000-4000-8000-[0-9]{12}|host-[0-9]+|user-[0-9]+|REDACTED-SERIAL-[0-9]+)");
  return std::regex_match(v, made);
}

bool keep_ipv4(const std::string& ip) {
  return ip.rfind("127.", 0) == 0 || ip == "0.0.0.0" || ip == "255.255.255.255";
}

class Redactor {
 public:
  explicit Redactor(std::string hostname) : hostname_(std::move(hostname)) {
    if (!hostname_.empty()) fake_hostname_ = names_.hostname(hostname_);
  }

  // Identifiers that look the same wherever they appear.
  std::string text(const std::string& in) {
    static const std::regex uuid(
        R"(\b(GPU-|MIG-)?([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\b)");
    static const std::regex mac(R"(\b([0-9a-fA-F]{2}:){5}[0-9a-fA-F]{2}\b)");
    static const std::regex ipoib(R"(\b([0-9a-fA-F]{2}:){19}[0-9a-fA-F]{2}\b)");
    static const std::regex serial_line(R"(\b((?:Serial Number|Serial|SN)\s*[:=]\s*)([^\s,;]+))");
    // JSON and key=value identifiers in tool output (neuron-ls, hl-smi -q,
    // system_profiler, xpu-smi): "serial_number": "X".
    static const std::regex json_identifier(
        R"xx(("(?:serial|serial_number|serialNumber|spserial_number|sppci_serial|uuid|device_uuid|provisioning_UDID|platform_UUID|instance_id|mac_address|hostname|host_name)"\s*:\s*")([^"]*)("))xx");
    static const std::regex kfd_unique_id(R"((^|\n)(unique_id[ \t]+)([0-9]+))");
    static const std::regex home(R"((/home/|/Users/)([A-Za-z0-9._-]+))");

    std::string out = replace_all(
        in, uuid, [&](const std::smatch& m) { return m[1].str() + names_.uuid(m[2].str()); });
    // Before MACs: the MAC pattern would take the first six bytes of an IPoIB address.
    out = replace_all(out, ipoib, [&](const std::smatch& m) { return names_.ipoib(m.str()); });
    out = replace_all(out, mac, [&](const std::smatch& m) {
      std::string v = m.str();
      // Six bytes inside a longer colon-separated run (an IPoIB address) are not a MAC.
      const std::string before = m.prefix().str(), after = m.suffix().str();
      if ((!before.empty() && before.back() == ':') || (!after.empty() && after.front() == ':'))
        return v;
      if (v == "00:00:00:00:00:00" || lower(v) == "ff:ff:ff:ff:ff:ff") return v;
      return names_.mac(v);
    });
    out = replace_all(out, serial_line,
                      [&](const std::smatch& m) { return m[1].str() + whole_value(m[2].str()); });
    if (!hostname_.empty()) out = replace_hostname(out, hostname_, fake_hostname_);
    out = replace_all(out, json_identifier, [&](const std::smatch& m) {
      return m[1].str() + whole_value(m[2].str()) + m[3].str();
    });
    out = replace_all(out, kfd_unique_id, [&](const std::smatch& m) {
      return m[1].str() + m[2].str() + whole_value(m[3].str());
    });
    out = replace_all(out, home,
                      [&](const std::smatch& m) { return m[1].str() + names_.user(m[2].str()); });
    return out;
  }

  // A path (a file key or a link target): user names and UUIDs in it
  // (/home/alice/..., /dev/disk/by-uuid/...).
  std::string path(const std::string& in) {
    static const std::regex uuid(
        R"([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})");
    static const std::regex home(R"((/home/|/Users/)([A-Za-z0-9._-]+))");
    std::string out =
        replace_all(in, uuid, [&](const std::smatch& m) { return names_.uuid(m.str()); });
    return replace_all(out, home,
                       [&](const std::smatch& m) { return m[1].str() + names_.user(m[2].str()); });
  }

  // Where addresses live, every IPv4 and IPv6 address goes as well.
  std::string text_with_addresses(const std::string& in) { return addresses(text(in)); }

  // Tool output: addresses only on lines that talk about them, because a
  // four-part version number (2.19.64.0) looks like an IPv4 address.
  std::string tool_output(const std::string& in) {
    static const std::regex about_addresses(
        R"(\b(?:[Ii][Pp]|[Ii][Pp][Vv][46]|inet6?|addr|address|Address|gateway|Gateway|server|Server)\b)");
    std::string out = text(in);
    std::string result;
    std::size_t start = 0;
    while (start < out.size()) {
      auto end = out.find('\n', start);
      std::size_t stop = end == std::string::npos ? out.size() : end + 1;
      std::string line = out.substr(start, stop - start);
      result += std::regex_search(line, about_addresses) ? addresses(line) : line;
      start = stop;
    }
    return result;
  }

  // GUIDs and GIDs in /sys/class/infiniband: every 64-bit group but zero and the
  // link-local prefix fe80:0000:0000:0000 (which says what kind of port it is).
  std::string ib_ids(const std::string& in) {
    static const std::regex group(R"(\b[0-9a-fA-F]{4}(:[0-9a-fA-F]{4}){3}\b)");
    return replace_all(in, group, [&](const std::smatch& m) {
      std::string v = m.str();
      if (v == "0000:0000:0000:0000" || v == "fe80:0000:0000:0000") return v;
      return names_.guid(v);
    });
  }

  // A file that is one identifier: the whole value, trailing whitespace kept.
  std::string whole_file(const std::string& in) {
    std::string trimmed = in;
    while (!trimmed.empty() &&
           (trimmed.back() == '\n' || trimmed.back() == ' ' || trimmed.back() == '\0'))
      trimmed.pop_back();
    return whole_value(trimmed) + in.substr(trimmed.size());
  }

  const std::string& fake_hostname() const { return fake_hostname_; }

 private:
  std::string whole_value(const std::string& v) {
    if (shared_values().count(v) || is_pseudonym(v)) return v;
    static const std::regex uuid_only(
        R"(([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}))");
    if (std::regex_match(v, uuid_only)) return names_.uuid(v);
    return names_.identifier(v);
  }

  std::string addresses(const std::string& in) {
    static const std::regex ipv4(R"(\b(?:[0-9]{1,3}\.){3}[0-9]{1,3}\b)");
    // Three or more colons, or a "::": PCI bus ids (0000:01:00.0) and clock
    // times have two.
    static const std::regex ipv6(
        R"((?:[0-9a-fA-F]{1,4}:){3,7}[0-9a-fA-F]{1,4}|(?:[0-9a-fA-F]{1,4}:){1,7}:(?:[0-9a-fA-F]{1,4}(?::[0-9a-fA-F]{1,4}){0,6})?|::(?:[0-9a-fA-F]{1,4}(?::[0-9a-fA-F]{1,4}){0,6}))");
    // Hardware addresses (MAC, IPoIB): every group two hex digits.
    static const std::regex hardware_address(R"(([0-9a-fA-F]{2}:)+[0-9a-fA-F]{2})");
    std::string out = replace_all(in, ipv4, [&](const std::smatch& m) {
      std::string v = m.str();
      if (!octets_valid(v) || keep_ipv4(v)) return v;
      return names_.ipv4(v);
    });
    return replace_all(out, ipv6, [&](const std::smatch& m) {
      std::string v = m.str();
      if (v == "::" || v == "::1" || std::regex_match(v, hardware_address)) return v;
      if (v.rfind("2001:db8::", 0) == 0) return v;  // already a pseudonym
      return names_.ipv6(v);
    });
  }

  Pseudonyms names_;
  std::string hostname_;
  std::string fake_hostname_;
};

std::string base_name(const std::string& path) {
  return path.substr(path.rfind('/') + 1);
}
std::string dir_name(const std::string& path) {
  return path.substr(0, path.rfind('/'));
}

bool is_identifier_file(const std::string& path) {
  std::string dir = dir_name(path), name = base_name(path);
  bool in_dmi = dir == "/sys/class/dmi/id" || dir == "/sys/devices/virtual/dmi/id";
  if (in_dmi && dmi_identifier_names().count(name)) return true;
  if (base_name(dir) == "gids") return true;  // InfiniBand port GIDs
  return identifier_file_names().count(name) > 0;
}

// node_guid, sys_image_guid and ports/N/gids/M of an RDMA device.
bool is_ib_identifier(const std::string& path) {
  if (path.rfind("/sys/class/infiniband/", 0) != 0) return false;
  std::string name = base_name(path);
  return name == "node_guid" || name == "sys_image_guid" ||
         path.find("/gids/") != std::string::npos;
}

bool holds_addresses(const std::string& path) {
  for (const char* prefix : {"/etc/", "/proc/net/", "/sys/class/net/", "/run/", "/var/"})
    if (path.rfind(prefix, 0) == 0) return true;
  return false;
}

}  // namespace

void redact(Snapshot& s) {
  Redactor r(s.facts.hostname);
  // `detect --record` labels the snapshot with the hostname: as a whole value it
  // is replaced whatever its length (text() leaves short names such as "vm"
  // alone, since they would also match ordinary words).
  if (!s.facts.hostname.empty() && s.host.label == s.facts.hostname)
    s.host.label = r.fake_hostname();
  else
    s.host.label = r.text(s.host.label);
  if (!s.facts.hostname.empty()) s.facts.hostname = r.fake_hostname();
  std::map<std::string, FileEntry> files;
  for (auto& [original_path, original_entry] : s.files) {
    const std::string& path = original_path;
    FileEntry& entry = files[r.path(original_path)] = std::move(original_entry);
    if (entry.kind == FileEntry::Kind::link) entry.target = r.path(entry.target);
    if (entry.kind == FileEntry::Kind::dir) {
      for (auto& name : entry.names) name = base_name(r.path(path + "/" + name));
      std::sort(entry.names.begin(), entry.names.end());
    }
    if (entry.kind != FileEntry::Kind::content) continue;
    if (is_ib_identifier(path))
      entry.bytes = r.ib_ids(entry.bytes);
    else if (is_identifier_file(path))
      entry.bytes = r.whole_file(entry.bytes);
    else if (holds_addresses(path))
      entry.bytes = r.text_with_addresses(entry.bytes);
    else
      entry.bytes = r.text(entry.bytes);
  }
  s.files = std::move(files);
  for (auto& [argv, tool] : s.tools) {
    tool.run.out = r.tool_output(tool.run.out);
    tool.run.err = r.tool_output(tool.run.err);
  }
  for (auto& [name, value] : s.env) value = r.text_with_addresses(value);
  s.host.redacted = true;
}

}  // namespace hwaccel
