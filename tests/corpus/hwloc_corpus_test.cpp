// The real-machine corpus: every tree of fixtures/real/hwloc-linux (40 of the
// 42 machines of hwloc's own test suite) is extracted, imported as `hwsim import
// --root` does, written and read back as a snapshot, replayed through detection,
// and compared with hwloc's expected output for it (NAME.console, or NAME.xml):
// CPUs (online and usable), architecture, memory (host and usable, within 2%;
// cpu:0's the same as the system scan's), NUMA nodes, sockets, cores, threads
// and every PCI function hwloc shows. What hwloc does not print (the
// architecture, the host's figures where a cgroup hides part of the machine)
// and the few places where hwloc's own figure is not the machine's (its
// cgroup, its repairs of a broken or hand-edited tree) are in hwloc_expected.txt
// beside this file, each value with its reason: those are the exceptions.
//
// Not in the corpus (kNotInCorpus below says why): two synthetic trees whose
// figures hwloc derives from its own policies rather than from the files.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "sim/tree_import.h"
#include "src/host/redaction.h"
#include "src/host/snapshot_host.h"
#include "src/host/stopwatch.h"
#include "src/host/tree_source.h"
#include "src/probe/pci_bus.h"
#include "src/registry/detection.h"
#include "src/snapshot/snapshot_codec.h"
#include "tests/support/sanitized.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

namespace fs = std::filesystem;

const std::string kDir = "hwloc-linux";

// hwloc's trees left out, and why.
constexpr const char* kNotInCorpus[][2] = {
    {"fakememinitiators-1np2c+1npp+gi",
     "synthetic: hwloc hides the CPU-only NUMA nodes 0-4 and places memory-only nodes by "
     "their initiators, and merges the 8 PUs into 2 cores; none of it is the files' count"},
    {"nvidiagpunumanodes",
     "trimmed by hwloc's authors (CPUs removed from /sys/devices/system/cpu, not from the "
     "online list or the cpusets): hwloc prints 32 PUs the tree no longer holds folders for, "
     "and a PCI function (0004:05:00.0) that is not in its /sys"},
};

// Import budget per tree: 500 ms as the issue asks. Instrumented builds get ten
// times that: ASan and UBSan with stack-use-after-return checks run this code 5-8
// times slower, and CI's sanitizer job measured 2,593 ms of CPU for the largest
// tree (14,129 files), past the 2,500 ms this used to allow. The loose bound still
// catches an import that turns quadratic.
constexpr double kImportBudgetMs = testing::kSanitized ? 5000 : 500;

// What hwloc printed for a tree (its lstopo -v output, or its XML export).
struct HwlocExpected {
  std::uint64_t total_bytes = 0;      // Machine total=: the memory this process could use
  std::map<std::string, int> counts;  // "PU" -> 16, "Core", "Package", "NUMANode"
  struct Pci {
    std::string busid;  // "0000:3d:00.0"
    std::uint16_t vendor = 0, device = 0;
    std::uint16_t class_id = 0;  // base class and subclass, 0x0b40
  };
  std::vector<Pci> pci;
};

std::uint64_t hex(const std::string& s) {
  return std::strtoull(s.c_str(), nullptr, 16);
}

// "503GiB", "8192MiB", "2048MB" -> bytes (hwloc's units are binary either way).
std::uint64_t hwloc_size(const std::string& text) {
  std::size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  std::uint64_t n = std::strtoull(text.substr(0, digits).c_str(), nullptr, 10);
  char unit = digits < text.size() ? text[digits] : 'B';
  int shift = unit == 'K' || unit == 'k' ? 10
              : unit == 'M'              ? 20
              : unit == 'G'              ? 30
              : unit == 'T'              ? 40
                                         : 0;
  return n << shift;
}

std::string after(const std::string& line, const std::string& key) {
  auto at = line.find(key);
  if (at == std::string::npos) return "";
  at += key.size();
  auto end = line.find_first_of(" )\"", at);
  return line.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

HwlocExpected parse_console(const std::string& text) {
  HwlocExpected e;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("Machine (", 0) == 0) e.total_bytes = hwloc_size(after(line, "total="));
    // "  depth 7:    128 Core (type #3)", "Special depth -3:  2 NUMANode (type #14)"
    auto depth = line.find("depth ");
    auto colon = line.find(':');
    if (depth != std::string::npos && colon != std::string::npos &&
        line.find("(type #") != std::string::npos) {
      std::istringstream words(line.substr(colon + 1));
      int n = 0;
      std::string type;
      if (words >> n >> type) e.counts[type] += n;
    }
    auto pci = line.find("PCI L#");
    if (pci != std::string::npos) {
      HwlocExpected::Pci p;
      p.busid = after(line, "busid=");
      std::string id = after(line, " id=");
      p.vendor = std::uint16_t(hex(id.substr(0, 4)));
      p.device = std::uint16_t(hex(id.substr(5, 4)));
      p.class_id = std::uint16_t(hex(after(line, "class=").substr(0, 4)));
      e.pci.push_back(p);
    }
  }
  return e;
}

