// The C API from Rust through bindings that Debian's bindgen generates from
// the installed hwaccel.h (tests/install/run_consumer.sh): every device of a
// snapshot through the per-device accessors. Usage: rust_consumer SNAPSHOT
#![allow(non_camel_case_types, non_upper_case_globals, dead_code)]
include!(concat!(env!("HWACCEL_BINDINGS_DIR"), "/hwaccel.rs"));

use std::ffi::{CStr, CString};
use std::os::raw::c_char;

fn text(p: *const c_char) -> String {
    if p.is_null() {
        return String::from("(null)");
    }
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

fn main() {
    let path = CString::new(std::env::args().nth(1).expect("usage: rust_consumer SNAPSHOT")).unwrap();
    let mut d: *mut hwaccel_detection = std::ptr::null_mut();
    unsafe {
        if hwaccel_detect_snapshot(path.as_ptr(), &mut d) != hwaccel_status_HWACCEL_OK {
            eprintln!("detect: {}", text(hwaccel_last_error()));
            std::process::exit(1);
        }
        let n = hwaccel_device_count(d);
        println!("rust: {} devices", n);
        for i in 0..n {
            let mut total: u64 = 0;
            let known = hwaccel_device_memory_total(d, i, &mut total) == 1;
            println!("  {} {} {} {} MiB{} {} {}", text(hwaccel_device_id(d, i)),
                     text(hwaccel_device_status(d, i)), text(hwaccel_device_name(d, i)),
                     total >> 20, if known { "" } else { " (unknown)" },
                     text(hwaccel_device_bus_id(d, i)), text(hwaccel_device_compute_class(d, i)));
        }
        // Out of range is NULL, not a crash.
        assert!(hwaccel_device_id(d, n).is_null());
        hwaccel_detection_free(d);
    }
}
