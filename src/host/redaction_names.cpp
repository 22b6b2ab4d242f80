#include "src/host/redaction_names.h"

#include "src/host/redaction_scan.h"

namespace hwaccel::redaction {

namespace {

bool is_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = lower_char(c);
  return out;
}

// Case-insensitive: does `in` hold `word` (lower case) at `i`?
bool has_at(std::string_view in, std::size_t i, std::string_view word) {
  if (i + word.size() > in.size()) return false;
  for (std::size_t k = 0; k < word.size(); ++k)
    if (lower_char(in[i + k]) != word[k]) return false;
  return true;
}

// Words after which a hardware address follows: ifconfig's HWaddr and ether,
// ip's link/ether, lladdr and permaddr, "MAC address:", dhcp's chaddr.
bool is_mac_word(std::string_view w) {
  for (std::string_view m : {"hwaddr", "ether", "lladdr", "permaddr", "address", "addr", "mac",
                             "macaddr", "macaddress", "bssid", "chaddr"})
    if (w == m) return true;
  return false;
}

// The word that ends just before `i`, past at most three separators.
bool mac_word_before(std::string_view in, std::size_t i) {
  std::size_t p = i, skipped = 0;
  while (p > 0 && skipped < 3 &&
         (in[p - 1] == ' ' || in[p - 1] == '\t' || in[p - 1] == ':' || in[p - 1] == '=' ||
          in[p - 1] == '"' || in[p - 1] == '\'')) {
    --p;
    ++skipped;
  }
  if (skipped == 0) return false;
  std::size_t end = p;
  while (p > 0 && is_alnum(in[p - 1]) && end - p < 12) --p;
  return end > p && is_mac_word(lower(in.substr(p, end - p)));
}

std::size_t hex_run(std::string_view in, std::size_t i, std::size_t max) {
  std::size_t k = 0;
  while (i + k < in.size() && k < max && is_hex(in[i + k])) ++k;
  return k;
}

// The MAC pseudonym laid out as `groups` of `width` digits joined by `sep`.
std::string mac_in_groups(Pseudonyms& names, const std::string& hex, std::size_t width, char sep) {
  std::string digits = mac_pseudonym(names.mac(hex), 0), out;
  for (std::size_t k = 0; k < digits.size(); k += width) {
    if (k && sep) out += sep;
    out += digits.substr(k, width);
  }
  return out;
}

// A dashed quad at `i` ("10-0-1-23"): its length, 0 if none.
std::size_t dashed_quad(std::string_view in, std::size_t i) {
  std::size_t p = i;
  for (int octet = 0; octet < 4; ++octet) {
    if (octet) {
      if (p >= in.size() || in[p] != '-') return 0;
      ++p;
    }
    std::size_t start = p;
    int value = 0;
    while (p < in.size() && is_digit(in[p]) && p - start < 4) value = value * 10 + (in[p++] - '0');
    std::size_t len = p - start;
    if (len == 0 || len > 3 || value > 255 || (len > 1 && in[start] == '0')) return 0;
  }
  return p - i;
}

// Kubernetes' rand.SafeEncodeString alphabet: no vowels, no 0, 1, 3.
bool is_k8s_char(char c) {
  static constexpr std::string_view alphabet = "bcdfghjklmnpqrstvwxz2456789";
  return alphabet.find(c) != std::string_view::npos;
}

// NAME-HASH-XXXXX: the whole token is a Deployment's pod name.
bool is_pod_name(std::string_view t) {
  if (t.size() < 1 + 1 + 6 + 1 + 5) return false;
  std::size_t n = t.size();
  for (std::size_t k = n - 5; k < n; ++k)
    if (!is_k8s_char(t[k])) return false;
  if (t[n - 6] != '-') return false;
  std::size_t end = n - 6, p = end;
  bool safe = true, digits = true;
  while (p > 0 && t[p - 1] != '-') {
    safe = safe && is_k8s_char(t[p - 1]);
    digits = digits && is_digit(t[p - 1]);
    --p;
  }
  std::size_t hash = end - p;
  bool ok = (safe && hash >= 6 && hash <= 10) || (digits && hash >= 8 && hash <= 10);
  return ok && p >= 2 && t[p - 1] == '-' && is_alnum(t[0]);
}

bool is_pod_char(char c) {
  return (c >= 'a' && c <= 'z') || is_digit(c) || c == '-';
}

}  // namespace

