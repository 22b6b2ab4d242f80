#include "sim/presets.h"

#include <array>
#include <utility>

namespace hwaccel::sim {
namespace {

// The figures are the fixtures' (each fixture's header says where they come
// from); the presets restate the machine in spec form, not the files.
constexpr std::array<std::pair<std::string_view, std::string_view>, 34> kPresets = {{
    {"amd-no-driver", R"(schema: hwsim-spec/1
label: amd-no-driver
hostname: ws-nodriver-01
kernel: 6.8.0-45-generic
cpu: {model: "Intel(R) Xeon(R) w5-2455X", uarch: sapphire-rapids, sockets: 1, cores: 12, threads: 2}
memory: {total: 131603468 kB, available: 128812344 kB}
accelerators:
  - {sku: radeon-pro-w7900, bus: ["0000:03:00.0"]}
drivers: {amdgpu: missing}
)"},
    {"aws-p5-docker", R"(schema: hwsim-spec/1
label: aws-p5-docker
hostname: 3f1c0e9b5d2a
kernel: 6.8.0-1021-aws
cpu: {model: "AMD EPYC 7R13 Processor", uarch: zen3, sockets: 2, cores: 48, threads: 2}
memory: {total: 2112948142 kB, available: 2089978524 kB}
accelerators:
  - {sku: h100-sxm, count: 8, bus: [53, 64, 75, 86, 97, a8, b9, ca]}
interconnect: nvswitch
drivers: {nvidia: {state: ok, version: 550.54.15}}
env: {PATH: "/usr/local/nvidia/bin:/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}
dmi: {vendor: Amazon EC2, product: p5.48xlarge}
)"},
    {"intel-max-1550", R"(schema: hwsim-spec/1
label: intel-max-1550
hostname: pvc-node-01
kernel: 5.15.0-119-generic
cpu: {model: "Intel(R) Xeon(R) Platinum 8480+", uarch: sapphire-rapids, sockets: 2, cores: 56, threads: 2}
memory: {total: 1056508732 kB, available: 1039811020 kB}
accelerators:
  - {sku: max-1550, count: 4, bus: [29, 3a, 9a, ca], numa: [0, 0, 1, 1]}
)"},
    {"llvmpipe-only", R"(schema: hwsim-spec/1
label: vm
hostname: host-1
kernel: 6.18.44-fc-v595
cpu: {model: "AMD EPYC", uarch: zen3, sockets: 1, cores: 2, threads: 1}
memory: {total: 24684096 kB, available: 21140068 kB}
vm: firecracker
vulkan: {instance: 1.3.239, api: 1.3.230, mesa: 22.3.6, llvm: 15.0.6, drivers: [llvmpipe]}
)"},
    {"mac-studio-m2-ultra", R"(schema: hwsim-spec/1
label: mac-studio-m2-ultra
hostname: studio-m2u
os: darwin
kernel: 23.5.0
cpu: {model: "Apple M2 Ultra", uarch: apple-silicon, cores: 24}
memory: {total: 192 GiB}
accelerators: [m2-ultra]
vulkan: {instance: 1.3.290, drivers: [moltenvk]}
)"},
    {"macbook-pro-m3-max", R"(schema: hwsim-spec/1
label: macbook-pro-m3-max
hostname: mbp-m3max
os: darwin
kernel: 23.5.0
cpu: {model: "Apple M3 Max", uarch: apple-silicon, cores: 16}
memory: {total: 128 GiB}
accelerators: [m3-max]
)"},
    {"meteor-lake-npu", R"(schema: hwsim-spec/1
label: meteor-lake-npu
hostname: mtl-laptop-01
kernel: 6.8.0-45-generic
# 6 P-cores with HT + 10 E-cores = 22 threads, written as 11 cores x 2 threads
cpu: {model: "Intel(R) Core(TM) Ultra 7 155H", uarch: meteor-lake, sockets: 1, cores: 11, threads: 2}
memory: {total: 32210244 kB, available: 28814532 kB}
accelerators:
  - {sku: arc-mtl, bus: ["00:02.0"]}
  - {sku: npu3720, bus: ["00:0b.0"]}
vulkan: {instance: 1.3.275, mesa: 24.0.5-1ubuntu1, llvm: 17.0.6, drivers: [anv, llvmpipe]}
)"},
    {"meteor-lake-npu-denied", R"(schema: hwsim-spec/1
label: meteor-lake-npu-denied
hostname: mtl-laptop-01
kernel: 6.8.0-45-generic
cpu: {model: "Intel(R) Core(TM) Ultra 7 155H", uarch: meteor-lake, sockets: 1, cores: 11, threads: 2}
memory: {total: 32210244 kB, available: 28814532 kB}
accelerators:
  - {sku: arc-mtl, bus: ["00:02.0"]}
  - {sku: npu3720, bus: ["00:0b.0"], node: denied}
vulkan: {instance: 1.3.275, mesa: 24.0.5-1ubuntu1, llvm: 17.0.6, drivers: [anv, llvmpipe]}
)"},
    {"qualcomm-ai100", R"(schema: hwsim-spec/1
label: qualcomm-ai100
hostname: aic-node-01
kernel: 6.8.0-45-generic
cpu: {model: "AMD EPYC 7B13", uarch: zen3, sockets: 2, cores: 32, threads: 2}
memory: {total: 528243012 kB, available: 515880508 kB}
accelerators:
  - {sku: ai100, bus: ["01:00.0"], numa: [0]}
  - {sku: ai100, bus: ["81:00.0"], numa: [1], free: 20404 MiB, nsp_free: 8}
)"},
    {"ryzen-ai-laptop", R"(schema: hwsim-spec/1
label: ryzen-ai-laptop
hostname: strix-laptop-01
kernel: 6.14.0-24-generic
cpu: {model: "AMD Ryzen AI 9 HX 370 w/ Radeon 890M", uarch: zen5, sockets: 1, cores: 12, threads: 2}
memory: {total: 31999048 kB, available: 27346192 kB}
accelerators:
  - {sku: strix-point-igpu, bus: ["c4:00.0"], gtt: 16383512576}
  - {sku: xdna2-strix, bus: ["c6:00.1"]}
)"},
    {"vulkan-desktop", R"(schema: hwsim-spec/1
label: vulkan-desktop
hostname: nvk-desktop-01
kernel: 6.11.4-301.fc41.x86_64
cpu: {model: "AMD Ryzen 7 5800X 8-Core Processor", uarch: zen3, sockets: 1, cores: 8, threads: 2}
memory: {total: 65776812 kB, available: 61230188 kB}
accelerators:
  - {sku: rtx3090, bus: ["0b:00.0"]}
drivers: {nvidia: {state: missing, bound_to: nouveau}}
tools: [vulkaninfo]
vulkan: {instance: 1.3.296, api: 1.3.289, mesa: 24.2.8, llvm: 19.1.0, drivers: [nvk, llvmpipe]}
)"},
    {"vulkan-no-driver", R"(schema: hwsim-spec/1
label: vm
hostname: host-1
kernel: 6.18.44-fc-v595
cpu: {model: "AMD EPYC", uarch: zen3, sockets: 1, cores: 2, threads: 1}
memory: {total: 24684096 kB, available: 21050124 kB}
vm: firecracker
vulkan: {instance: 1.3.239, drivers: []}
)"},
    {"vulkan-no-manifest", R"(schema: hwsim-spec/1
label: host-1
hostname: host-1
kernel: 6.18.44-fc-v595
cpu: {model: "AMD EPYC", uarch: zen3, sockets: 1, cores: 2, threads: 1}
memory: {total: 24684096 kB, available: 23522784 kB}
vm: firecracker
env: {HOME: /root}
vulkan: {instance: 1.3.239, drivers: [], manifest_folders: true}
)"},
    {"llvmpipe-mesa", R"(schema: hwsim-spec/1
label: host-1
hostname: host-1
kernel: 6.18.44-fc-v595
cpu: {model: "AMD EPYC", uarch: zen3, sockets: 1, cores: 2, threads: 1}
memory: {total: 24684096 kB, available: 23715640 kB}
vm: firecracker
env: {HOME: /root}
vulkan: {instance: 1.3.239, drivers: [llvmpipe], manifest_folders: true}
)"},
    {"cpu-only", R"(schema: hwsim-spec/1
label: cpu-only
hostname: cpu-vm-01
kernel: 6.8.0-1034-gcp
cpu: {model: "AMD EPYC 7B13", uarch: zen3, sockets: 1, cores: 2, threads: 2}
memory: {total: 16370960 kB, available: 15633904 kB}
dmi: {vendor: Google, product: Google Compute Engine}
)"},
    {"dgx-a100", R"(schema: hwsim-spec/1
label: dgx-a100
hostname: dgx-a100-01
kernel: 5.4.0-169-generic
cpu: {model: "AMD EPYC 7742 64-Core Processor", uarch: zen2, sockets: 2, cores: 64, threads: 2}
memory: {total: 2113413056 kB, available: 2080000000 kB}
accelerators:
  - sku: a100-sxm4-80gb
    count: 8
    bus: [07, 0f, 47, 4e, 87, 90, b7, bd]
    numa: [3, 3, 1, 1, 7, 7, 5, 5]
interconnect: nvswitch
ib_ports: 10
drivers: {nvidia: {state: ok, version: 535.129.03}}
)"},
    {"dgx-h100", R"(schema: hwsim-spec/1
label: dgx-h100
hostname: dgx-h100-01
kernel: 5.15.0-101-generic
cpu: {model: "Intel(R) Xeon(R) Platinum 8480C", uarch: sapphire-rapids, sockets: 2, cores: 56, threads: 2}
memory: {total: 2112948142 kB, available: 2089978524 kB}
accelerators:
  - {sku: h100-sxm, count: 8, bus: [1b, 43, 52, 61, 9d, c3, d1, df]}
interconnect: nvswitch
ib_ports: 12
drivers: {nvidia: {state: ok, version: 550.54.15}}
dmi: {vendor: NVIDIA, product: DGXH100}
)"},
    {"gaudi3-8", R"(schema: hwsim-spec/1
label: gaudi3-8
hostname: gaudi3-node-01
kernel: 5.15.0-119-generic
cpu: {model: "Intel(R) Xeon(R) Platinum 8480C", uarch: sapphire-rapids, sockets: 2, cores: 56, threads: 2}
memory: {total: 2113384448 kB, available: 2098125824 kB}
accelerators:
  - sku: gaudi3
    count: 8
    bus: [3b, 4c, 5d, 9b, 19, bb, cb, db]   # hl-smi's index order
    numa: [0, 0, 0, 1, 0, 1, 1, 1]
)"},
    {"gaudi3-no-driver", R"(schema: hwsim-spec/1
label: gaudi3-no-driver
hostname: gaudi3-node-01
kernel: 5.15.0-119-generic
cpu: {model: "Intel(R) Xeon(R) Platinum 8480C", uarch: sapphire-rapids, sockets: 2, cores: 56, threads: 2}
memory: {total: 2113384448 kB, available: 2098125824 kB}
accelerators:
  - {sku: gaudi3, count: 8, bus: [19, 3b, 4c, 5d, 9b, bb, cb, db]}
drivers: {habanalabs: missing}
tools: []
)"},
    {"gh200", R"(schema: hwsim-spec/1
label: gh200
hostname: gh200-01
arch: aarch64
kernel: 6.8.0-1013-nvidia-64k
cpu: {uarch: neoverse-v2, cores: 72}
memory: {total: 490398464 kB, available: 478150656 kB}
accelerators: [gh200]
drivers: {nvidia: {state: ok, version: 580.95.05}}
)"},
    {"gx10", R"(schema: hwsim-spec/1
label: gx10
hostname: gx10-lab
arch: aarch64
kernel: 6.17.0-1014-nvidia
cpu:
  uarch: gb10
  clusters: [cortex-a725 x5, cortex-x925 x5, cortex-a725 x5, cortex-x925 x5]
memory: {total: 125508468 kB, available: 121737812 kB}
accelerators: [gb10]
drivers: {nvidia: {state: ok, version: 580.95.05}}
dmi: {vendor: ASUSTeK COMPUTER INC., product: GX10}
)"},
    // Recorded, not hand-written: the Firecracker VM with one H200 (header of
    // fixtures/hosts/h200-firecracker.yaml). The CPU is an Emerald Rapids guest (family 6
    // model 207) that the catalogue has no uarch for: sapphire-rapids gives the same
    // AVX-512 class. Memory, GPU figures and bus as recorded.
    {"h200-firecracker", R"(schema: hwsim-spec/1
label: host-1
hostname: host-1
kernel: 6.18.44-fc-v657-gpu
cpu: {model: "Intel(R) Xeon(R) Processor", uarch: sapphire-rapids, sockets: 1, cores: 16, threads: 1}
memory: {total: 131981020 kB, available: 131453812 kB}
accelerators:
  - {sku: h200-sxm, bus: ["0000:00:06.0"], used: 0 MiB, free: 143156 MiB}
drivers: {nvidia: {state: ok, version: 580.159.04}}
vm: firecracker
env: {PATH: "/opt/torch/.venv/bin:/usr/local/nvidia/bin:/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/opt/gcc/bin"}
)"},
    {"h100-mig", R"(schema: hwsim-spec/1
label: h100-mig
hostname: h100-mig-vm
kernel: 5.15.0-185-generic
cpu: {model: "Intel(R) Xeon(R) Platinum 8480+", uarch: sapphire-rapids, sockets: 1, cores: 20, threads: 1}
memory: {total: 231846088 kB, available: 221523456 kB}
accelerators:
  - sku: h100-sxm
    bus: ["0000:00:09.0"]
    used: 59 MiB
    free: 81022 MiB
    mig: [3g.40gb, 2g.20gb, 1g.10gb, 1g.10gb]
drivers: {nvidia: {state: ok, version: 590.48.01}}
)"},
    // The H200 VM recorded under load (fixtures/hosts/h200-load.yaml): its CPU and
    // memory are the fixture's assumptions; memory in use as the load row printed.
    {"h200-load", R"(schema: hwsim-spec/1
label: h200-load
hostname: h200-load-vm
kernel: 5.15.0-171-generic
cpu: {model: "Intel(R) Xeon(R) Platinum 8480+", uarch: sapphire-rapids, sockets: 1, cores: 24, threads: 1}
memory: {total: 231846088 kB, available: 221523456 kB}
accelerators:
  - {sku: h200-sxm, bus: ["0000:83:00.0"], used: 32362 MiB, free: 110796 MiB}
drivers: {nvidia: {state: ok, version: 590.48.01}}
)"},
    {"inf2-48xlarge", R"(schema: hwsim-spec/1
label: inf2-48xlarge
hostname: ip-172-31-20-17
kernel: 6.8.0-1021-aws
cpu: {model: "AMD EPYC 7R13 Processor", uarch: zen3, sockets: 2, cores: 48, threads: 2}
memory: {total: 792537804 kB, available: 786220480 kB}
accelerators:
  - sku: inferentia2
    count: 12
    bus: ["10:1c.0", "10:1d.0", "10:1e.0", "10:1f.0", "20:1c.0", "20:1d.0", "20:1e.0", "20:1f.0",
          "30:1c.0", "30:1d.0", "30:1e.0", "30:1f.0"]
env: {PATH: "/opt/aws/neuron/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}
dmi: {vendor: Amazon EC2, product: inf2.48xlarge}
)"},
    {"mi300x-8", R"(schema: hwsim-spec/1
label: mi300x-8
hostname: mi300x-01
kernel: 5.15.0-119-generic
cpu: {model: "AMD EPYC 9654 96-Core Processor", uarch: zen4, sockets: 2, cores: 96, threads: 2}
memory: {total: 1584835380 kB, available: 1565432100 kB}
accelerators:
  - {sku: mi300x, count: 8, bus: [05, 26, 46, 65, 85, a6, c6, e5], compute_partition: SPX}
dmi: {vendor: Supermicro, product: AS -8125GS-TNMR2}
)"},
    {"trn1-32xlarge", R"(schema: hwsim-spec/1
label: trn1-32xlarge
hostname: ip-172-31-44-201
kernel: 6.8.0-1021-aws
# 128 vCPUs; the fixture's cpuinfo blocks name an 8480C standing in for the 8375C (kept here)
cpu: {model: "Intel(R) Xeon(R) Platinum 8480C", uarch: sapphire-rapids, sockets: 2, cores: 32, threads: 2}
memory: {total: 528243012 kB, available: 523880508 kB}
accelerators:
  - sku: trainium
    count: 16
    bus: ["10:1c.0", "10:1d.0", "10:1e.0", "10:1f.0", "20:1c.0", "20:1d.0", "20:1e.0", "20:1f.0",
          "30:1c.0", "30:1d.0", "30:1e.0", "30:1f.0", "40:1c.0", "40:1d.0", "40:1e.0", "40:1f.0"]
tools: []
dmi: {vendor: Amazon EC2, product: trn1.32xlarge}
)"},
    {"nvidia-mismatch", R"(schema: hwsim-spec/1
label: nvidia-mismatch
hostname: dgx-h100-03
kernel: 5.15.0-101-generic
cpu: {model: "Intel(R) Xeon(R) Platinum 8480C", uarch: sapphire-rapids, sockets: 2, cores: 56, threads: 2}
memory: {total: 2112948142 kB, available: 2089978524 kB}
accelerators:
  - {sku: h100-sxm, count: 8, bus: [1b, 43, 52, 61, 9d, c3, d1, df]}
interconnect: nvswitch
ib_ports: 12
drivers: {nvidia: {state: mismatch, version: 550.54.15}}
dmi: {vendor: NVIDIA, product: DGXH100}
)"},
    {"nvidia-no-driver", R"(schema: hwsim-spec/1
label: nvidia-no-driver
hostname: dgx-h100-02
kernel: 5.15.0-101-generic
cpu: {model: "Intel(R) Xeon(R) Platinum 8480C", uarch: sapphire-rapids, sockets: 2, cores: 56, threads: 2}
memory: {total: 2112948142 kB, available: 2089978524 kB}
accelerators:
  - {sku: h100-sxm, count: 8, bus: [1b, 43, 52, 61, 9d, c3, d1, df]}
interconnect: nvswitch
ib_ports: 12
drivers: {nvidia: missing}
dmi: {vendor: NVIDIA, product: DGXH100}
)"},
    {"rtx4090-amd-igpu", R"(schema: hwsim-spec/1
label: rtx4090-amd-igpu
hostname: ws-4090-01
kernel: 6.8.0-49-generic
cpu: {model: "AMD Ryzen 9 7950X 16-Core Processor", uarch: zen4, sockets: 1, cores: 16, threads: 2}
memory: {total: 65022140 kB, available: 60213344 kB}
accelerators:
  - {sku: rtx4090, bus: ["0000:01:00.0"]}
  - {sku: raphael-igpu, bus: ["0000:13:00.0"], gtt: 33291337728}
drivers: {nvidia: {state: ok, version: "550.120"}}
)"},
    {"strix-halo", R"(schema: hwsim-spec/1
label: strix-halo
hostname: strix-halo-01
kernel: 6.14.0-15-generic
cpu: {model: "AMD RYZEN AI MAX+ 395 w/ Radeon 8060S", uarch: zen5, sockets: 1, cores: 16, threads: 2}
memory: {total: 128453260 kB, available: 121034568 kB}
accelerators:
  - {sku: strix-halo, bus: ["0000:c5:00.0"], gtt: 96 GiB}
)"},
    {"tpu-v4-8", R"(schema: hwsim-spec/1
label: tpu-v4-8
hostname: t1v-n-4a07-w-0
kernel: 5.19.0-1030-gcp
cpu: {model: "AMD EPYC 7B13", uarch: zen3, sockets: 1, cores: 120, threads: 2}
memory: {total: 390381516 kB, available: 386913328 kB}
accelerators:
  - {sku: tpu-v4, count: 4, bus: ["00:04.0", "00:05.0", "00:06.0", "00:07.0"]}
dmi: {vendor: Google, product: Google Compute Engine}
)"},
    {"tpu-v5e-8", R"(schema: hwsim-spec/1
label: tpu-v5e-8
hostname: t1v-n-5e8a-w-0
kernel: 6.8.0-1015-gcp
cpu: {model: "AMD EPYC 7B13", uarch: zen3, sockets: 1, cores: 112, threads: 2}
memory: {total: 412813256 kB, available: 405377212 kB}
accelerators:
  - sku: tpu-v5e
    count: 8
    bus: ["00:05.0", "00:06.0", "00:07.0", "00:08.0", "00:09.0", "00:0a.0", "00:0b.0", "00:0c.0"]
env: {TPU_ACCELERATOR_TYPE: v5litepod-8}
dmi: {vendor: Google, product: Google Compute Engine}
)"},
    {"ws-4090-busy", R"(schema: hwsim-spec/1
label: ws-4090-busy
hostname: ws-4090-02
kernel: 6.8.0-49-generic
cpu: {model: "AMD Ryzen 9 7950X 16-Core Processor", uarch: zen4, sockets: 1, cores: 16, threads: 2}
memory: {total: 65022140 kB, available: 60213344 kB}
accelerators:
  - {sku: rtx4090, bus: ["0000:01:00.0"], used: 22650 MiB, free: 1431 MiB}
  - {sku: raphael-igpu, bus: ["0000:13:00.0"], gtt: 33291337728}
drivers: {nvidia: {state: ok, version: "550.120"}}
)"},
}};

}  // namespace

std::vector<std::string> preset_names() {
  std::vector<std::string> names;
  for (const auto& [name, text] : kPresets) names.emplace_back(name);
  return names;
}

std::optional<std::string> preset_spec(std::string_view name) {
  for (const auto& [n, text] : kPresets)
    if (n == name) return std::string(text);
  return std::nullopt;
}

}  // namespace hwaccel::sim
