#include "src/host/redaction.h"

#include <cctype>
#include <cstdio>
#include <functional>
#include <map>
#include <regex>
#include <set>

namespace hwaccel {
namespace {

// DMI attributes that identify one machine.
const std::set<std::string>& dmi_identifiers() {
  static const std::set<std::string> names = {"product_serial",  "product_uuid",
                                              "board_serial",    "chassis_serial",
                                              "board_asset_tag", "chassis_asset_tag"};
  return names;
}

// Asset tags that every machine of a kind carries (a cloud's marker, a firmware
// placeholder): they say where the machine runs, not which machine it is, and
// detection needs the cloud ones (src/system/runtime_env.h).
const std::set<std::string>& shared_asset_tags() {
  static const std::set<std::string> tags = {"7783-7084-3265-9085-8269-3286-77",  // every Azure VM
                                             "OracleCloud.com",  // every OCI instance
                                             "Amazon EC2",       // every EC2 instance
                                             "Default string",
                                             "To Be Filled By O.E.M.",
                                             "Not Specified",
                                             "None",
                                             "No Asset Tag",
                                             "Chassis Asset Tag",
                                             "Asset Tag",
                                             " "};
  return tags;
}

class Pseudonyms {
 public:
  std::string uuid(const std::string& prefix, const std::string& real) {
    return assign(uuids_, prefix + real, [&](int n) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%s00000000-0000-4000-8000-%012d", prefix.c_str(), n);
      return std::string(buf);
    });
  }
  std::string mac(const std::string& real) {
    return assign(macs_, real, [](int n) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "02:00:00:00:%02x:%02x", (n >> 8) & 0xff, n & 0xff);
      return std::string(buf);
    });
  }
  // A 20-byte IPoIB hardware address (flags, QPN, GID): keeps its length.
  std::string ipoib(const std::string& real) {
    return assign(ipoibs_, real, [](int n) {
      char buf[80];
      std::snprintf(buf, sizeof buf,
                    "00:00:00:00:fe:80:00:00:00:00:00:00:02:00:00:00:00:00:%02x:%02x",
                    (n >> 8) & 0xff, n & 0xff);
      return std::string(buf);
    });
  }
  // 64 bits of an InfiniBand GUID or of a GID's interface half: "0c42:a103:0012:3456".
  std::string guid(const std::string& real) {
    return assign(guids_, real, [](int n) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "0200:0000:0000:%04x", n & 0xffff);
      return std::string(buf);
    });
  }
  std::string serial(const std::string& real) {
    return assign(serials_, real, [](int n) { return "REDACTED-SERIAL-" + std::to_string(n); });
  }
  std::string hostname(const std::string& real) {
    return assign(hosts_, real, [](int n) { return "host-" + std::to_string(n); });
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
  std::map<std::string, std::string> uuids_, macs_, serials_, hosts_, ipoibs_, guids_;
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

class Redactor {
 public:
  explicit Redactor(std::string hostname) : hostname_(std::move(hostname)) {
    if (!hostname_.empty()) fake_hostname_ = names_.hostname(hostname_);
  }

  std::string text(const std::string& in) {
    static const std::regex gpu_uuid(
        R"(\b(GPU-|MIG-)?([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\b)");
    static const std::regex mac(R"(\b([0-9a-fA-F]{2}:){5}[0-9a-fA-F]{2}\b)");
    static const std::regex serial(R"((Serial Number\s*:\s*)(\S+))");
    static const std::regex ipoib(R"(\b([0-9a-fA-F]{2}:){19}[0-9a-fA-F]{2}\b)");
    std::string out = replace_all(
        in, gpu_uuid, [&](const std::smatch& m) { return names_.uuid(m[1].str(), m[2].str()); });
    // Before MACs: the MAC pattern would take the first six bytes of an IPoIB address.
    out = replace_all(out, ipoib, [&](const std::smatch& m) { return names_.ipoib(m.str()); });
    out = replace_all(out, mac, [&](const std::smatch& m) {
      std::string v = m.str();
      // Six bytes inside a longer colon-separated run (an IPoIB pseudonym) are not a MAC.
      const std::string before = m.prefix().str(), after = m.suffix().str();
      if ((!before.empty() && before.back() == ':') || (!after.empty() && after.front() == ':'))
        return v;
      if (v == "00:00:00:00:00:00" || v == "ff:ff:ff:ff:ff:ff") return v;
      return names_.mac(v);
    });
    out = replace_all(out, serial, [&](const std::smatch& m) {
      std::string v = m[2].str();
      if (v == "N/A" || v == "[N/A]") return m.str();
      return m[1].str() + names_.serial(v);
    });
    if (!hostname_.empty()) out = replace_hostname(out, hostname_, fake_hostname_);
    return out;
  }

  // GUIDs and GIDs in /sys/class/infiniband: every 64-bit group but zero and the
  // link-local prefix fe80:0000:0000:0000.
  std::string ib_ids(const std::string& in) {
    static const std::regex group(R"(\b[0-9a-fA-F]{4}(:[0-9a-fA-F]{4}){3}\b)");
    return replace_all(in, group, [&](const std::smatch& m) {
      std::string v = m.str();
      if (v == "0000:0000:0000:0000" || v == "fe80:0000:0000:0000") return v;
      return names_.guid(v);
    });
  }

  std::string dmi_value(const std::string& in) {
    std::string trimmed = in;
    while (!trimmed.empty() && (trimmed.back() == '\n' || trimmed.back() == ' '))
      trimmed.pop_back();
    if (trimmed.empty() || shared_asset_tags().count(trimmed)) return in;
    return names_.serial(trimmed) + in.substr(trimmed.size());
  }

  const std::string& fake_hostname() const { return fake_hostname_; }

 private:
  Pseudonyms names_;
  std::string hostname_;
  std::string fake_hostname_;
};

bool is_dmi_identifier(const std::string& path) {
  auto slash = path.rfind('/');
  std::string dir = path.substr(0, slash);
  std::string name = path.substr(slash + 1);
  bool in_dmi = dir == "/sys/class/dmi/id" || dir == "/sys/devices/virtual/dmi/id";
  return in_dmi && dmi_identifiers().count(name);
}

// node_guid, sys_image_guid and ports/N/gids/M of an RDMA device.
bool is_ib_identifier(const std::string& path) {
  if (path.rfind("/sys/class/infiniband/", 0) != 0) return false;
  auto slash = path.rfind('/');
  std::string name = path.substr(slash + 1);
  return name == "node_guid" || name == "sys_image_guid" ||
         path.find("/gids/") != std::string::npos;
}

}  // namespace

void redact(Snapshot& s) {
  Redactor r(s.facts.hostname);
  if (!s.facts.hostname.empty()) s.facts.hostname = r.fake_hostname();
  s.host.label = r.text(s.host.label);
  for (auto& [path, entry] : s.files) {
    if (entry.kind != FileEntry::Kind::content) continue;
    if (is_dmi_identifier(path))
      entry.bytes = r.dmi_value(entry.bytes);
    else if (is_ib_identifier(path))
      entry.bytes = r.ib_ids(entry.bytes);
    else
      entry.bytes = r.text(entry.bytes);
  }
  for (auto& [argv, tool] : s.tools) {
    tool.run.out = r.text(tool.run.out);
    tool.run.err = r.text(tool.run.err);
  }
  for (auto& [name, value] : s.env) value = r.text(value);
  s.host.redacted = true;
}

}  // namespace hwaccel
