// Enumerates the GPUs through nvml-wrapper and prints them as tests/nvml/nvml_client.c
// does, line for line (tests/nvml/compare.py compares both with hwaccel). nvml-wrapper
// 0.9 has no MIG calls: those go through its sys crate, on the same library.
use nvml_wrapper::enum_wrappers::device::{Clock, TemperatureSensor};
use nvml_wrapper::enums::device::UsedGpuMemory;
use nvml_wrapper::error::NvmlError;
use nvml_wrapper::{Device, Nvml};
use nvml_wrapper_sys::bindings::{
    nvmlComputeInstanceInfo_t, nvmlComputeInstance_t, nvmlDevice_t, nvmlGpuInstanceInfo_t,
    nvmlGpuInstanceProfileInfo_v2_t, nvmlGpuInstance_t, NvmlLib,
};
use std::ffi::CStr;
use std::os::raw::c_char;

fn code(e: &NvmlError) -> i32 {
    match e {
        NvmlError::Uninitialized => 1,
        NvmlError::InvalidArg => 2,
        NvmlError::NotSupported => 3,
        NvmlError::NoPermission => 4,
        NvmlError::NotFound => 6,
        NvmlError::DriverNotLoaded => 9,
        NvmlError::LibRmVersionMismatch => 18,
        _ => 999,
    }
}

fn memory(what: &str, total: Result<(u64, u64), NvmlError>) {
    match total {
        Ok((t, f)) => println!("{} memory {} {}", what, t, f),
        Err(e) => println!("{} memory error {}", what, code(&e)),
    }
}

// What gpustat and nvitop ask, printed as tests/nvml/nvml_client.c prints it: the
// status, then the value where there is one.
fn figure(gpu: &str, what: &str, value: Result<u32, NvmlError>) {
    match value {
        Ok(v) => println!("monitor {} {} 0 {}", gpu, what, v),
        Err(e) => println!("monitor {} {} {}", gpu, what, code(&e)),
    }
}

fn monitor(gpu: &str, d: &Device) {
    figure(gpu, "temperature", d.temperature(TemperatureSensor::Gpu));
    figure(gpu, "power", d.power_usage());
    figure(gpu, "sm-clock", d.clock_info(Clock::SM));
    figure(gpu, "utilization", d.utilization_rates().map(|u| u.gpu));
    match d.running_compute_processes() {
        Ok(list) => {
            println!("monitor {} processes 0 {}", gpu, list.len());
            for p in list {
                let mib = match p.used_gpu_memory {
                    UsedGpuMemory::Used(bytes) => bytes >> 20,
                    UsedGpuMemory::Unavailable => u64::MAX >> 20,
                };
                println!("monitor {} process {} {}", gpu, p.pid, mib);
            }
        }
        Err(e) => println!("monitor {} processes {} 0", gpu, code(&e)),
    }
}

fn text(buf: &[c_char]) -> String {
    unsafe { CStr::from_ptr(buf.as_ptr()) }.to_string_lossy().into_owned()
}

// GPU instance profiles and instances, printed as tests/nvml/nvml_client.c does, through
// nvml-wrapper-sys's own struct layouts (bindgen from nvml.h).
unsafe fn mig_instances(raw: &NvmlLib, gpu: u32, d: nvmlDevice_t) {
    for p in 0..17u32 {
        let mut info = std::mem::zeroed::<nvmlGpuInstanceProfileInfo_v2_t>();
        info.version = std::mem::size_of::<nvmlGpuInstanceProfileInfo_v2_t>() as u32 | 2 << 24;
        if raw.nvmlDeviceGetGpuInstanceProfileInfoV(d, p, &mut info) != 0 {
            continue;
        }
        let (mut left, mut places) = (99u32, 0u32);
        raw.nvmlDeviceGetGpuInstanceRemainingCapacity(d, info.id, &mut left);
        raw.nvmlDeviceGetGpuInstancePossiblePlacements_v2(
            d,
            info.id,
            std::ptr::null_mut(),
            &mut places,
        );
        let name = text(&info.name);
        println!(
            "mig-table gpu {} profile {} id {} {} slices {} instances {} sm {} ce {} dec {} enc {} \
             jpg {} ofa {} memory {} placements {} left {}",
            gpu,
            p,
            info.id,
            name,
            info.sliceCount,
            info.instanceCount,
            info.multiprocessorCount,
            info.copyEngineCount,
            info.decoderCount,
            info.encoderCount,
            info.jpegCount,
            info.ofaCount,
            info.memorySizeMB,
            places,
            left
        );
        let mut gis: [nvmlGpuInstance_t; 8] = [std::ptr::null_mut(); 8];
        let mut n = 0u32;
        if raw.nvmlDeviceGetGpuInstances(d, info.id, gis.as_mut_ptr(), &mut n) != 0 {
            continue;
        }
        for &g in gis.iter().take(n.min(8) as usize) {
            let mut gi = std::mem::zeroed::<nvmlGpuInstanceInfo_t>();
            if raw.nvmlGpuInstanceGetInfo(g, &mut gi) != 0 {
                continue;
            }
            let mut computes = 0;
            for c in 0..8u32 {
                let mut cis: [nvmlComputeInstance_t; 8] = [std::ptr::null_mut(); 8];
                let mut m = 0u32;
                if raw.nvmlGpuInstanceGetComputeInstances(g, c, cis.as_mut_ptr(), &mut m) != 0 {
                    continue;
                }
                for &ci_handle in cis.iter().take(m.min(8) as usize) {
                    let mut ci = std::mem::zeroed::<nvmlComputeInstanceInfo_t>();
                    if raw.nvmlComputeInstanceGetInfo_v2(ci_handle, &mut ci) != 0 {
                        continue;
                    }
                    let parent = if ci.device == d && ci.gpuInstance == g { "ok" } else { "wrong" };
                    println!(
                        "mig-table gpu {} gi {} ci {} profile {} placement {}:{} parent {}",
                        gpu, gi.id, ci.id, ci.profileId, ci.placement.start, ci.placement.size, parent
                    );
                    computes += 1;
                }
            }
            let parent = if gi.device == d { "ok" } else { "wrong" };
            println!(
                "mig-table gpu {} gi {} placement {}:{} parent {}",
                gpu, gi.id, gi.placement.start, gi.placement.size, parent
            );
            println!(
                "gpu {} gi {} profile {} memory {} compute {}",
                gpu,
                gi.id,
                name.strip_prefix("MIG ").unwrap_or(&name),
                info.memorySizeMB,
                computes
            );
        }
    }
}

