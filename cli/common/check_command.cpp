#include "cli/common/check_command.h"

#include <algorithm>
#include <atomic>
#include <iostream>
#include <mutex>
#include <thread>
#include <vector>

#include "cli/common/exit_codes.h"
#include "cli/common/output_file.h"
#include "sim/golden.h"
#include "sim/line_diff.h"
#include "src/host/live_host.h"
#include "src/host/snapshot_host.h"
#include "src/host/terminal.h"
#include "src/host/text_file.h"
#include "src/vocabulary/path.h"

namespace hwaccel::cli {

CLI::App* add_check_command(CLI::App& app, CheckArgs& args) {
  auto* cmd = app.add_subcommand(
      "check", "Replay every snapshot NAME.yaml in DIR and compare with NAME.expected/");
  cmd->add_option("dir", args.dir, "The folder of snapshots")->required();
  cmd->add_flag("--update", args.update,
                "Rewrite the goldens that differ (each file written whole, then renamed)");
  cmd->add_option("-j,--jobs", args.jobs, "Snapshots checked at once (default: one per CPU)")
      ->check(CLI::Range(1, 256));
  cmd->add_option("--progress", args.progress,
                  "auto (a bar when stderr is a terminal), always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  return cmd;
}

namespace {

struct Outcome {
  bool passed = true;
  int updated = 0;
  std::string report;  // what to print for this snapshot (diffs, errors); empty when it passed
};

// How the goldens name DIR: its parent folder's name and its own, from the
// absolute path with "." and ".." taken out, so that fixtures/hosts,
// ./fixtures/hosts/, /repo/fixtures/hosts and ../repo/fixtures/hosts from
// elsewhere all render "snapshot(fixtures/hosts/NAME.yaml)", as the reviewed
// goldens (and the golden test) have it, wherever the checkout is.
std::string golden_folder_name(const std::string& dir) {
  auto absolute = normalize_absolute(absolute_path(dir));
  if (!absolute) return dir;
  auto parts = path_components(*absolute);
  if (parts.empty()) return "/";
  if (parts.size() == 1) return parts.back();
  return parts[parts.size() - 2] + "/" + parts.back();
}

Outcome check_one(const std::string& dir, const std::string& shown_dir, const std::string& name,
                  bool update) {
  Outcome o;
  const std::string path = dir + "/" + name + ".yaml";
  // Each file of DIR, and no link out of it (nor for the goldens below).
  auto loaded = load_snapshot_file(path, false, dir);
  if (loaded.error) {
    o.passed = false;
    o.report = "FAIL " + name + ": " + loaded.error->to_string() + "\n";
    return o;
  }
  auto render =
      sim::render_goldens(*loaded.snapshot, "snapshot(" + shown_dir + "/" + name + ".yaml)");
  if (!render.error.empty()) {
    o.passed = false;
    o.report = "FAIL " + name + ": " + render.error + "\n";
    return o;
  }
  for (const auto& argv : render.misses) {
    std::string joined;
    for (const auto& a : argv) joined += (joined.empty() ? "" : " ") + a;
    o.passed = false;
    o.report += "FAIL " + name + ": replay miss: the snapshot has no run of `" + joined + "`\n";
  }
  const std::string expected_dir = dir + "/" + name + ".expected";
  for (const auto& [file, actual] : render.files) {
    const std::string golden = expected_dir + "/" + file;
    auto expected = read_text_file_inside(dir, golden);
    const std::string before = expected ? *expected : std::string();
    if (expected && before == actual) continue;
    if (update) {
      // Written only inside DIR: a NAME.expected that is a link (anywhere) is
      // refused by make_directories, a golden that is one by the writer.
      std::string why = make_directories(expected_dir);
      if (why.empty()) why = write_file_atomically(golden, actual);
      if (!why.empty()) {
        o.passed = false;
        o.report += "FAIL " + name + ": cannot update " + golden + ": " + why + "\n";
      } else {
        ++o.updated;
        o.report += "updated " + golden + "\n";
      }
      continue;
    }
    o.passed = false;
    if (!expected) {
      o.report += "FAIL " + name + ": " + golden + " is missing (" + expected.error().message +
                  "); review the output and create it with --update\n";
      continue;
    }
    o.report += "FAIL " + name + ": " + file + " differs\n" +
                sim::unified_diff(before, actual, golden, "replay of " + path);
  }
  return o;
}

void draw_bar(std::size_t done, std::size_t total, std::size_t failed) {
  const int width = 30;
  const int filled = total ? int(done * width / total) : width;
  std::cerr << "\r[" << std::string(std::size_t(filled), '#')
            << std::string(std::size_t(width - filled), '.') << "] " << done << "/" << total;
  if (failed) std::cerr << " (" << failed << " failed)";
  std::cerr << std::flush;
}

}  // namespace

int run_check(const CheckArgs& args) {
  std::string dir = args.dir;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  LiveHost host;
  auto names = host.list(absolute_path(dir));
  if (!names) {
    std::cerr << "error: " << dir << ": cannot list (" << names.error().errno_name() << ")\n";
    return kExitBadInput;
  }
  std::vector<std::string> hosts;
  for (const auto& n : *names)
    if (n.size() > 5 && n.compare(n.size() - 5, 5, ".yaml") == 0)
      hosts.push_back(n.substr(0, n.size() - 5));
  std::sort(hosts.begin(), hosts.end());

  const bool bar = args.progress == "always" || (args.progress != "never" && stderr_is_terminal());
  unsigned jobs =
      args.jobs > 0 ? unsigned(args.jobs) : std::max(1u, std::thread::hardware_concurrency());
  jobs = std::min<unsigned>(jobs, std::max<std::size_t>(1, hosts.size()));

  const std::string shown_dir = golden_folder_name(dir);
  std::vector<Outcome> outcomes(hosts.size());
  std::atomic<std::size_t> next{0};
  std::mutex progress_mutex;
  std::size_t done = 0, failed_so_far = 0;
  auto worker = [&] {
    for (std::size_t i = next++; i < hosts.size(); i = next++) {
      outcomes[i] = check_one(dir, shown_dir, hosts[i], args.update);
      std::lock_guard<std::mutex> lock(progress_mutex);
      ++done;
      failed_so_far += !outcomes[i].passed;
      if (bar) draw_bar(done, hosts.size(), failed_so_far);
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < jobs; ++t) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  if (bar) std::cerr << "\r" << std::string(60, ' ') << "\r" << std::flush;

  std::size_t passed = 0, failed = 0, updated = 0;
  for (const auto& o : outcomes) {
    std::cout << o.report;
    passed += o.passed;
    failed += !o.passed;
    updated += std::size_t(o.updated);
  }
  std::cout << passed << " passed, " << failed << " failed";
  if (args.update) std::cout << ", " << updated << " files updated";
  std::cout << "\n";
  return failed == 0 ? kExitOk : kExitCheckFailed;
}

}  // namespace hwaccel::cli
