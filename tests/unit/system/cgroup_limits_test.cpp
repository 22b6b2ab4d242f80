// The cgroup of this process: its CPUs, NUMA nodes and memory limit, through
// /proc/self/cgroup and the mount table, on cgroup v2 (a Slurm job step), v1
// (a Docker container) and the old cpuset filesystem (hwloc's 2009 trees).
#include "src/system/cgroup_limits.h"

#include <gtest/gtest.h>

#include "src/plan/catalogue.h"
#include "src/plan/devices.h"
#include "src/probe/cpu_probe.h"
#include "src/system/host_resources.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

// A Slurm step under cgroup v2 on the shape of hwloc's 32intel64-2p8co2t tree
// (2 sockets x 8 cores x 2 threads, CPU n and n+16 siblings), with 126 GiB:
// slurmstepd confines the step to 6 CPUs and the job to 96 GiB (memory.max on
// job_4242, above the step, whose own memory.max is "max").
void slurm_step(testing::FakeHost& h) {
  h.files["/sys/devices/system/cpu/online"] = "0-31\n";
  for (int cpu = 0; cpu < 32; ++cpu) {
    std::string dir = "/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/topology/";
    h.files[dir + "physical_package_id"] = std::to_string((cpu % 16) / 8) + "\n";
    h.files[dir + "core_id"] = std::to_string(cpu % 8) + "\n";
  }
  for (int node = 0; node < 2; ++node)
    h.files["/sys/devices/system/node/node" + std::to_string(node) + "/meminfo"] =
        "Node " + std::to_string(node) + " MemTotal:       66060288 kB\n";
  h.files["/proc/meminfo"] = "MemTotal:       132120576 kB\nMemAvailable:   120000000 kB\n";
  h.files["/proc/self/cgroup"] = "0::/system.slice/slurmstepd.scope/job_4242/step_0/user/task_0\n";
  h.files["/proc/self/mountinfo"] =
      "22 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw\n"
      "30 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 "
      "rw,nsdelegate,memory_recursiveprot\n";
  const std::string job = "/sys/fs/cgroup/system.slice/slurmstepd.scope/job_4242";
  h.files[job + "/memory.max"] = "103079215104\n";
  h.files[job + "/cpuset.cpus.effective"] = "4-6,20-22\n";
  h.files[job + "/step_0/memory.max"] = "max\n";
  h.files[job + "/step_0/cpuset.cpus.effective"] = "4-6,20-22\n";
  h.files[job + "/step_0/user/task_0/memory.max"] = "max\n";
  h.files[job + "/step_0/user/task_0/cpuset.cpus.effective"] = "4-6,20-22\n";
  h.files[job + "/step_0/user/task_0/cpuset.mems.effective"] = "0-1\n";
}

TEST(CgroupLimits, SlurmStepOnCgroupV2) {
  testing::FakeHost h;
  slurm_step(h);
  CgroupLimits c = read_cgroup_limits(h);
  EXPECT_EQ(c.version, 2);
  EXPECT_EQ(c.path, "/system.slice/slurmstepd.scope/job_4242/step_0/user/task_0");
  ASSERT_TRUE(c.cpus);
  EXPECT_EQ(*c.cpus, (std::vector<int>{4, 5, 6, 20, 21, 22}));
  ASSERT_TRUE(c.memory_limit);
  EXPECT_EQ(*c.memory_limit, 96ull << 30);  // the job's, not the step's "max"
  EXPECT_EQ(c.memory_file, "/sys/fs/cgroup/system.slice/slurmstepd.scope/job_4242/memory.max");

  std::vector<Warning> warnings;
  HostResources r = scan_host_resources(h, warnings);
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(r.online.size(), 32u);
  EXPECT_EQ(cpu_counts_text(r.cpus), "2 sockets, 16 cores, 32 threads");
  EXPECT_EQ(r.numa_nodes, 2);
  EXPECT_EQ(*r.memory_bytes, 126ull << 30);
  EXPECT_EQ(r.usable.size(), 6u);
  EXPECT_EQ(cpu_counts_text(r.usable_cpus), "1 socket, 3 cores, 6 threads");
  EXPECT_EQ(*r.usable_memory_bytes, 96ull << 30);
  ASSERT_EQ(r.limited_by.size(), 2u);
  EXPECT_NE(r.limited_by[0].find("cpuset.cpus.effective 4-6,20-22"), std::string::npos);
  EXPECT_NE(r.limited_by[1].find("job_4242/memory.max 96.0 GiB"), std::string::npos);
}