fn main() {
    let nvml = match Nvml::init() {
        Ok(n) => n,
        // No library to load (a host without NVIDIA's software), as the C client says it.
        Err(NvmlError::LibloadingError(e)) => {
            println!("dlopen failed: {}", e);
            return;
        }
        Err(e) => {
            println!("init {}", code(&e));
            return;
        }
    };
    println!("init 0");
    let raw = unsafe { NvmlLib::new("libnvidia-ml.so.1") }.expect("the library loads twice");
    if let Ok(v) = nvml.sys_driver_version() {
        println!("driver {}", v);
    }
    if let Ok(v) = nvml.sys_cuda_driver_version() {
        println!("cuda {}", v);
    }
    let count = nvml.device_count().unwrap_or(0);
    println!("count {}", count);
    for i in 0..count {
        let d = match nvml.device_by_index(i) {
            Ok(d) => d,
            Err(_) => continue,
        };
        let gpu = format!("gpu {}", i);
        println!("{} name {}", gpu, d.name().unwrap_or_default());
        println!("{} uuid {}", gpu, d.uuid().unwrap_or_default());
        println!("{} bus {}", gpu, d.pci_info().map(|p| p.bus_id).unwrap_or_default());
        memory(&gpu, d.memory_info().map(|m| (m.total, m.free)));
        monitor(&gpu, &d);
        unsafe {
            let handle = d.handle();
            let (mut current, mut pending, mut max) = (0u32, 0u32, 0u32);
            if raw.nvmlDeviceGetMigMode(handle, &mut current, &mut pending) == 0 && current == 1 {
                raw.nvmlDeviceGetMaxMigDeviceCount(handle, &mut max);
                for m in 0..max {
                    let mut mig: nvmlDevice_t = std::ptr::null_mut();
                    if raw.nvmlDeviceGetMigDeviceHandleByIndex(handle, m, &mut mig) != 0 {
                        continue;
                    }
                    let what = format!("{} mig {}", gpu, m);
                    let mut buf = [0 as c_char; 96];
                    raw.nvmlDeviceGetName(mig, buf.as_mut_ptr(), 96);
                    println!("{} name {}", what, text(&buf));
                    raw.nvmlDeviceGetUUID(mig, buf.as_mut_ptr(), 96);
                    println!("{} uuid {}", what, text(&buf));
                    let mut info = std::mem::zeroed::<nvml_wrapper_sys::bindings::nvmlMemory_t>();
                    let r = raw.nvmlDeviceGetMemoryInfo(mig, &mut info);
                    if r == 0 {
                        println!("{} memory {} {}", what, info.total, info.free);
                    } else {
                        println!("{} memory error {}", what, r);
                    }
                }
                mig_instances(&raw, i, handle);
            }
        }
        for l in 0..18 {
            let link = d.link_wrapper_for(l);
            if !link.is_active().unwrap_or(false) {
                continue;
            }
            match link.remote_pci_info() {
                Ok(p) => println!("{} nvlink {} gpu {}", gpu, l, p.bus_id),
                Err(_) => println!("{} nvlink {} switch", gpu, l),
            }
        }
    }
    println!("shutdown {}", nvml.shutdown().map(|_| 0).unwrap_or_else(|e| code(&e)));
}