HwlocExpected parse_xml(const std::string& text) {
  HwlocExpected e;
  std::size_t at = 0;
  while ((at = text.find("<object type=\"", at)) != std::string::npos) {
    at += 14;
    std::string type = text.substr(at, text.find('"', at) - at);
    std::string tag = text.substr(at, text.find('>', at) - at);
    ++e.counts[type];
    if (type == "NUMANode")
      e.total_bytes += std::strtoull(after(tag, "local_memory=\"").c_str(), nullptr, 10);
    if (type == "PCIDev") {
      HwlocExpected::Pci p;
      p.busid = after(tag, "pci_busid=\"");
      std::string t = tag.substr(tag.find("pci_type=\"") + 10);  // "0100 [1000:0058] ..."
      p.class_id = std::uint16_t(hex(t.substr(0, 4)));
      p.vendor = std::uint16_t(hex(t.substr(6, 4)));
      p.device = std::uint16_t(hex(t.substr(11, 4)));
      e.pci.push_back(p);
    }
  }
  return e;
}

// hwloc_expected.txt: "NAME FIELD VALUE # reason" lines, blank lines and
// comments ignored. Every line must carry its reason.
struct Reviewed {
  std::map<std::string, std::map<std::string, std::string>> values;
  std::vector<std::string> errors;
};

const Reviewed& reviewed() {
  static const Reviewed table = [] {
    Reviewed r;
    auto text = testing::slurp(testing::source_path("tests/corpus/hwloc_expected.txt"));
    if (!text) {
      r.errors.push_back("tests/corpus/hwloc_expected.txt cannot be read");
      return r;
    }
    std::istringstream in(*text);
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
      ++number;
      if (line.empty() || line[0] == '#') continue;
      auto hash = line.find(" # ");
      std::istringstream words(line.substr(0, hash));
      std::string name, field, value;
      if (!(words >> name >> field >> value) || hash == std::string::npos ||
          line.size() - hash < 10) {
        r.errors.push_back("hwloc_expected.txt:" + std::to_string(number) +
                           ": expected NAME FIELD VALUE # reason");
        continue;
      }
      r.values[name][field] = value;
    }
    return r;
  }();
  return table;
}

std::optional<std::string> reviewed_value(const std::string& name, const std::string& field) {
  const auto& values = reviewed().values;
  auto it = values.find(name);
  if (it == values.end()) return std::nullopt;
  auto f = it->second.find(field);
  if (f == it->second.end()) return std::nullopt;
  return f->second;
}

std::vector<std::string> tree_names() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(testing::real_capture_path(kDir), ec))
    if (e.path().extension() == ".test") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string temp_dir() {
  std::error_code ec;
  fs::path base = fs::is_directory("/dev/shm", ec) && ::access("/dev/shm", W_OK) == 0
                      ? fs::path("/dev/shm")
                      : fs::temp_directory_path();
  std::string pattern = (base / "hwloc-corpus-XXXXXX").string();
  return ::mkdtemp(pattern.data()) ? pattern : "";
}

bool near(std::uint64_t actual, std::uint64_t expected, double fraction) {
  return std::fabs(double(actual) - double(expected)) <= fraction * double(expected);
}

class HwlocCorpus : public ::testing::TestWithParam<std::string> {
 protected:
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  std::string dir_;
};