std::string macs_by_notation(std::string_view in, Pseudonyms& names) {
  std::string out;
  std::size_t copied = 0, line = std::string_view::npos;
  int says_mac = -1;  // of the line at `line`, decided when first needed
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (!is_hex(in[i])) continue;
    char before = i > 0 ? in[i - 1] : ' ';
    if (is_alnum(before) || before == '.' || before == '-' || before == '_') continue;
    std::size_t len = 0, width = 0;
    char sep = 0;
    // aabb.ccdd.eeff, aabb-ccdd-eeff
    if (hex_run(in, i, 5) == 4 && i + 14 <= in.size() && (in[i + 4] == '.' || in[i + 4] == '-') &&
        in[i + 9] == in[i + 4] && hex_run(in, i + 5, 5) == 4 && hex_run(in, i + 10, 5) == 4) {
      std::size_t e = i + 14;
      bool more =
          e < in.size() && (is_alnum(in[e]) || in[e] == '_' ||
                            (in[e] == in[i + 4] && e + 1 < in.size() && is_alnum(in[e + 1])));
      if (!more) {
        bool letter = false;
        for (std::size_t k = i; k < e; ++k) letter = letter || is_letter(in[k]);
        if (!letter) {
          std::size_t start = in.rfind('\n', i);
          start = start == std::string_view::npos ? 0 : start + 1;
          if (start != line) {
            line = start;
            std::size_t stop = in.find('\n', i);
            says_mac = any_word(
                in.substr(start, stop == std::string_view::npos ? in.size() - start : stop - start),
                is_mac_word);
          }
        }
        if (letter || says_mac > 0) len = 14, width = 4, sep = in[i + 4];
      }
    }
    // Twelve bare hex digits after a word that says MAC.
    if (len == 0 && hex_run(in, i, 13) == 12 &&
        (i + 12 == in.size() || (!is_alnum(in[i + 12]) && in[i + 12] != '_')) &&
        mac_word_before(in, i))
      len = 12, width = 12;
    if (len == 0) continue;
    std::string hex = hex_digits(in.substr(i, len));
    if (is_kept_hex(hex)) {
      i += len - 1;
      continue;
    }
    out.append(in, copied, i - copied);
    out += mac_in_groups(names, hex, width, sep);
    copied = i + len;
    i += len - 1;
  }
  if (copied == 0) return std::string(in);
  out.append(in, copied, std::string_view::npos);
  return out;
}

std::string bare_mac_file(std::string_view in, Pseudonyms& names) {
  std::size_t n = in.size();
  while (n > 0 && (in[n - 1] == '\n' || in[n - 1] == ' ')) --n;
  if (n != 12 || hex_run(in, 0, 13) != 12) return std::string(in);
  std::string hex = hex_digits(in.substr(0, 12));
  if (is_kept_hex(hex)) return std::string(in);
  return mac_in_groups(names, hex, 12, 0) + std::string(in.substr(12));
}

std::string internal_host_names(std::string_view in, Pseudonyms& names) {
  std::string out;
  std::size_t copied = 0, from = 0;
  const std::string low = lower(in);
  while (true) {
    std::size_t at = low.find(".internal", from);
    if (at == std::string::npos) break;
    std::size_t end = at + 9;
    from = end;
    if (low.compare(end, 13, ".cloudapp.net") == 0) end += 13;  // Azure
    bool more =
        end < in.size() && (is_alnum(in[end]) || in[end] == '-' || in[end] == '_' ||
                            (in[end] == '.' && end + 1 < in.size() && is_alnum(in[end + 1])));
    if (more) continue;
    std::size_t start = at;
    while (start > copied && (is_alnum(in[start - 1]) || in[start - 1] == '.' ||
                              in[start - 1] == '-' || in[start - 1] == '_'))
      --start;
    while (start < at && (in[start] == '.' || in[start] == '-')) ++start;
    // The generic part of the suffix stays: ec2.internal, compute.internal.
    std::size_t name_end = at;
    for (std::string_view zone : {".ec2", ".compute"})
      if (name_end - start > zone.size() &&
          low.compare(name_end - zone.size(), zone.size(), zone) == 0)
        name_end -= zone.size();
    if (name_end <= start) continue;
    std::string name = low.substr(start, name_end - start);
    if (is_pseudonym_label(name) || name == "metadata" || name == "metadata.google" ||
        name == "host.docker" || name == "gateway.docker" || name == "kubernetes.docker" ||
        name == "host.containers")
      continue;
    out.append(in, copied, start - copied);
    out += names.hostname(name);
    copied = name_end;
  }
  if (copied == 0) return std::string(in);
  out.append(in, copied, std::string_view::npos);
  return out;
}

