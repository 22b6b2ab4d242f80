// Reading TOML tables strictly: every key known, every value of the right
// type, every error located as FILE:LINE:COL with the key's dotted path.
#pragma once

#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <toml++/toml.h>

namespace hwaccel::plan {

// Thrown inside the readers, caught at their public boundary and returned as data.
struct LocatedError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class TableReader {
 public:
  // `line_offset`: lines of the file before the text `table` was parsed
  // from (a batch of blocks, toml_blocks.h), added to every line shown.
  TableReader(const toml::table& table, std::string file, std::string path,
              std::size_t line_offset = 0);

  // Refuses any key outside `allowed` (the first unknown key in source order).
  void allow_only(const std::set<std::string>& allowed) const;
  bool has(std::string_view key) const;
  std::string text(std::string_view key) const;  // required string
  std::string text_or(std::string_view key, std::string fallback) const;
  // A required int or float; nan and inf are refused (a catalogue with
  // bandwidth_gbs = nan planned 19775 tok/s).
  double number(std::string_view key) const;
  double number_or(std::string_view key, double fallback) const;
  // A required number from lo to hi inclusive, else "VALUE is out of range
  // (expected LO to HI UNIT)" at the key.
  double number_in(std::string_view key, double lo, double hi, std::string_view unit) const;
  double number_in_or(std::string_view key, double lo, double hi, std::string_view unit,
                      double fallback) const;
  bool boolean_or(std::string_view key, bool fallback) const;
  std::vector<std::string> texts(std::string_view key) const;  // required array of strings
  const toml::table& table(std::string_view key) const;        // required sub-table
  TableReader sub(std::string_view key) const;

  [[noreturn]] void fail(std::string_view key, const std::string& what) const;
  std::string where(std::string_view key) const;  // FILE:LINE:COL of the key's value
  const std::string& file() const { return file_; }
  const std::string& path() const { return path_; }
  std::string key_path(std::string_view key) const;
  const toml::table& raw() const { return table_; }
  std::size_t line_offset() const { return line_offset_; }

 private:
  const toml::table& table_;
  std::string file_;
  std::string path_;
  std::size_t line_offset_ = 0;
};

std::string location(const std::string& file, const toml::source_region& region,
                     std::size_t line_offset = 0);

// A number as an error message shows it: "nan", "inf", "1e+30", "0.5".
std::string shown_number(double v);

// Parses TOML text; a syntax error becomes a LocatedError. `line_offset` as
// for TableReader.
toml::table parse_toml(std::string_view text, const std::string& file, std::size_t line_offset = 0);

}  // namespace hwaccel::plan