TEST_P(HwlocCorpus, AgreesWithHwloc) {
  const std::string& name = GetParam();
  const std::string base = testing::real_capture_path(kDir + "/" + name);
  for (const auto& error : reviewed().errors) ADD_FAILURE() << error;

  // hwloc's expected output, parsed here (NAME.test names it).
  auto test_file = testing::slurp(base + ".test");
  ASSERT_TRUE(test_file) << base << ".test";
  std::string source = after(*test_file, "source:");
  HwlocExpected want;
  if (auto console = testing::slurp(base + ".console")) {
    want = parse_console(*console);
  } else if (auto xml = testing::slurp(base + ".xml")) {
    want = parse_xml(*xml);
  } else {
    FAIL() << "no " << name << ".console or .xml";
  }
  ASSERT_GT(want.counts["PU"], 0) << "hwloc's output for " << name << " names no PU";
  // A gather without any meminfo (the PS3's): hwloc gives no memory, nor may we.
  const bool no_memory = reviewed_value(name, "memory") == std::optional<std::string>("none");
  if (!no_memory) {
    ASSERT_GT(want.total_bytes, 0u) << "hwloc's output for " << name << " gives no memory";
  }

  // The tree, as `hwsim import --root` takes it.
  dir_ = temp_dir();
  ASSERT_FALSE(dir_.empty());
  std::string command = "tar -xjf '" + base + ".tar.bz2' -C '" + dir_ + "'";
  ASSERT_EQ(std::system(command.c_str()), 0)
      << command << " (ci/setup test installs tar and bzip2)";
  std::vector<fs::path> tops;
  for (const auto& e : fs::directory_iterator(dir_)) tops.push_back(e.path());
  ASSERT_EQ(tops.size(), 1u) << name << ": the tarball holds one folder";
  (void)source;

  // The budget is on this process's CPU time: the wall clock of a CI machine
  // shared with other jobs measured 648 ms for a 170 ms import.
  Stopwatch watch;
  const std::clock_t cpu_start = std::clock();
  DiskTree tree(tops.front().string());
  sim::ImportOptions options;
  options.label = name;
  sim::ImportResult imported = sim::import_tree(tree, options);
  const double import_ms = watch.elapsed_ms();
  const double import_cpu_ms = 1000.0 * double(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  ASSERT_TRUE(imported.error.empty()) << imported.error;
  redact(imported.snapshot);
  RecordProperty("import_ms", std::to_string(int(import_ms)));
  RecordProperty("import_cpu_ms", std::to_string(int(import_cpu_ms)));
  std::cout << "[ corpus ] " << name << ": imported " << imported.files << " files in "
            << int(import_ms) << " ms (" << int(import_cpu_ms) << " ms CPU)\n";
  EXPECT_LT(import_cpu_ms, kImportBudgetMs)
      << name << ": import took " << import_cpu_ms << " ms of CPU (" << import_ms << " ms wall)";

  // Through the YAML and back, as `hwsim replay` reads it.
  std::string yaml = write_snapshot(imported.snapshot);
  Snapshot loaded;
  auto error = parse_snapshot(yaml, name + ".yaml", loaded);
  ASSERT_FALSE(error) << error->to_string();
  SnapshotHost host(std::move(loaded));
  Detection d = detect(host, {});
  const HostResources& r = d.system.resources;
  const Facts& facts = d.host.facts;

  auto table_int = [&](const char* field, std::int64_t fallback) {
    auto v = reviewed_value(name, field);
    return v ? std::stoll(*v) : fallback;
  };

  // Architecture: hwloc does not print it; the reviewed table says what it is.
  auto arch = reviewed_value(name, "arch");
  ASSERT_TRUE(arch) << name << ": hwloc_expected.txt has no arch line";
  EXPECT_EQ(facts.arch, *arch == "unknown" ? "" : *arch) << name;
  if (auto kernel = reviewed_value(name, "kernel")) {
    EXPECT_EQ(facts.kernel, *kernel) << name;
  }
  if (auto page = reviewed_value(name, "page_size")) {
    EXPECT_EQ(facts.page_size, std::stoll(*page)) << name;
  }

  // CPUs: hwloc shows what the capturing process could use (its cgroup).
  const int pu = want.counts["PU"];
  EXPECT_EQ(int(r.usable.size()), pu) << name << ": usable CPUs";
  EXPECT_EQ(r.usable_cpus.threads, pu) << name << ": usable threads";
  const std::int64_t host_cpus = table_int("host_cpus", pu);
  EXPECT_EQ(facts.cpus, host_cpus) << name << ": facts.cpus (online)";
  EXPECT_EQ(std::int64_t(r.online.size()), host_cpus) << name << ": online CPUs";
  EXPECT_EQ(r.usable_cpus.sockets.value_or(-1), table_int("sockets", want.counts["Package"]))
      << name << ": sockets (hwloc Package)";
  const std::int64_t cores =
      table_int("cores", want.counts.count("Core") ? want.counts["Core"] : -1);
  EXPECT_EQ(r.usable_cpus.cores.value_or(-1), cores) << name << ": cores";

  // NUMA nodes and memory.
  EXPECT_EQ(r.usable_numa_nodes, table_int("usable_numa_nodes", want.counts["NUMANode"]))
      << name << ": usable NUMA nodes";
  EXPECT_EQ(r.numa_nodes, table_int("host_numa_nodes", want.counts["NUMANode"]))
      << name << ": NUMA nodes";
  // cpu:0 (and so the summary) has the system scan's host total, whichever
  // file it came from.
  auto cpu = std::find_if(d.entries.begin(), d.entries.end(),
                          [](const Entry& e) { return e.type == DeviceType::cpu; });
  ASSERT_NE(cpu, d.entries.end()) << name << ": no cpu entry";
  EXPECT_EQ(cpu->memory.total_bytes, r.memory_bytes)
      << name << ": cpu:0 memory (" << cpu->memory.source << ") vs " << r.memory_source;
  if (no_memory) {
    EXPECT_FALSE(r.memory_bytes) << name << ": " << r.memory_source;
    EXPECT_FALSE(r.usable_memory_bytes) << name;
  } else {
    ASSERT_TRUE(r.usable_memory_bytes) << name;
    const std::uint64_t usable_memory =
        std::uint64_t(table_int("usable_memory_mib", std::int64_t(want.total_bytes >> 20))) << 20;
    EXPECT_TRUE(near(*r.usable_memory_bytes, usable_memory, 0.02))
        << name << ": usable memory " << *r.usable_memory_bytes << " vs " << usable_memory
        << " (hwloc " << want.total_bytes << ")";
    ASSERT_TRUE(r.memory_bytes) << name;
    const std::uint64_t host_memory =
        std::uint64_t(table_int("host_memory_mib", std::int64_t(usable_memory >> 20))) << 20;
    EXPECT_TRUE(near(*r.memory_bytes, host_memory, 0.02))
        << name << ": host memory " << *r.memory_bytes << " (" << r.memory_source << ") vs "
        << host_memory;
  }

  // Every PCI function hwloc shows (accelerators, bridges aside) is on our bus
  // with the same ids and class.
  auto bus = scan_pci_bus(host);
  for (const auto& p : want.pci) {
    auto it = std::find_if(bus.begin(), bus.end(),
                           [&](const PciDevice& b) { return b.address == p.busid; });
    ASSERT_NE(it, bus.end()) << name << ": PCI " << p.busid << " not found";
    EXPECT_EQ(it->vendor, p.vendor) << p.busid;
    EXPECT_EQ(it->device, p.device) << p.busid;
    EXPECT_EQ(it->class_code >> 8, p.class_id) << p.busid;
  }
  // The accelerators hwloc shows (co-processors, processing accelerators, 3D
  // controllers) are all the ones on our bus.
  auto accelerator = [](std::uint16_t class_id) {
    return class_id == 0x0b40 || (class_id >> 8) == 0x12 || class_id == 0x0302;
  };
  std::set<std::string> theirs, ours;
  for (const auto& p : want.pci)
    if (accelerator(p.class_id)) theirs.insert(p.busid);
  for (const auto& b : bus)
    if (accelerator(std::uint16_t(b.class_code >> 8))) ours.insert(b.address);
  EXPECT_EQ(ours, theirs) << name << ": PCI accelerators";
  EXPECT_EQ(std::int64_t(theirs.size()), table_int("accelerators", std::int64_t(theirs.size())));
}

INSTANTIATE_TEST_SUITE_P(RealMachines, HwlocCorpus, ::testing::ValuesIn(tree_names()),
                         [](const auto& info) { return testing::test_name(info.param); });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(HwlocCorpus);

// The corpus is all there, and the reviewed table names only trees it has.
TEST(HwlocCorpusTable, CoversEveryTree) {
  auto names = tree_names();
  if (names.empty())
    GTEST_FAIL() << "the hwloc corpus is not at " << testing::real_capture_path(kDir)
                 << " (fixtures/real/hwloc-linux is part of the repository)";
  EXPECT_EQ(names.size(), 40u);
  for (const auto& [left_out, why] : kNotInCorpus)
    EXPECT_FALSE(std::count(names.begin(), names.end(), left_out)) << left_out << ": " << why;
  for (const auto& error : reviewed().errors) ADD_FAILURE() << error;
  for (const auto& [name, fields] : reviewed().values)
    EXPECT_TRUE(std::count(names.begin(), names.end(), name)) << name << " is not in the corpus";
  for (const auto& name : names) EXPECT_TRUE(reviewed_value(name, "arch")) << name;
}

}  // namespace
}  // namespace hwaccel
