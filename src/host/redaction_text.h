// The text half of redaction (redaction.h decides which rule applies to which
// file, tool output and variable): finds identifiers in text by shape and by
// key, and hands out stable pseudonyms for them.
//
// Every scanner here is plain linear code (no regex engine): each character is
// looked at a bounded number of times, so a 10 MB token costs what 10 MB of
// ordinary text does, and nothing recurses.
//
// Every pseudonym is a fixed point: redacting redacted text changes nothing
// (tests/fuzz/redaction_fuzz.cpp checks it). That is also the "kept" rule for
// hex identifiers: a value whose leading half is zeros, or that lies in the
// pseudonym ranges below, carries no identity and stays as it is.
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>

namespace hwaccel::redaction {

// Where dotted quads are addresses: everywhere (/etc, /proc/net, the
// environment), everywhere but lines that talk about versions ("driver
// 2.19.64.0"), which is the rule for tool output and other files, or nowhere
// (a file that is a version: /sys/module/neuron/version). IPv6 addresses are
// replaced in all three.
enum class Addresses { everywhere, except_version_lines, not_dotted_quads };

class Pseudonyms {
 public:
  int uuid(const std::string& hex32) { return number(uuids_, hex32); }
  int mac(const std::string& hex12) { return number(macs_, hex12); }
  int guid(const std::string& hex16) { return number(guids_, hex16); }
  int ipoib(const std::string& hex40) { return number(ipoibs_, hex40); }
  // A whole-value identifier: digits stay digits and hex (with colons) stays
  // hex while the number fits in half of its digits (so that the result keeps the "leading
  // half zeros" shape), anything else becomes REDACTED-SERIAL-N.
  std::string identifier(const std::string& real);
  std::string hostname(const std::string& real);
  std::string user(const std::string& real);
  std::string ipv4(const std::string& real);
  std::string ipv6(const std::string& lower_real);
  // An environment value that no rule keeps: REDACTED-N.
  std::string value(const std::string& real);

 private:
  static int number(std::map<std::string, int>& table, const std::string& key) {
    return table.emplace(key, int(table.size()) + 1).first->second;
  }
  std::map<std::string, int> uuids_, macs_, guids_, ipoibs_, ids_, hosts_, users_, ipv4_, ipv6_,
      values_;
};

class TextRedactor {
 public:
  // `user_names`: names that are replaced wherever they are a path component
  // (from USER, LOGNAME and HOME); names under /home and /Users always are.
  TextRedactor(std::string hostname, const std::set<std::string>& user_names);

  // Free text (file contents, tool output): identifiers by shape (UUIDs, MACs,
  // GUIDs, container ids), the hostname as a word in any case, values of
  // identifier keys ("Serial Number:", "S/N=", "uuid": ...), identifiers by
  // class (redaction_names.h: MAC notations, cloud-internal and pod names,
  // addresses in names), user names in paths and as words, addresses.
  std::string text(std::string_view in, Addresses where);
  // A path (file key, link target, PATH entry): shapes and user names only.
  std::string path(std::string_view in);
  // A value that is one identifier as a whole (a DMI serial file).
  std::string whole_value(std::string_view v);
  std::string user(const std::string& name);
  std::string value(const std::string& v) { return names_.value(v); }
  const std::string& fake_hostname() const { return fake_hostname_; }
  bool is_hostname(std::string_view v) const;
  Pseudonyms& names() { return names_; }

 private:
  std::string shapes(std::string_view in);
  std::string hostnames(std::string_view in) const;
  std::string names_by_class(std::string_view in);
  std::string key_values(std::string_view in);
  std::string user_paths(std::string_view in);
  std::string addresses(std::string_view in, Addresses where);
  std::size_t shape_at(std::string_view in, std::size_t i, std::string& replacement);
  std::size_t address_at(std::string_view in, std::size_t i, std::size_t line_end, bool ipv4,
                         std::string& replacement);

  Pseudonyms names_;
  std::string hostname_, fake_hostname_;
  // Lower case, for finding the hostname in any case; and its first label
  // when it is a full name (gpunode17 of gpunode17.cluster.example.org).
  std::string hostname_lower_, short_hostname_;
  std::set<std::string, std::less<>> users_;
};

// Shared with redaction.cpp and the tests.
bool is_pseudonym_label(std::string_view v);    // host-N, user-N, REDACTED-SERIAL-N, REDACTED-N
bool is_safe_user_name(std::string_view name);  // root, and names that are system folders

}  // namespace hwaccel::redaction
