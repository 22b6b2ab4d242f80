// The shapes that redaction looks for (redaction_text.h puts them to work):
// small linear scanners over text, the pseudonym formats, and the rules for
// what is kept. Internal to src/host/redaction*.cpp and their tests.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace hwaccel::redaction {

// ASCII classes, without the locale lookups of <cctype> (they were a third
// of the time).
inline bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
inline bool is_hex(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
inline bool is_alnum(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
inline char lower_char(char c) {
  return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c;
}
// Groups of exactly `width` hex digits joined by a separator: how many, and
// where the run ends (hex_groups).
struct Run {
  std::size_t groups = 0, end = 0;
};

// Each is described where it is defined (redaction_scan.cpp).
bool all_digits(std::string_view s);
bool is_digit_run(std::string_view s);
bool starts_with(std::string_view s, std::string_view prefix);
std::string hex_digits(std::string_view v);
bool is_kept_hex(std::string_view hex);
bool is_kept_uuid(std::string_view hex32);
std::string uuid_pseudonym(int n, char separator);
std::string mac_pseudonym(int n, char separator);
std::string guid_digits(int n);
std::string colon_groups(const std::string& hex, std::size_t width);
std::string shaped_number(const std::string& shape, int n, bool decimal);
bool is_shared_value(std::string_view v);
Run hex_groups(std::string_view in, std::size_t i, std::size_t width, char sep);
bool uuid_at(std::string_view in, std::size_t i);
bool is_word_char(char c);
bool is_name_char(char c);
bool is_address_word(std::string_view w);
bool is_version_word(std::string_view w);
bool is_identifier_key(std::string_view key);
bool is_value_end(char c);
// A dotted quad at `i` (its length, 0 if none), and whether one is kept.
std::size_t ipv4_length(std::string_view in, std::size_t i, std::size_t end);
bool keep_ipv4(std::string_view ip);

// Lower-cased alphanumeric words of `text` (at most 40 characters each), to
// `visit` until it returns true.
template <typename Visit>
bool any_word(std::string_view text, Visit visit) {
  std::string word;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    char c = i < text.size() ? text[i] : ' ';
    if (is_alnum(c)) {
      if (word.size() < 40) word += lower_char(c);
    } else if (!word.empty()) {
      if (visit(std::string_view(word))) return true;
      word.clear();
    }
  }
  return false;
}

}  // namespace hwaccel::redaction
