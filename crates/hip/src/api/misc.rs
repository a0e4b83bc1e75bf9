//! Entry points that return something other than an error code: names, half-precision
//! conversions, channel descriptions, build information.

use std::ffi::{c_char, c_int, c_uint, c_void};

use crate::runtime::runtime;
use crate::types::*;

// The compiler's own runtime defines `__gnu_f2h_ieee` and `__gnu_h2f_ieee` as hidden
// symbols, and a hidden definition anywhere hides the name, so the exported ones are bound
// to their version under other names.
std::arch::global_asm!(
    ".symver gcnkit_gnu_f2h_ieee, __gnu_f2h_ieee@@hip_4.2",
    ".symver gcnkit_gnu_h2f_ieee, __gnu_h2f_ieee@@hip_4.2",
);

/// `__gnu_f2h_ieee`: single to half precision, rounding to nearest even.
#[no_mangle]
pub extern "C" fn gcnkit_gnu_f2h_ieee(f: f32) -> u16 {
    half::f16::from_f32(f).to_bits()
}

/// `__gnu_h2f_ieee`: half to single precision.
#[no_mangle]
pub extern "C" fn gcnkit_gnu_h2f_ieee(h: u16) -> f32 {
    half::f16::from_bits(h).to_f32()
}

/// `hipCreateChannelDesc`.
#[no_mangle]
pub extern "C" fn hipCreateChannelDesc(
    x: c_int,
    y: c_int,
    z: c_int,
    w: c_int,
    f: c_int,
) -> hipChannelFormatDesc {
    hipChannelFormatDesc { x, y, z, w, f }
}

/// Kernel names handed out, kept alive for the program's lifetime.
fn leak_name(name: &str) -> *const c_char {
    match std::ffi::CString::new(name) {
        Ok(s) => Box::leak(s.into_boxed_c_str()).as_ptr(),
        Err(_) => std::ptr::null(),
    }
}

/// `hipKernelNameRef`: the name of a module kernel.
#[no_mangle]
pub extern "C" fn hipKernelNameRef(f: *mut c_void) -> *const c_char {
    match runtime().module_functions.get(&(f as usize)) {
        Some(mf) => leak_name(&mf.name),
        None => std::ptr::null(),
    }
}

/// `hipKernelNameRefByPtr`: the name of a registered kernel.
#[no_mangle]
pub extern "C" fn hipKernelNameRefByPtr(
    host_function: *const c_void,
    _stream: *mut c_void,
) -> *const c_char {
    match runtime().functions.get(&(host_function as usize)) {
        Some(f) => leak_name(&f.name),
        None => std::ptr::null(),
    }
}

/// `hipGetStreamDeviceId`: every stream is on device 0.
#[no_mangle]
pub extern "C" fn hipGetStreamDeviceId(_stream: *mut c_void) -> c_int {
    0
}

/// `hipGetCmdName`: profiler command names are not kept.
#[no_mangle]
pub extern "C" fn hipGetCmdName(_id: c_uint) -> *const c_char {
    c"unknown".as_ptr()
}

/// `hipInitActivityCallback`: no profiler activity is reported.
#[no_mangle]
pub extern "C" fn hipInitActivityCallback(_id: *mut c_void, _op: *mut c_void, _arg: *mut c_void) {}

/// `hipEnableActivityCallback`: no profiler activity is reported.
#[no_mangle]
pub extern "C" fn hipEnableActivityCallback(_op: c_uint, _enable: bool) -> bool {
    false
}

/// `__hipGetPCH`: no precompiled header for run-time compilation.
///
/// # Safety
/// Pointers must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn __hipGetPCH(pch: *mut *const c_char, size: *mut c_uint) {
    if !pch.is_null() {
        *pch = std::ptr::null();
    }
    if !size.is_null() {
        *size = 0;
    }
}

/// `amd_dbgapi_get_build_name`.
#[no_mangle]
pub extern "C" fn amd_dbgapi_get_build_name() -> *const c_char {
    c"gcnkit-hip".as_ptr()
}

/// `amd_dbgapi_get_git_hash`.
#[no_mangle]
pub extern "C" fn amd_dbgapi_get_git_hash() -> *const c_char {
    c"".as_ptr()
}

/// `amd_dbgapi_get_build_id`.
#[no_mangle]
pub extern "C" fn amd_dbgapi_get_build_id() -> usize {
    0
}

/// `hiprtcGetErrorString`.
#[no_mangle]
pub extern "C" fn hiprtcGetErrorString(result: c_int) -> *const c_char {
    match result {
        0 => c"HIPRTC_SUCCESS".as_ptr(),
        _ => c"HIPRTC_ERROR_INTERNAL_ERROR: run-time compilation is not available in gcnkit-hip"
            .as_ptr(),
    }
}
