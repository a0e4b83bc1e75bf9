//! Errors: the last error of each thread, names and descriptions.

use std::ffi::c_char;

use crate::runtime::LAST_ERROR;
use crate::types::*;

/// `hipGetLastError`: this thread's last error, which is reset.
#[no_mangle]
pub extern "C" fn hipGetLastError() -> hipError_t {
    LAST_ERROR.with(|l| l.replace(hipSuccess))
}

/// `hipPeekAtLastError`: this thread's last error, which stays.
#[no_mangle]
pub extern "C" fn hipPeekAtLastError() -> hipError_t {
    LAST_ERROR.with(|l| l.get())
}

/// NUL-terminated copies of the names and descriptions, made once.
fn strings() -> &'static [(hipError_t, std::ffi::CString, std::ffi::CString)] {
    static STRINGS: std::sync::OnceLock<Vec<(hipError_t, std::ffi::CString, std::ffi::CString)>> =
        std::sync::OnceLock::new();
    STRINGS.get_or_init(|| {
        ERRORS
            .iter()
            .map(|&(code, name, text)| {
                (
                    code,
                    std::ffi::CString::new(name).unwrap_or_default(),
                    std::ffi::CString::new(text).unwrap_or_default(),
                )
            })
            .collect()
    })
}

/// `hipGetErrorName`.
#[no_mangle]
pub extern "C" fn hipGetErrorName(error: hipError_t) -> *const c_char {
    match strings().iter().find(|e| e.0 == error) {
        Some(e) => e.1.as_ptr(),
        None => c"hipErrorUnknown".as_ptr(),
    }
}

/// `hipGetErrorString`.
#[no_mangle]
pub extern "C" fn hipGetErrorString(error: hipError_t) -> *const c_char {
    match strings().iter().find(|e| e.0 == error) {
        Some(e) => e.2.as_ptr(),
        None => c"unknown error".as_ptr(),
    }
}
