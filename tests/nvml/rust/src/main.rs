// Enumerates the GPUs through nvml-wrapper and prints them as tests/nvml/nvml_client.c
// does, line for line (tests/nvml/compare.py compares both with hwaccel). nvml-wrapper
// 0.9 has no MIG calls: those go through its sys crate, on the same library.
use nvml_wrapper::error::NvmlError;
use nvml_wrapper::Nvml;
use nvml_wrapper_sys::bindings::{nvmlDevice_t, NvmlLib};
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

fn text(buf: &[c_char]) -> String {
    unsafe { CStr::from_ptr(buf.as_ptr()) }.to_string_lossy().into_owned()
}

fn main() {
    let nvml = match Nvml::init() {
        Ok(n) => n,
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