// The step's 96 GiB, not the host's 126, is what cpu:0 offers a plan.
TEST(CgroupLimits, TheCpuEntryAndThePlanUseTheStepsMemory) {
  testing::FakeHost h;
  slurm_step(h);
  h.files["/proc/cpuinfo"] = "processor\t: 0\nmodel name\t: Intel(R) Xeon(R) Silver 4108\n";
  ProbeResult r = CpuProbe().run(h);
  ASSERT_EQ(r.entries.size(), 1u);
  const Entry& cpu = r.entries[0];
  EXPECT_EQ(*cpu.memory.total_bytes, 126ull << 30);
  EXPECT_EQ(*cpu.memory.working_set_limit_bytes, 96ull << 30);
  EXPECT_EQ(*cpu.memory.free_bytes, 96ull << 30);  // MemAvailable (114 GiB) capped
  EXPECT_EQ(cpu.memory.source, "/proc/meminfo (cgroup v2 limit)");

  Detection d;
  d.entries = r.entries;
  plan::DeviceOptions options;
  auto built = plan::build_devices(d, plan::builtin_catalogue(), options);
  ASSERT_TRUE(built.set) << built.error;
  ASSERT_FALSE(built.set->devices.empty());
  EXPECT_EQ(built.set->devices[0].total_bytes, double(96ull << 30));
}

TEST(CgroupLimits, DockerOnCgroupV1WithANamespaceRoot) {
  testing::FakeHost h;
  // Inside the container the hierarchies are mounted at their cgroup's folder.
  h.files["/proc/self/cgroup"] =
      "12:memory:/docker/0123abcd\n11:cpuset:/docker/0123abcd\n1:name=systemd:/docker/0123abcd\n";
  h.files["/proc/self/mountinfo"] =
      "700 690 0:60 /docker/0123abcd /sys/fs/cgroup/cpuset ro,nosuid - cgroup cgroup rw,cpuset\n"
      "701 690 0:61 /docker/0123abcd /sys/fs/cgroup/memory ro,nosuid - cgroup cgroup rw,memory\n";
  h.files["/sys/fs/cgroup/cpuset/cpuset.cpus"] = "0-3\n";
  h.files["/sys/fs/cgroup/cpuset/cpuset.mems"] = "0\n";
  h.files["/sys/fs/cgroup/memory/memory.limit_in_bytes"] = "8589934592\n";
  CgroupLimits c = read_cgroup_limits(h);
  EXPECT_EQ(c.version, 1);
  EXPECT_EQ(c.cpus->size(), 4u);
  EXPECT_EQ(*c.mems, std::vector<int>{0});
  EXPECT_EQ(*c.memory_limit, 8ull << 30);

  // v1's "no limit" is a huge number, not a limit.
  h.files["/sys/fs/cgroup/memory/memory.limit_in_bytes"] = "9223372036854771712\n";
  EXPECT_FALSE(read_cgroup_limits(h).memory_limit);
}

