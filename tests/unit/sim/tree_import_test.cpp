// hwsim import over the two hwloc-gather-topology tarballs in fixtures/real
// (extracted here with tar) and over small trees made by the test: the snapshot's
// CPU, memory and PCI bus must be the tree's.
#include "sim/tree_import.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include "src/host/snapshot_host.h"
#include "src/probe/pci_bus.h"
#include "src/probe/proc_cpuinfo.h"
#include "src/probe/proc_meminfo.h"
#include "src/snapshot/snapshot_codec.h"
#include "tests/support/test_support.h"

namespace hwaccel::sim {
namespace {

namespace fs = std::filesystem;

// In memory when the machine has /dev/shm: a tarball of 9,000 small files takes 30 s
// to extract on a busy CI disk and 1 s in tmpfs.
std::string temp_dir() {
  std::error_code ec;
  fs::path base = fs::is_directory("/dev/shm", ec) && ::access("/dev/shm", W_OK) == 0
                      ? fs::path("/dev/shm")
                      : fs::temp_directory_path();
  std::string pattern = (base / "hwsim-import-XXXXXX").string();
  return ::mkdtemp(pattern.data()) ? pattern : "";
}

// Extracts a fixtures/real tarball; returns the folder it holds ("" when missing).
std::string extract(const std::string& tarball, const std::string& top) {
  std::string archive = testing::real_capture_path(tarball);
  if (!fs::exists(archive)) return "";
  std::string dir = temp_dir();
  std::string command = "tar -xjf '" + archive + "' -C '" + dir + "'";
  if (std::system(command.c_str()) != 0) {
    ADD_FAILURE() << command << " failed (ci/setup test installs tar and bzip2)";
    return "";
  }
  return dir + "/" + top;
}

std::string read_disk(const fs::path& p) {
  return testing::slurp(p.string()).value_or("<unreadable>");
}

struct Tarball {
  const char* file;
  const char* top;  // the folder the tarball holds
  std::int64_t cpus;
  const char* model;
  std::uint64_t mem_total_kib;
  std::size_t pci_devices;
};

// Each tarball is extracted and imported once for all the tests that look at it.
struct Imported {
  std::string root;  // "" when the capture is missing
  ImportResult result;
  Imported() = default;
  Imported(const Imported&) = delete;
  ~Imported() {
    if (!root.empty()) fs::remove_all(fs::path(root).parent_path());
  }
};

const Imported& imported(const std::string& file, const std::string& top) {
  static std::map<std::string, Imported> cache;
  auto it = cache.find(file);
  if (it != cache.end()) return it->second;
  Imported& entry = cache[file];
  entry.root = extract(file, top);
  if (!entry.root.empty()) {
    DiskTree tree(entry.root);
    ImportOptions options;
    options.label = top;
    entry.result = import_tree(tree, options);
  }
  return entry;
}

class HwlocImport : public ::testing::TestWithParam<Tarball> {};

TEST_P(HwlocImport, CpuMemoryAndPciMatchTheTree) {
  const Tarball& t = GetParam();
  const Imported& imp = imported(t.file, t.top);
  const std::string& root = imp.root;
  if (root.empty())
    GTEST_FAIL() << "real capture " << t.file << " not found under "
                 << testing::real_capture_path("");
  const ImportResult& result = imp.result;
  ASSERT_TRUE(result.error.empty()) << result.error;
  EXPECT_EQ(result.snapshot.host.origin, "imported");
  EXPECT_EQ(result.snapshot.facts.cpus, t.cpus);
  EXPECT_EQ(result.snapshot.facts.arch, "x86_64");
  EXPECT_EQ(result.snapshot.facts.os, "linux");

  // Through the YAML and back, as `hwsim import` then `hwsim replay` would.
  std::string yaml = write_snapshot(result.snapshot);
  Snapshot loaded;
  auto error = parse_snapshot(yaml, "imported.yaml", loaded);
  ASSERT_FALSE(error) << error->to_string();
  EXPECT_EQ(write_snapshot(loaded), yaml);
  SnapshotHost host(std::move(loaded));

  auto cpuinfo = host.read("/proc/cpuinfo");
  ASSERT_TRUE(cpuinfo.ok());
  EXPECT_EQ(*cpuinfo, read_disk(fs::path(root) / "proc/cpuinfo"));
  EXPECT_EQ(parse_proc_cpuinfo(*cpuinfo).vendor, "Intel");
  EXPECT_NE(cpuinfo->find(std::string("model name\t: ") + t.model), std::string::npos);

  auto meminfo = host.read("/proc/meminfo");
  ASSERT_TRUE(meminfo.ok());
  EXPECT_EQ(parse_proc_meminfo(*meminfo).total_bytes, t.mem_total_kib * 1024);

  // The PCI bus as the probes see it, against the tree's own folders and attributes.
  auto devices = scan_pci_bus(host);
  EXPECT_EQ(devices.size(), t.pci_devices);
  std::size_t compared = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(root) / "sys/bus/pci/devices")) {
    std::string address = entry.path().filename().string();
    auto it = std::find_if(devices.begin(), devices.end(),
                           [&](const PciDevice& d) { return d.address == address; });
    ASSERT_NE(it, devices.end()) << address;
    EXPECT_EQ(parse_sysfs_hex(read_disk(entry.path() / "vendor")), it->vendor) << address;
    EXPECT_EQ(parse_sysfs_hex(read_disk(entry.path() / "device")), it->device) << address;
    EXPECT_EQ(parse_sysfs_hex(read_disk(entry.path() / "class")), it->class_code) << address;
    std::error_code ec;
    auto driver = fs::read_symlink(entry.path() / "driver", ec);
    EXPECT_EQ(it->driver, ec ? "" : driver.filename().string()) << address;
    ++compared;
  }
  EXPECT_EQ(compared, t.pci_devices);
}

