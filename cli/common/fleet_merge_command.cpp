// `hwsim fleet merge PART...`: the partial results of a sharded fleet, read as
// untrusted files (bounded, strictly checked, sim/fleet_part.h), joined and
// printed as the single run prints them.
#include <algorithm>
#include <iostream>

#include "cli/common/exit_codes.h"
#include "cli/common/fleet_command.h"
#include "sim/fleet_json.h"
#include "sim/fleet_part.h"
#include "src/host/live_host.h"
#include "src/host/terminal.h"
#include "src/host/text_file.h"

namespace hwaccel::cli {

namespace {

// "FILE:3:14: not JSON: ..." for a position, "FILE: fleet.seed: expected ..." else.
std::string located(const std::string& file, const std::string& error) {
  const bool position = !error.empty() && error[0] >= '0' && error[0] <= '9';
  return file + (position ? ":" : ": ") + error;
}

// The files the arguments name: each file, and every *.json of each folder
// (read inside it: a link out of the folder is not followed).
struct Inputs {
  std::vector<std::pair<std::string, std::string>> files;  // shown path, folder ("" if none)
  std::string error;
};

Inputs list_inputs(const std::vector<std::string>& args) {
  Inputs in;
  LiveHost live;
  for (const auto& arg : args) {
    auto kind = live.stat(absolute_path(arg));
    if (!kind || *kind != FileKind::directory) {
      in.files.push_back({arg, ""});
      continue;
    }
    std::string dir = arg;
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    auto names = live.list(absolute_path(dir));
    if (!names) {
      in.error = dir + ": cannot list (" + names.error().errno_name() + ")";
      return in;
    }
    std::vector<std::string> sorted(names->begin(), names->end());
    std::sort(sorted.begin(), sorted.end());
    std::size_t found = 0;
    for (const auto& n : sorted)
      if (n.size() > 5 && n.compare(n.size() - 5, 5, ".json") == 0) {
        in.files.push_back({dir + "/" + n, dir});
        ++found;
      }
    if (found == 0) {
      in.error = dir + ": no *.json parts in it";
      return in;
    }
  }
  return in;
}

}  // namespace

int run_fleet_merge(const FleetArgs& args) {
  const Format format = output_format(args.out);
  auto inputs = list_inputs(args.parts);
  if (!inputs.error.empty()) {
    std::cerr << "error: " << inputs.error << "\n";
    return kExitBadInput;
  }
  if (inputs.files.size() > sim::kMaxShards) {
    std::cerr << "error: " << inputs.files.size() << " parts: a fleet has at most "
              << sim::kMaxShards << " shards\n";
    return kExitBadInput;
  }
  std::vector<sim::NamedPart> parts;
  parts.reserve(inputs.files.size());
  for (const auto& [file, folder] : inputs.files) {
    auto text = folder.empty() ? read_text_file(file, sim::kMaxFleetPartBytes)
                               : read_text_file_inside(folder, file, sim::kMaxFleetPartBytes);
    if (!text) {
      std::cerr << "error: " << text.error().message << "\n";
      return kExitBadInput;
    }
    auto read = sim::part_from_text(*text);
    if (!read.part) {
      std::cerr << "error: " << located(file, read.error) << "\n";
      return kExitBadInput;
    }
    parts.push_back({file, std::move(*read.part)});
  }
  auto merged = sim::merge_parts(parts);
  if (!merged.aggregate) {
    std::cerr << "error: " << merged.error << "\n";
    return kExitBadInput;
  }
  if (format == Format::text)
    std::cout << render_fleet(*merged.aggregate, merged.verdict_title);
  else
    print_document(sim::fleet_to_json(*merged.aggregate, merged.verdict_title), format);
  return kExitOk;
}

}  // namespace hwaccel::cli
