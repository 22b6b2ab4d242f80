#include "cli/common/hwsim_import_command.h"

#include <charconv>
#include <iostream>
#include <memory>

#include "cli/common/exit_codes.h"
#include "cli/common/output_file.h"
#include "sim/tool_spec.h"
#include "sim/tree_import.h"
#include "sim/ttar.h"
#include "src/host/redaction.h"
#include "src/host/text_file.h"
#include "src/host/tree_source.h"
#include "src/snapshot/limits.h"
#include "src/snapshot/snapshot_codec.h"
#include "src/vocabulary/path.h"

namespace hwaccel::cli {

struct ImportArgs {
  std::string root;
  std::string ttar, ttar_prefix;
  std::string output;
  bool force = false;  // -o may replace an existing file
  std::vector<std::string> tools, tool_stderr, tool_exit, only, exclude, env;
  std::string label, arch, kernel, hostname;
  std::int64_t cpus = 0, page_size = 0;
  std::size_t max_file_bytes = std::size_t{1} << 20;
  bool no_redact = false;
};

namespace {

// Captured tool output is kept whole up to the recorder's cap.
constexpr std::size_t kMaxToolOutput = std::size_t{16} << 20;

ToolEntry& tool_for(Snapshot& s, const std::vector<std::string>& argv) {
  auto [it, inserted] = s.tools.try_emplace(argv);
  if (inserted) it->second.argv = argv;
  return it->second;
}

// --tool, --tool-stderr, --tool-exit: returns false after printing what is wrong.
bool attach_tools(Snapshot& s, const ImportArgs& a) {
  struct Kind {
    const char* flag;
    const std::vector<std::string>* specs;
  };
  for (const Kind& kind : {Kind{"--tool", &a.tools}, Kind{"--tool-stderr", &a.tool_stderr},
                           Kind{"--tool-exit", &a.tool_exit}}) {
    for (const auto& text : *kind.specs) {
      sim::ToolSpec spec = sim::parse_tool_spec(text);
      if (!spec.error.empty()) {
        std::cerr << "error: " << kind.flag << " '" << text << "': " << spec.error << "\n";
        return false;
      }
      ToolEntry& tool = tool_for(s, spec.argv);
      if (std::string_view(kind.flag) == "--tool-exit") {
        int code = 0;
        auto [p, ec] =
            std::from_chars(spec.value.data(), spec.value.data() + spec.value.size(), code);
        if (ec != std::errc() || p != spec.value.data() + spec.value.size() || code < 0 ||
            code > 255) {
          std::cerr << "error: --tool-exit '" << text
                    << "': expected an exit code 0-255 after '='\n";
          return false;
        }
        tool.run.exit_code = code;
        continue;
      }
      auto bytes = read_text_file(spec.value, kMaxToolOutput);
      if (!bytes.ok()) {
        std::cerr << "error: " << kind.flag << " '" << text << "': " << bytes.error().message
                  << "\n";
        return false;
      }
      (std::string_view(kind.flag) == "--tool" ? tool.run.out : tool.run.err) = *bytes;
    }
  }
  return true;
}

}  // namespace

ImportCommand add_import_command(CLI::App& app) {
  auto shared = std::make_shared<ImportArgs>();
  ImportArgs& a = *shared;
  auto* cmd = app.add_subcommand("import", "Turn a tree laid out like / into a snapshot");
  auto* root = cmd->add_option("--root", a.root,
                               "The tree (an extracted hwloc-gather-topology tarball, ...)");
  auto* ttar = cmd->add_option("--ttar", a.ttar, "A ttar archive of the tree, instead of --root");
  root->excludes(ttar);
  cmd->add_option("--ttar-prefix", a.ttar_prefix,
                  "The archive's folder that is / (default: the one every entry is in)")
      ->needs(ttar);
  cmd->add_option("-o,--output", a.output, "The snapshot to write")->required();
  cmd->add_flag("--force", a.force, "Replace the output file if it exists");
  cmd->add_option(
      "--tool", a.tools,
      "'ARGV=FILE': FILE is the stdout of ARGV (shell-like words; split at the last '=')");
  cmd->add_option("--tool-stderr", a.tool_stderr, "'ARGV=FILE': FILE is the stderr of ARGV");
  cmd->add_option("--tool-exit", a.tool_exit, "'ARGV=N': ARGV exited with N (default 0)");
  cmd->add_option("--label", a.label, "host.label (default: the root folder's name)");
  cmd->add_option("--only", a.only, "Import only under this absolute path (repeatable)");
  cmd->add_option("--exclude", a.exclude, "Skip this absolute path (repeatable)");
  cmd->add_option("--env", a.env, "NAME=VALUE for the snapshot's env (repeatable)");
  cmd->add_option("--arch", a.arch, "facts.arch (default: from /proc/cpuinfo)");
  cmd->add_option("--kernel", a.kernel, "facts.kernel (default: /proc/sys/kernel/osrelease)");
  cmd->add_option("--hostname", a.hostname, "facts.hostname");
  // Ranges so that a negative or absurd number never reaches the snapshot.
  cmd->add_option("--cpus", a.cpus, "facts.cpus (default: from the tree)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 20));
  cmd->add_option("--page-size", a.page_size, "facts.page_size (default 4096)")
      ->check(CLI::Validator(
          [](const std::string& text) -> std::string {
            // What a snapshot may hold (docs/snapshot-format.md): a power of two
            // from 1 KiB to 1 GiB; 3000 was once written and could not be read back.
            std::int64_t v = 0;
            for (char c : text) {
              if (c < '0' || c > '9' || v > (std::int64_t{1} << 31)) v = -1;
              if (v < 0) break;
              v = v * 10 + (c - '0');
            }
            bool ok =
                !text.empty() && v >= 1024 && v <= (std::int64_t{1} << 30) && (v & (v - 1)) == 0;
            return ok ? ""
                      : "expected a power of two from 1024 to 1073741824 bytes, got \"" + text +
                            "\"";
          },
          "POWER-OF-TWO"));
  cmd->add_option("--max-file-bytes", a.max_file_bytes,
                  "Larger files are imported as {error: EFBIG} (default 1 MiB)")
      ->check(CLI::Range(std::size_t{1}, kMaxSnapshotBytes));
  cmd->add_flag("--no-redact", a.no_redact, "Keep serials, UUIDs, hostnames and MACs");
  return {cmd, shared};
}

int ImportCommand::run() const {
  const ImportArgs& a = *args;
  sim::ImportOptions options;
  if (a.root.empty() && a.ttar.empty()) {
    std::cerr << "error: import needs --root DIR or --ttar FILE\n";
    return kExitUsage;
  }
  const std::string& source = a.root.empty() ? a.ttar : a.root;
  options.label = a.label;
  if (options.label.empty()) {
    auto parts = path_components(
        normalize_absolute(source.front() == '/' ? source : "/" + source).value_or("/"));
    options.label = parts.empty() ? "imported" : parts.back();
  }
  for (const auto* list : {&a.only, &a.exclude}) {
    for (const auto& p : *list) {
      auto normal = normalize_absolute(p);
      if (!normal) {
        std::cerr << "error: --only/--exclude '" << p << "': expected an absolute path\n";
        return kExitUsage;
      }
      (list == &a.only ? options.only : options.exclude).push_back(*normal);
    }
  }
  for (const auto& kv : a.env) {
    auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) {
      std::cerr << "error: --env '" << kv << "': expected NAME=VALUE\n";
      return kExitUsage;
    }
    options.env[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  options.facts.arch = a.arch;
  options.facts.kernel = a.kernel;
  options.facts.hostname = a.hostname;
  options.facts.cpus = a.cpus;
  options.facts.page_size = a.page_size;
  options.max_file_bytes = a.max_file_bytes;

  std::unique_ptr<TreeSource> tree;
  if (!a.ttar.empty()) {
    auto text = read_text_file(a.ttar, std::size_t{512} << 20);
    if (!text.ok()) {
      std::cerr << "error: --ttar: " << text.error().message << "\n";
      return kExitBadInput;
    }
    sim::TtarArchive archive = sim::parse_ttar(*text);
    if (!archive.error.empty()) {
      std::cerr << "error: " << a.ttar << ": " << archive.error << "\n";
      return kExitBadInput;
    }
    std::string prefix =
        a.ttar_prefix.empty() ? sim::ttar_common_prefix(archive.entries) : a.ttar_prefix;
    tree = std::make_unique<sim::MemoryTree>(archive.entries, prefix);
  } else {
    tree = std::make_unique<DiskTree>(a.root);
  }
  sim::ImportResult result = sim::import_tree(*tree, options);
  for (const auto& note : result.notes) std::cerr << "note: " << note << "\n";
  if (!result.error.empty()) {
    std::cerr << "error: " << source << ": " << result.error << "\n";
    return kExitBadInput;
  }
  if (!attach_tools(result.snapshot, a)) return kExitBadInput;
  if (!a.no_redact) {
    // A label is not a machine's name: nothing to hide, and not a word to replace in files.
    if (result.hostname_is_label) result.snapshot.facts.hostname.clear();
    redact(result.snapshot);
    if (result.hostname_is_label) result.snapshot.facts.hostname = result.snapshot.host.label;
  }
  std::string text = write_snapshot(result.snapshot);
  if (auto why = write_file_atomically(a.output, text,
                                       a.force ? ExistingFile::replace : ExistingFile::keep);
      !why.empty()) {
    std::cerr << "error: -o: " << why << "\n";
    return kExitCannotWrite;
  }
  std::cerr << "imported " << source << " -> " << a.output << ": " << result.files << " files, "
            << result.links << " links, " << result.nodes << " device nodes, " << result.errors
            << " errors, " << result.bytes << " bytes; " << result.snapshot.tools.size()
            << " tool runs\n";
  return kExitOk;
}

}  // namespace hwaccel::cli