INSTANTIATE_TEST_SUITE_P(
    RealCaptures, HwlocImport,
    ::testing::Values(Tarball{"hwloc-40intel64-4n10c+pci-conflicts.tar.bz2",
                              "40intel64-4n10c+pci-conflicts", 40,
                              "Intel(R) Xeon(R) CPU E7- 4870  @ 2.40GHz", 529428392, 3},
                      Tarball{"hwloc-32em64t-2n8c+dax+nvme+mic+dimms.tar.bz2", "32em64t-2n8c+1mic",
                              16, "Intel(R) Xeon(R) CPU E5-2680 0 @ 2.70GHz", 32836008, 137}),
    [](const auto& info) { return std::string(info.param.cpus == 40 ? "Intel40" : "Intel16Mic"); });

TEST(HwlocImport, KnownDevicesOfThe40ThreadHost) {
  const Imported& imp =
      imported("hwloc-40intel64-4n10c+pci-conflicts.tar.bz2", "40intel64-4n10c+pci-conflicts");
  if (imp.root.empty())
    GTEST_FAIL() << "real capture not found under " << testing::real_capture_path("");
  const ImportResult& result = imp.result;
  ASSERT_TRUE(result.error.empty()) << result.error;
  SnapshotHost host(result.snapshot);
  auto devices = scan_pci_bus(host);
  ASSERT_EQ(devices.size(), 3u);
  EXPECT_EQ(devices[0].address, "0000:00:00.0");
  EXPECT_EQ(devices[0].vendor, 0x8086);
  EXPECT_EQ(devices[0].device, 0x3407);
  EXPECT_EQ(devices[0].class_code, 0x060000u);
  EXPECT_EQ(devices[2].address, "0000:01:00.0");
  EXPECT_EQ(devices[2].vendor, 0x1000);  // an LSI SAS controller
  EXPECT_EQ(devices[2].device, 0x0079);
  EXPECT_EQ(devices[2].class_code, 0x010400u);
  // The links stay links: /sys/bus/pci/devices/X points into /sys/devices.
  EXPECT_EQ(*host.readlink("/sys/bus/pci/devices/0000:01:00.0"),
            "../../../devices/pci0000:00/0000:00:03.0/0000:01:00.0");
}