// hwloc's 32amd64-4s2n4c-cgroup2 tree (a Slurm step): no /proc/self/cgroup,
// but /proc/self/cpuset names the step and /proc/mounts has a cgroup2 mount
// (beside v1 memory and freezer hierarchies, which have no path to follow).
TEST(CgroupLimits, CgroupV2FoundThroughProcSelfCpuset) {
  testing::FakeHost h;
  h.files["/proc/self/cpuset"] = "/uid_2008/job_15389/step_0\n";
  h.files["/proc/mounts"] =
      "none /cgroup/freezer cgroup rw,relatime,freezer 0 0\n"
      "none /cgroup/memory cgroup rw,relatime,memory 0 0\n"
      "none /cgroup/unified cgroup2 rw 0 0\n";
  const std::string step = "/cgroup/unified/uid_2008/job_15389/step_0";
  h.files[step + "/cpuset.cpus.effective"] = "0-5\n";
  h.files[step + "/cpuset.mems.effective"] = "0-5\n";
  CgroupLimits c = read_cgroup_limits(h);
  EXPECT_EQ(c.version, 2);
  EXPECT_EQ(c.path, "/uid_2008/job_15389/step_0");
  ASSERT_TRUE(c.cpus);
  EXPECT_EQ(*c.cpus, (std::vector<int>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(c.cpus_file, step + "/cpuset.cpus.effective");
  ASSERT_TRUE(c.mems);
  EXPECT_EQ(c.mems->size(), 6u);
  EXPECT_EQ(locate_cgroup_folder(h, "devices").dir, step);

  // With /proc/self/cgroup there, its "0::" line is the path, not the cpuset's.
  h.files["/proc/self/cgroup"] = "0::/elsewhere\n";
  h.files["/cgroup/unified/elsewhere/cpuset.cpus.effective"] = "7\n";
  EXPECT_EQ(*read_cgroup_limits(h).cpus, std::vector<int>{7});
}

// A Kubernetes container with resources.limits.cpu: "4" on a 32-CPU node
// (cgroup v2, namespaced: the container's cgroup is the mount's root). The
// cpuset allows all 32; cpu.max gives 4 CPUs' time.
TEST(CgroupLimits, PodCpuQuotaOnCgroupV2) {
  testing::FakeHost h;
  h.files["/sys/devices/system/cpu/online"] = "0-31\n";
  h.files["/proc/self/cgroup"] = "0::/\n";
  h.files["/proc/self/mountinfo"] =
      "1201 1190 0:31 / /sys/fs/cgroup ro,nosuid,nodev,noexec,relatime - cgroup2 cgroup2 rw\n";
  h.files["/sys/fs/cgroup/cpuset.cpus.effective"] = "0-31\n";
  h.files["/sys/fs/cgroup/cpu.max"] = "400000 100000\n";
  CgroupLimits c = read_cgroup_limits(h);
  ASSERT_TRUE(c.cpu_quota);
  EXPECT_EQ(c.cpu_quota->whole_cpus(), 4);
  EXPECT_EQ(c.cpu_quota_file, "/sys/fs/cgroup/cpu.max");

  std::vector<Warning> warnings;
  HostResources r = scan_host_resources(h, warnings);
  EXPECT_EQ(r.usable.size(), 32u);   // it may run on every CPU ...
  EXPECT_EQ(r.usable_cpu_count, 4);  // ... for 4 CPUs' time
  ASSERT_EQ(r.limited_by.size(), 1u);
  EXPECT_EQ(r.limited_by[0],
            "cgroup v2 /: /sys/fs/cgroup/cpu.max 400000 100000 (CPU time of 4 CPUs of the 32 "
            "CPUs it may run on)");

  // "max": no quota; a fraction counts up (2.5 CPUs' time keeps 3 threads busy).
  h.files["/sys/fs/cgroup/cpu.max"] = "max 100000\n";
  EXPECT_FALSE(read_cgroup_limits(h).cpu_quota);
  h.files["/sys/fs/cgroup/cpu.max"] = "250000 100000\n";
  r = scan_host_resources(h, warnings);
  EXPECT_EQ(r.usable_cpu_count, 3);
  EXPECT_EQ(cpu_quota_text(*r.cgroup.cpu_quota), "CPU time of 2.5 CPUs, counted as 3");
  EXPECT_TRUE(warnings.empty());
}

// Docker --cpus=2 on cgroup v1: cpu.cfs_quota_us / cpu.cfs_period_us in the
// cpu,cpuacct hierarchy; a quota above the cpuset's CPUs does not bind.
TEST(CgroupLimits, DockerCfsQuotaOnCgroupV1) {
  testing::FakeHost h;
  h.files["/sys/devices/system/cpu/online"] = "0-7\n";
  h.files["/proc/self/cgroup"] = "4:cpu,cpuacct:/docker/0123abcd\n11:cpuset:/docker/0123abcd\n";
  h.files["/proc/self/mountinfo"] =
      "700 690 0:60 /docker/0123abcd /sys/fs/cgroup/cpu,cpuacct ro,nosuid - cgroup cgroup "
      "rw,cpu,cpuacct\n"
      "701 690 0:61 /docker/0123abcd /sys/fs/cgroup/cpuset ro,nosuid - cgroup cgroup rw,cpuset\n";
  h.files["/sys/fs/cgroup/cpuset/cpuset.cpus"] = "0-3\n";
  h.files["/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us"] = "200000\n";
  h.files["/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us"] = "100000\n";
  std::vector<Warning> warnings;
  HostResources r = scan_host_resources(h, warnings);
  EXPECT_EQ(r.usable.size(), 4u);
  EXPECT_EQ(r.usable_cpu_count, 2);
  ASSERT_EQ(r.limited_by.size(), 2u);
  EXPECT_EQ(r.limited_by[1],
            "cgroup v1 /docker/0123abcd: /sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us 200000 "
            "100000 (CPU time of 2 CPUs of the 4 CPUs it may run on)");

  h.files["/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us"] = "-1\n";  // v1's "no quota"
  EXPECT_FALSE(read_cgroup_limits(h).cpu_quota);
  h.files["/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us"] = "800000\n";  // 8 CPUs' time, 4 CPUs
  r = scan_host_resources(h, warnings);
  EXPECT_EQ(r.usable_cpu_count, 4);
  EXPECT_EQ(r.limited_by.size(), 1u);
}

TEST(CgroupLimits, NoCgroupAndGarbage) {
  testing::FakeHost none;
  EXPECT_EQ(read_cgroup_limits(none).version, 0);

  testing::FakeHost bad;
  bad.files["/proc/self/cgroup"] = "0::/job\n";
  bad.files["/proc/mounts"] = "cgroup2 /sys/fs/cgroup cgroup2 rw 0 0\n";
  bad.files["/sys/fs/cgroup/job/cpuset.cpus.effective"] = "lots\n";
  bad.files["/sys/fs/cgroup/job/memory.max"] = "-5\n";
  CgroupLimits c = read_cgroup_limits(bad);
  EXPECT_FALSE(c.cpus);
  EXPECT_FALSE(c.memory_limit);
  ASSERT_EQ(c.notes.size(), 2u);
  EXPECT_NE(c.notes[0].find("/sys/fs/cgroup/job/cpuset.cpus.effective: expected a CPU list"),
            std::string::npos);
}

TEST(CgroupLimits, Parsers) {
  auto groups = parse_proc_self_cgroup("4:cpuset,cpu:/a b\n0::/\nbroken\n:x\n");
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].controllers, (std::vector<std::string>{"cpuset", "cpu"}));
  EXPECT_EQ(groups[0].path, "/a b");
  auto mounts = parse_mountinfo(
      "36 35 98:0 /mnt1 /mnt\\040two rw,noatime master:1 - cgroup cgroup rw,cpuset,noprefix\n"
      "short line\n");
  ASSERT_EQ(mounts.size(), 1u);
  EXPECT_EQ(mounts[0].root, "/mnt1");
  EXPECT_EQ(mounts[0].mount_point, "/mnt two");
  EXPECT_EQ(mounts[0].fstype, "cgroup");
  EXPECT_NE(std::find(mounts[0].options.begin(), mounts[0].options.end(), "noprefix"),
            mounts[0].options.end());
  // A line that ends after "- fstype source" (found by the runtime_env fuzz target,
  // which read one word past the end): read without its super-options.
  auto cut = parse_mountinfo("30 23 0:26 / /sys/fs/cgroup rw,nosuid shared:2 - cgroup2 cgroup2\n");
  ASSERT_EQ(cut.size(), 1u);
  EXPECT_EQ(cut[0].fstype, "cgroup2");
  EXPECT_EQ(cut[0].options, (std::vector<std::string>{"rw", "nosuid"}));
  auto old = parse_proc_mounts("none /dev/cpuset cpuset rw 0 0\n");
  ASSERT_EQ(old.size(), 1u);
  EXPECT_EQ(old[0].fstype, "cpuset");
  EXPECT_EQ(parse_cgroup_memory_limit("max\n"), std::nullopt);
  EXPECT_EQ(parse_cgroup_memory_limit("1048576\n"), 1048576u);
  EXPECT_EQ(parse_cpu_max("150000 100000\n")->whole_cpus(), 2);
  EXPECT_EQ(parse_cpu_max("50000")->period_us, 100000u);
  EXPECT_FALSE(parse_cpu_max("max 100000"));
  EXPECT_FALSE(parse_cpu_max("0 100000"));
  EXPECT_FALSE(parse_cpu_max("100000 0"));
  EXPECT_FALSE(parse_cpu_max("100000 2000000"));  // the kernel's period is at most 1 s
  EXPECT_FALSE(parse_cpu_max("1 2 3"));
  EXPECT_FALSE(parse_cpu_max(""));
}

TEST(HostResources, NodeMeminfoSumsWithoutProcMeminfo) {
  testing::FakeHost h;  // hwloc's 16amd64-8n2c shape: no /proc/meminfo
  h.files["/sys/devices/system/cpu/online"] = "0-1\n";
  h.files["/sys/devices/system/node/node0/meminfo"] = "Node 0 MemTotal:      8386704 kB\n";
  h.files["/sys/devices/system/node/node1/meminfo"] = "Node 1 MemTotal:      8388608 kB\n";
  std::vector<Warning> warnings;
  HostResources r = scan_host_resources(h, warnings);
  ASSERT_TRUE(r.memory_bytes);
  EXPECT_EQ(*r.memory_bytes, (8386704ull + 8388608ull) * 1024);
  EXPECT_NE(r.memory_source.find("no /proc/meminfo: the sum of 2"), std::string::npos);
  EXPECT_EQ(r.numa_nodes, 2);
  EXPECT_EQ(parse_node_meminfo_total("Node 12 MemTotal:  4 kB\n"), 4096u);
}

}  // namespace
}  // namespace hwaccel
