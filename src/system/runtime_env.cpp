#include "src/system/runtime_env.h"

#include <cerrno>

#include "src/vocabulary/text_util.h"

namespace hwaccel {

namespace {

bool has(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

}  // namespace

CgroupHints parse_proc1_cgroup(std::string_view text) {
  CgroupHints h;
  for (auto line : split_lines(text)) {
    // The path is after the second ':'.
    auto first = line.find(':');
    if (first == std::string_view::npos) continue;
    auto second = line.find(':', first + 1);
    if (second == std::string_view::npos) continue;
    auto path = line.substr(second + 1);
    auto note = [&](const char* what, std::string_view marker) {
      if (h.container.empty()) {
        h.container = what;
        h.evidence = std::string(marker);
      }
    };
    if (has(path, "/kubepods")) {
      h.kubernetes = true;
      if (h.evidence.empty()) h.evidence = "/kubepods";
    }
    if (has(path, "/docker/") || has(path, "/docker-"))
      note("docker", "/docker");
    else if (has(path, "libpod"))
      note("podman", "libpod");
    else if (has(path, "cri-containerd-"))
      note("containerd", "cri-containerd-");
    else if (has(path, "crio-"))
      note("cri-o", "crio-");
    else if (has(path, "/lxc/") || has(path, "/lxc.payload"))
      note("lxc", "/lxc");
  }
  return h;
}

std::optional<bool> cpuinfo_hypervisor_flag(std::string_view text) {
  // The first "flags" line decides: the lines after it are never split.
  for (std::size_t pos = 0; auto line = next_line(text, pos);) {
    auto kv = split_key_value(*line);
    if (!kv || kv->key != "flags") continue;
    for (auto flag : split(kv->value, ' '))
      if (flag == "hypervisor") return true;
    return false;
  }
  return std::nullopt;
}

DmiClass classify_dmi(const DmiFields& d) {
  DmiClass c;
  auto say = [](const char* field, const std::string& value) {
    return std::string(field) + " \"" + value + "\"";
  };
  // Clouds first: their strings are exact.
  if (d.sys_vendor == "Amazon EC2") {
    c.cloud = "aws";
    c.instance_type = d.product_name;
    c.evidence = say("sys_vendor", d.sys_vendor);
    // Bare-metal instances (*.metal) run on the Nitro card without a hypervisor.
    const bool metal = d.product_name.size() > 6 &&
                       d.product_name.compare(d.product_name.size() - 6, 6, ".metal") == 0;
    c.virtual_machine = !metal;
    if (!metal) c.hypervisor = "Nitro";
    return c;
  }
  if (d.chassis_asset_tag == "OracleCloud.com") {
    c.cloud = "oci";
    c.evidence = say("chassis_asset_tag", d.chassis_asset_tag);
  } else if (d.sys_vendor == "Google" || d.product_name == "Google Compute Engine") {
    c.cloud = "gcp";
    c.evidence = say("product_name", d.product_name);
    c.virtual_machine = true;  // GCE bare metal (*-metal) shows its server's own DMI
    c.hypervisor = "KVM";
    return c;
  } else if (d.sys_vendor == "Alibaba Cloud") {
    c.cloud = "alibaba";
    c.evidence = say("sys_vendor", d.sys_vendor);
  }
  // Hypervisors, by their product or vendor strings.
  struct Known {
    const char* text;
    bool product;  // match product_name (else sys_vendor)
    bool prefix;
    const char* hypervisor;
  };
  static const Known known[] = {
      {"Virtual Machine", true, false, "Hyper-V"},
      {"KVM", true, true, "KVM"},  // "KVM", "KVM Virtual Machine" (arm64 QEMU/KVM)
      {"Standard PC (", true, true, "QEMU"},
      {"QEMU", false, false, "QEMU"},
      {"VMware", true, true, "VMware"},
      {"VMware, Inc.", false, false, "VMware"},
      {"VirtualBox", true, false, "VirtualBox"},
      {"HVM domU", true, false, "Xen"},
      {"Xen", false, false, "Xen"},
      {"OpenStack Nova", true, false, "KVM (OpenStack)"},
      {"BHYVE", true, false, "bhyve"},
      {"Parallels Virtual Platform", true, false, "Parallels"},
      {"Alibaba Cloud ECS", true, false, "KVM"},
  };
  for (const auto& k : known) {
    const std::string& value = k.product ? d.product_name : d.sys_vendor;
    bool match = k.prefix ? starts_with(value, k.text) : value == k.text;
    if (!match) continue;
    c.virtual_machine = true;
    c.hypervisor = k.hypervisor;
    std::string ev = say(k.product ? "product_name" : "sys_vendor", value);
    c.evidence = c.evidence.empty() ? ev : c.evidence + ", " + ev;
    break;
  }
  if (c.hypervisor == "Hyper-V" && d.sys_vendor == "Microsoft Corporation" &&
      d.chassis_asset_tag == kAzureAssetTag) {
    c.cloud = "azure";
    c.evidence += ", " + say("chassis_asset_tag", d.chassis_asset_tag);
  }
  return c;
}

RuntimeEnvironment detect_runtime_environment(Host& host, std::vector<Warning>& warnings) {
  RuntimeEnvironment env;

  // Containers.
  if (host.stat("/.dockerenv")) {
    env.container = "docker";
    env.container_evidence.push_back("/.dockerenv");
  }
  if (host.stat("/run/.containerenv")) {
    if (env.container.empty()) env.container = "podman";
    env.container_evidence.push_back("/run/.containerenv");
  }
  if (auto v = host.env("container"); v && !v->empty()) {
    std::string name = to_lower(printable_line(*v, 40));
    if (env.container.empty()) env.container = name == "oci" ? "container" : name;
    env.container_evidence.push_back("env container=" + printable_line(*v, 40));
  }
  if (auto cg = host.read("/proc/1/cgroup")) {
    CgroupHints h = parse_proc1_cgroup(*cg);
    if (!h.container.empty()) {
      if (env.container.empty()) env.container = h.container;
      env.container_evidence.push_back("/proc/1/cgroup: " + h.evidence);
    }
    if (h.kubernetes) {
      env.kubernetes = true;
      env.kubernetes_evidence.push_back("/proc/1/cgroup: /kubepods");
    }
  } else if (cg.error().code != ENOENT) {
    warnings.push_back({"system", "/proc/1/cgroup: " + cg.error().errno_name() +
                                      ", container markers there not checked"});
  }

  // Kubernetes.
  if (auto v = host.env("KUBERNETES_SERVICE_HOST"); v && !v->empty()) {
    env.kubernetes = true;
    env.kubernetes_evidence.push_back("env KUBERNETES_SERVICE_HOST");
  }
  if (host.stat("/var/run/secrets/kubernetes.io/serviceaccount")) {
    env.kubernetes = true;
    env.kubernetes_evidence.push_back("/var/run/secrets/kubernetes.io/serviceaccount");
  }
  // A pod's containers often lack /.dockerenv (containerd, CRI-O): still a container.
  if (env.kubernetes && env.container.empty()) env.container = "container";

  // DMI.
  DmiFields dmi;
  struct Field {
    const char* name;
    std::string* out;
  } fields[] = {{"sys_vendor", &dmi.sys_vendor},
                {"product_name", &dmi.product_name},
                {"board_vendor", &dmi.board_vendor},
                {"bios_vendor", &dmi.bios_vendor},
                {"chassis_asset_tag", &dmi.chassis_asset_tag}};
  bool any_dmi = false;
  for (auto& f : fields) {
    const std::string path = std::string("/sys/class/dmi/id/") + f.name;
    auto r = host.read(path);
    if (r) {
      *f.out = printable_line(*r, 80);
      any_dmi = true;
    } else if (r.error().code != ENOENT) {
      warnings.push_back({"system", path + ": " + r.error().errno_name()});
    }
  }
  env.sys_vendor = dmi.sys_vendor;
  env.product_name = dmi.product_name;
  env.board_vendor = dmi.board_vendor;
  env.bios_vendor = dmi.bios_vendor;
  env.chassis_asset_tag = dmi.chassis_asset_tag;
  DmiClass c = classify_dmi(dmi);
  env.cloud = c.cloud;
  env.instance_type = c.instance_type;
  env.hypervisor = c.hypervisor;
  if (!c.evidence.empty()) env.vm_evidence.push_back("DMI " + c.evidence);

  // The CPU flag: a hypervisor that hides from DMI still sets it on x86.
  std::optional<bool> flag;
  if (auto cpu = host.read_text("/proc/cpuinfo")) flag = cpuinfo_hypervisor_flag(cpu->view());
  if (auto t = host.read("/sys/hypervisor/type")) {
    std::string type = printable_line(*t, 20);
    if (!type.empty()) {
      env.vm_evidence.push_back("/sys/hypervisor/type " + type);
      if (env.hypervisor.empty()) env.hypervisor = type == "xen" ? "Xen" : type;
      flag = true;
    }
  }
  if (flag == true) env.vm_evidence.push_back("cpu flag hypervisor");

  if (c.virtual_machine == false) {
    env.virtual_machine = false;  // a *.metal instance
  } else if (c.virtual_machine == true || flag == true) {
    env.virtual_machine = true;
  } else if (flag == false) {
    env.virtual_machine = false;  // x86 without the flag and no VM in DMI
  } else if (!dmi.sys_vendor.empty()) {
    // No CPU flag to ask (arm64): a hypervisor names itself in DMI (QEMU, KVM,
    // Amazon EC2, Google, Microsoft, VMware, ...); a server vendor with none is metal.
    env.virtual_machine = false;
    env.vm_evidence.push_back("DMI sys_vendor \"" + dmi.sys_vendor + "\" names no hypervisor");
  }
  // Otherwise (arm64 without a hypervisor named in DMI, or nothing to read): not known.
  (void)any_dmi;
  return env;
}

std::string runtime_environment_text(const RuntimeEnvironment& env) {
  std::vector<std::string> parts;
  if (!env.container.empty()) {
    std::string c = env.container == "container" ? "container" : env.container + " container";
    if (env.kubernetes) c += " in kubernetes";
    parts.push_back(c);
  } else if (env.kubernetes) {
    parts.push_back("kubernetes");
  }
  std::string machine;
  if (!env.cloud.empty()) machine = env.cloud;
  if (!env.instance_type.empty()) machine += " " + env.instance_type;
  if (env.virtual_machine == true) {
    machine += machine.empty() ? "VM" : " VM";
    if (!env.hypervisor.empty()) machine += " (" + env.hypervisor + ")";
  } else if (env.virtual_machine == false) {
    machine += machine.empty() ? "bare metal" : " bare metal";
  } else if (!machine.empty()) {
    machine += " (VM or bare metal not known)";
  }
  if (!machine.empty()) parts.push_back(machine);
  if (parts.empty()) return "unknown (no DMI, no CPU flags)";
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

}  // namespace hwaccel
