#include "src/plan/toml_fields.h"

#include <cmath>
#include <sstream>

#include "src/plan/toml_bare_text.h"

namespace hwaccel::plan {

std::string location(const std::string& file, const toml::source_region& region,
                     std::size_t line_offset) {
  std::ostringstream out;
  out << file << ":" << region.begin.line + line_offset << ":" << region.begin.column;
  return out.str();
}

toml::table parse_toml(std::string_view text, const std::string& file, std::size_t line_offset) {
  if (auto at = first_non_ascii_outside_strings(text))
    throw LocatedError(file + ":" + std::to_string(at->line + line_offset) + ":" +
                       std::to_string(at->column) +
                       ": a non-ASCII character outside a string or comment (TOML allows them "
                       "only there; a key that needs one is written in quotes)");
  try {
    return toml::parse(text, file);
  } catch (const toml::parse_error& e) {
    throw LocatedError(location(file, e.source(), line_offset) + ": " +
                       std::string(e.description()));
  }
}

std::string shown_number(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

TableReader::TableReader(const toml::table& table, std::string file, std::string path,
                         std::size_t line_offset)
    : table_(table), file_(std::move(file)), path_(std::move(path)), line_offset_(line_offset) {}

std::string TableReader::key_path(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

std::string TableReader::where(std::string_view key) const {
  if (const auto* node = table_.get(key)) return location(file_, node->source(), line_offset_);
  return location(file_, table_.source(), line_offset_);
}

void TableReader::fail(std::string_view key, const std::string& what) const {
  throw LocatedError(where(key) + ": " + key_path(key) + ": " + what);
}

void TableReader::allow_only(const std::set<std::string>& allowed) const {
  // Report the first unknown key by position, so the message is stable.
  const toml::key* worst = nullptr;
  for (const auto& [key, node] : table_) {
    if (allowed.count(std::string(key.str()))) continue;
    const auto& pos = key.source().begin;
    const auto& best = worst ? worst->source().begin : pos;
    if (!worst || pos.line < best.line || (pos.line == best.line && pos.column < best.column))
      worst = &key;
  }
  if (worst) {
    std::string known;
    for (const auto& k : allowed) known += (known.empty() ? "" : ", ") + k;
    throw LocatedError(location(file_, worst->source(), line_offset_) + ": " +
                       key_path(worst->str()) + ": unknown key (known: " + known + ")");
  }
}

bool TableReader::has(std::string_view key) const {
  return table_.contains(key);
}

std::string TableReader::text(std::string_view key) const {
  const auto* node = table_.get(key);
  if (!node) fail(key, "missing (expected a string)");
  if (!node->is_string()) fail(key, "expected a string");
  return std::string(*node->value<std::string_view>());
}

std::string TableReader::text_or(std::string_view key, std::string fallback) const {
  return has(key) ? text(key) : fallback;
}

double TableReader::number(std::string_view key) const {
  const auto* node = table_.get(key);
  if (!node) fail(key, "missing (expected a number)");
  if (node->is_integer()) return static_cast<double>(*node->value<std::int64_t>());
  if (!node->is_floating_point()) fail(key, "expected a number");
  const double v = *node->value<double>();
  if (!std::isfinite(v)) fail(key, shown_number(v) + ": expected a finite number");
  return v;
}

double TableReader::number_or(std::string_view key, double fallback) const {
  return has(key) ? number(key) : fallback;
}

double TableReader::number_in(std::string_view key, double lo, double hi,
                              std::string_view unit) const {
  const double v = number(key);
  if (v < lo || v > hi)
    fail(key, shown_number(v) + " is out of range (expected " + shown_number(lo) + " to " +
                  shown_number(hi) + (unit.empty() ? "" : " ") + std::string(unit) + ")");
  return v;
}

double TableReader::number_in_or(std::string_view key, double lo, double hi, std::string_view unit,
                                 double fallback) const {
  return has(key) ? number_in(key, lo, hi, unit) : fallback;
}

bool TableReader::boolean_or(std::string_view key, bool fallback) const {
  const auto* node = table_.get(key);
  if (!node) return fallback;
  if (!node->is_boolean()) fail(key, "expected true or false");
  return *node->value<bool>();
}

std::vector<std::string> TableReader::texts(std::string_view key) const {
  const auto* node = table_.get(key);
  if (!node) fail(key, "missing (expected an array of strings)");
  const auto* array = node->as_array();
  if (!array) fail(key, "expected an array of strings");
  std::vector<std::string> out;
  for (const auto& item : *array) {
    if (!item.is_string())
      throw LocatedError(location(file_, item.source(), line_offset_) + ": " + key_path(key) +
                         ": expected an array of strings");
    out.emplace_back(*item.value<std::string_view>());
  }
  return out;
}

const toml::table& TableReader::table(std::string_view key) const {
  const auto* node = table_.get(key);
  if (!node) fail(key, "missing (expected a table)");
  if (!node->is_table()) fail(key, "expected a table");
  return *node->as_table();
}

TableReader TableReader::sub(std::string_view key) const {
  return TableReader(table(key), file_, key_path(key), line_offset_);
}

}  // namespace hwaccel::plan