std::string dashed_addresses(std::string_view in, Pseudonyms& names) {
  std::string out;
  std::size_t copied = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (!is_digit(in[i])) continue;
    char before = i > 0 ? in[i - 1] : ' ';
    // ip-10-0-1-23, ec2-54-1-2-3 (any case), each at the start of a word.
    bool prefixed = false;
    for (std::string_view p : {"ip-", "ec2-"})
      if (i >= p.size() && has_at(in, i - p.size(), p) &&
          (i == p.size() || !is_word_char(in[i - p.size() - 1])))
        prefixed = true;
    if (!prefixed && (is_alnum(before) || before == '-' || before == '.' || before == '_'))
      continue;
    std::size_t len = dashed_quad(in, i);
    if (len == 0) continue;
    std::size_t e = i + len;
    if (e < in.size() && (is_alnum(in[e]) || in[e] == '_' ||
                          (in[e] == '-' && e + 1 < in.size() && is_alnum(in[e + 1]))))
      continue;
    // Unprefixed, only as the first label of a DNS name (10-0-1-23.default.pod...).
    if (!prefixed && !(e + 1 < in.size() && in[e] == '.' && is_letter(in[e + 1]))) continue;
    std::string dotted(in.substr(i, len));
    for (char& c : dotted)
      if (c == '-') c = '.';
    if (keep_ipv4(dotted)) {
      i = e - 1;
      continue;
    }
    std::string fake = names.ipv4(dotted);
    for (char& c : fake)
      if (c == '.') c = '-';
    out.append(in, copied, i - copied);
    out += fake;
    copied = e;
    i = e - 1;
  }
  if (copied == 0) return std::string(in);
  out.append(in, copied, std::string_view::npos);
  return out;
}

std::string pod_names(std::string_view in, Pseudonyms& names) {
  std::string out;
  std::size_t copied = 0, i = 0;
  while (i < in.size()) {
    if (!is_pod_char(in[i]) || (i > 0 && (is_alnum(in[i - 1]) || in[i - 1] == '_'))) {
      ++i;
      continue;
    }
    std::size_t e = i;
    while (e < in.size() && is_pod_char(in[e])) ++e;
    bool bounded = e == in.size() || !(is_alnum(in[e]) || in[e] == '_');
    if (bounded && is_pod_name(in.substr(i, e - i))) {
      out.append(in, copied, i - copied);
      out += names.hostname(std::string(in.substr(i, e - i)));
      copied = e;
    }
    i = e;
  }
  if (copied == 0) return std::string(in);
  out.append(in, copied, std::string_view::npos);
  return out;
}

bool is_common_account(std::string_view name) {
  for (std::string_view a :
       {"ubuntu",     "debian",    "centos",   "fedora",  "rocky",  "almalinux",     "ec2-user",
        "cloud-user", "azureuser", "opc",      "core",    "admin",  "administrator", "user",
        "guest",      "test",      "docker",   "vagrant", "runner", "build",         "builder",
        "daemon",     "www-data",  "postgres", "mysql",   "redis",  "nginx",         "host",
        "server",     "node",      "worker",   "master",  "main",   "default",       "local",
        "localhost",  "system",    "service",  "jovyan",  "coder",  "dev",           "ubuntu-user"})
    if (name == a) return true;
  return false;
}

std::string user_words(std::string_view in, const std::set<std::string, std::less<>>& users,
                       Pseudonyms& names) {
  std::string text(in);
  for (const auto& u : users) {
    if (u.size() < 3 || is_common_account(u)) continue;
    std::string out;
    std::size_t from = 0, copied = 0;
    while (true) {
      std::size_t at = text.find(u, from);
      if (at == std::string::npos) break;
      from = at + u.size();
      bool left = at == 0 || !is_word_char(text[at - 1]);
      bool right = from >= text.size() || !is_word_char(text[from]);
      if (!left || !right) continue;
      out.append(text, copied, at - copied);
      out += names.user(u);
      copied = from;
    }
    if (copied == 0) continue;
    out.append(text, copied, std::string::npos);
    text = std::move(out);
  }
  return text;
}

}  // namespace hwaccel::redaction
