#include "src/host/redaction.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "src/host/redaction_names.h"
#include "src/host/redaction_text.h"

namespace hwaccel {
namespace {

using redaction::Addresses;
using redaction::TextRedactor;

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

// A network interface's hardware address (sysfs `address`, `perm_address`).
bool is_mac_file(const std::string& path) {
  std::string name = base_name(path);
  return path.rfind("/sys/", 0) == 0 && (name == "address" || name == "perm_address");
}

bool holds_addresses(const std::string& path) {
  for (const char* prefix : {"/etc/", "/proc/net/", "/sys/class/net/", "/run/", "/var/"})
    if (path.rfind(prefix, 0) == 0) return true;
  return false;
}

// A file that is one identifier: the whole value, trailing whitespace kept.
std::string whole_file(TextRedactor& r, const std::string& in) {
  std::string trimmed = in;
  while (!trimmed.empty() &&
         (trimmed.back() == '\n' || trimmed.back() == ' ' || trimmed.back() == '\0'))
    trimmed.pop_back();
  return r.whole_value(trimmed) + in.substr(trimmed.size());
}

// What each recorded variable's value may keep (env_rule in redaction.h).
EnvRule rule_of(std::string_view name) {
  static const std::set<std::string, std::less<>> verbatim = {
      "container", "TPU_ACCELERATOR_TYPE", "NO_COLOR", "HWACCEL_RESERVE_BYTES", "LANG", "LC_ALL",
      "TERM",      "CUDA_DEVICE_ORDER"};
  static const std::set<std::string, std::less<>> paths = {"PATH",
                                                           "HOME",
                                                           "TMPDIR",
                                                           "VK_DRIVER_FILES",
                                                           "VK_ICD_FILENAMES",
                                                           "VK_ADD_DRIVER_FILES",
                                                           "VK_LAYER_PATH",
                                                           "LD_LIBRARY_PATH",
                                                           "HWSIM_ROOT",
                                                           "CUDA_HOME",
                                                           "ROCM_PATH"};
  static const std::set<std::string, std::less<>> devices = {
      "CUDA_VISIBLE_DEVICES",   "NVIDIA_VISIBLE_DEVICES",  "HIP_VISIBLE_DEVICES",
      "ROCR_VISIBLE_DEVICES",   "GPU_DEVICE_ORDINAL",      "ZE_AFFINITY_MASK",
      "HABANA_VISIBLE_DEVICES", "NEURON_RT_VISIBLE_CORES", "TPU_VISIBLE_CHIPS"};
  if (verbatim.count(name)) return EnvRule::verbatim;
  if (paths.count(name) || name.substr(0, 4) == "XDG_") return EnvRule::paths;
  if (devices.count(name)) return EnvRule::devices;
  if (name == "USER" || name == "LOGNAME") return EnvRule::user_name;
  if (name == "HOSTNAME") return EnvRule::hostname;
  if (name.substr(0, 11) == "KUBERNETES_") return EnvRule::address;
  return EnvRule::replaced;
}

// A login name as useradd accepts one: a letter or '_' first, at most 32
// characters. Anything else is no name (and might be a redacted identifier,
// which a second redaction would then take for one: a fuzz finding).
bool is_login_name(const std::string& name) {
  if (name.empty() || name.size() > 32) return false;
  if (!std::isalpha(static_cast<unsigned char>(name[0])) && name[0] != '_') return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.')
      return false;
  return true;
}

// The user's own name, wherever the environment gives it: USER, LOGNAME and
// the last folder of HOME (/var/lib/jenkins, /srv/alice; /root is no name).
std::set<std::string> user_names(const std::map<std::string, std::string>& env) {
  std::set<std::string> names;
  for (const char* variable : {"USER", "LOGNAME"})
    if (auto it = env.find(variable); it != env.end() && is_login_name(it->second))
      names.insert(it->second);
  if (auto it = env.find("HOME"); it != env.end()) {
    std::string home = it->second;
    while (home.size() > 1 && home.back() == '/') home.pop_back();
    std::string last = home.substr(home.rfind('/') + 1);
    if (is_login_name(last)) names.insert(last);
  }
  return names;
}

// One item of a device list ("0", "GPU-<uuid>", "MIG-<uuid>", "all"): indices
// and keywords kept, UUIDs pseudonymised, anything else replaced.
std::string device_item(TextRedactor& r, const std::string& item) {
  bool index = !item.empty();
  for (char c : item) index = index && ((c >= '0' && c <= '9') || c == ':' || c == '.');
  if (index || item.empty() || item == "all" || item == "none" || item == "void" ||
      item == "NoDevFiles")
    return item;
  return r.whole_value(item);
}

std::string env_value(TextRedactor& r, const std::string& name, const std::string& value) {
  if (value.empty()) return value;
  switch (env_rule(name)) {
    case EnvRule::verbatim:
      return value;
    case EnvRule::paths:
      return r.path(value);
    case EnvRule::devices: {
      std::string out;
      std::size_t start = 0;
      while (true) {
        auto comma = value.find(',', start);
        out += device_item(r, value.substr(start, comma - start));
        if (comma == std::string::npos) break;
        out += ',';
        start = comma + 1;
      }
      return out;
    }
    case EnvRule::user_name:
      return r.user(value);
    case EnvRule::hostname:
      return r.whole_value(value);
    case EnvRule::address: {
      // An address (or a list of them) is rewritten in place; anything else
      // is replaced whole.
      bool address = value.find_first_not_of("0123456789abcdefABCDEF.:,/[]%") == std::string::npos;
      if (address) return r.text(value, Addresses::everywhere);
      break;
    }
    case EnvRule::replaced:
      break;
  }
  return redaction::is_pseudonym_label(value) ? value : r.value(value);
}

// Kernel module attributes and files named for a version hold versions
// (2.24.7.0), never addresses.
bool holds_versions(const std::string& path) {
  std::string name = base_name(path);
  return path.rfind("/sys/module/", 0) == 0 || name.find("version") != std::string::npos ||
         name.find("_ver") != std::string::npos;
}

Addresses addresses_in(const std::string& path, const std::string& bytes) {
  if (holds_addresses(path)) return Addresses::everywhere;
  // One line that is a version; longer files say "version" on their version lines.
  auto newline = bytes.find('\n');
  bool one_line = newline == std::string::npos || newline + 1 == bytes.size();
  if (holds_versions(path) && one_line) return Addresses::not_dotted_quads;
  return Addresses::except_version_lines;
}

}  // namespace

EnvRule env_rule(std::string_view name) {
  return rule_of(name);
}

void redact(Snapshot& s) {
  TextRedactor r(s.facts.hostname, user_names(s.env));
  // `detect --record` labels the snapshot with the hostname: as a whole value it
  // is replaced whatever its length (text() leaves short names such as "vm"
  // alone, since they would also match ordinary words).
  if (!s.facts.hostname.empty() && s.host.label == s.facts.hostname)
    s.host.label = r.fake_hostname();
  else
    s.host.label = r.text(s.host.label, Addresses::except_version_lines);
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
    if (is_identifier_file(path) && !is_ib_identifier(path))
      entry.bytes = whole_file(r, entry.bytes);
    else if (is_mac_file(path))  // a MAC written without separators is one still
      entry.bytes =
          r.text(redaction::bare_mac_file(entry.bytes, r.names()), addresses_in(path, entry.bytes));
    else
      entry.bytes = r.text(entry.bytes, addresses_in(path, entry.bytes));
  }
  s.files = std::move(files);
  for (auto& [argv, tool] : s.tools) {
    tool.run.out = r.text(tool.run.out, Addresses::except_version_lines);
    tool.run.err = r.text(tool.run.err, Addresses::except_version_lines);
  }
  for (auto& [name, value] : s.env) value = env_value(r, name, value);
  s.host.redacted = true;
}

}  // namespace hwaccel