// A small tree made here: caps, errors, empty folders, nodes, excluded /proc/<pid>.
class SmallTree : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = temp_dir();
    fs::create_directories(root_ + "/proc/1234");
    fs::create_directories(root_ + "/sys/class/drm");
    fs::create_directories(root_ + "/dev");
    write("/proc/1234/status", "Name: x\n");
    write("/proc/cpuinfo", "processor\t: 0\nCPU implementer\t: 0x41\n\nprocessor\t: 1\n");
    write("/proc/sys/kernel/osrelease", "6.17.0-1014-nvidia\n");
    write("/proc/sys/kernel/hostname", "spark-1\n");
    write("/sys/devices/system/cpu/online", "0-19\n");
    write("/big", std::string(2000, 'x'));
    write("/bin.dat", std::string("\x00\xff\x10", 3));
    fs::create_symlink("../../devices/card0", root_ + "/sys/class/drm/card0");
    ::mkfifo((root_ + "/dev/fifo").c_str(), 0600);
  }
  void TearDown() override { fs::remove_all(root_); }
  void write(const std::string& path, const std::string& text) {
    fs::create_directories(fs::path(root_ + path).parent_path());
    std::ofstream(root_ + path, std::ios::binary) << text;
  }
  std::string root_;
};

TEST_F(SmallTree, ImportsEverythingBoundedAndDerivesFacts) {
  DiskTree tree(root_);
  ImportOptions options;
  options.max_file_bytes = 1000;
  ImportResult r = import_tree(tree, options);
  ASSERT_TRUE(r.error.empty()) << r.error;
  const auto& files = r.snapshot.files;
  EXPECT_EQ(files.count("/proc/1234/status"), 0u);  // processes are not the host
  EXPECT_EQ(files.at("/big"), FileEntry::of_error(EFBIG));
  EXPECT_EQ(files.at("/bin.dat"), FileEntry::of_content(std::string("\x00\xff\x10", 3)));
  EXPECT_EQ(files.at("/sys/class/drm/card0"), FileEntry::of_link("../../devices/card0"));
  EXPECT_EQ(files.at("/dev/fifo"), FileEntry::of_node(FileKind::fifo));
  EXPECT_EQ(r.snapshot.facts.cpus, 20);  // the online list wins over /proc/cpuinfo
  EXPECT_EQ(r.snapshot.facts.arch, "aarch64");
  EXPECT_EQ(r.snapshot.facts.kernel, "6.17.0-1014-nvidia");
  EXPECT_EQ(r.snapshot.facts.hostname, "spark-1");
  EXPECT_EQ(r.snapshot.facts.page_size, 4096);
  EXPECT_EQ(r.files, 5u);  // /big is an error entry, not a file
  EXPECT_EQ(r.links, 1u);
  EXPECT_EQ(r.nodes, 1u);
  // Importing twice gives the same bytes.
  EXPECT_EQ(write_snapshot(import_tree(tree, options).snapshot), write_snapshot(r.snapshot));
}

TEST_F(SmallTree, OnlyExcludeAndCaps) {
  DiskTree tree(root_);
  ImportOptions options;
  options.only = {"/proc"};
  options.exclude = {"/proc/sys/kernel/hostname"};
  ImportResult r = import_tree(tree, options);
  ASSERT_TRUE(r.error.empty()) << r.error;
  for (const auto& [path, entry] : r.snapshot.files) EXPECT_EQ(path.rfind("/proc/", 0), 0u) << path;
  EXPECT_EQ(r.snapshot.files.count("/proc/sys/kernel/hostname"), 0u);
  EXPECT_EQ(r.snapshot.files.count("/proc/cpuinfo"), 1u);

  options = {};
  options.max_entries = 3;
  EXPECT_NE(import_tree(tree, options).error.find("more than 3 entries"), std::string::npos);
  options = {};
  options.max_total_bytes = 10;
  EXPECT_NE(import_tree(tree, options).error.find("more than 10 bytes"), std::string::npos);
  DiskTree missing(root_ + "/nowhere");
  EXPECT_FALSE(import_tree(missing, {}).error.empty());
}

TEST(ImportFacts, CpuLists) {
  EXPECT_EQ(count_cpu_list("0-3,8,10-11\n"), 7);
  EXPECT_EQ(count_cpu_list("0\n"), 1);
  EXPECT_FALSE(count_cpu_list(""));
  EXPECT_FALSE(count_cpu_list("3-1"));
  EXPECT_FALSE(count_cpu_list("a-b"));
}

}  // namespace
}  // namespace hwaccel::sim
