//! The module API: code objects loaded at run time, their kernels and variables.

use std::ffi::{c_char, c_uint, c_void, CStr};
use std::sync::Arc;

use crate::api::registration::{image_size, InMemory};
use crate::runtime::{fail, guard, ret, runtime, LoadedModule, ModuleFunction};
use crate::types::*;

unsafe fn load(call: &str, module: *mut *mut c_void, image: &[u8]) -> hipError_t {
    if module.is_null() {
        return fail(call, (hipErrorInvalidValue, "null module pointer".into()));
    }
    let mut rt = runtime();
    let arch = rt.arch_for(Some(image));
    match rt.device.load(image, Some(&arch)) {
        Ok(m) => {
            let h = rt.handle();
            rt.modules.insert(
                h,
                LoadedModule {
                    module: Arc::new(m),
                },
            );
            *module = h as *mut c_void;
            ret(hipSuccess)
        }
        Err(e) => fail(call, (hipErrorNoBinaryForGpu, e.to_string())),
    }
}

/// `hipModuleLoad`: a code object or offload bundle from a file.
///
/// # Safety
/// `fname` must be a NUL-terminated path; `module` valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipModuleLoad(
    module: *mut *mut c_void,
    fname: *const c_char,
) -> hipError_t {
    guard("hipModuleLoad", || {
        if fname.is_null() {
            return fail(
                "hipModuleLoad",
                (hipErrorInvalidValue, "null file name".into()),
            );
        }
        let path = CStr::from_ptr(fname).to_string_lossy().into_owned();
        match std::fs::read(&path) {
            Ok(bytes) => load("hipModuleLoad", module, &bytes),
            Err(e) => fail(
                "hipModuleLoad",
                (hipErrorFileNotFound, format!("{path}: {e}")),
            ),
        }
    })
}

/// `hipModuleLoadData`: a code object or offload bundle in memory.
///
/// # Safety
/// `image` must point at a whole code object or bundle.
#[no_mangle]
pub unsafe extern "C" fn hipModuleLoadData(
    module: *mut *mut c_void,
    image: *const c_void,
) -> hipError_t {
    guard("hipModuleLoadData", || {
        if image.is_null() {
            return fail(
                "hipModuleLoadData",
                (hipErrorInvalidValue, "null image".into()),
            );
        }
        match image_size(&InMemory::new(image as *const u8)) {
            Some(n) => load(
                "hipModuleLoadData",
                module,
                std::slice::from_raw_parts(image as *const u8, n),
            ),
            None => fail(
                "hipModuleLoadData",
                (
                    hipErrorInvalidImage,
                    "the image is neither an ELF code object nor an offload bundle".into(),
                ),
            ),
        }
    })
}

/// `hipModuleLoadDataEx`: as `hipModuleLoadData` (the JIT options do not apply).
///
/// # Safety
/// As [`hipModuleLoadData`].
#[no_mangle]
pub unsafe extern "C" fn hipModuleLoadDataEx(
    module: *mut *mut c_void,
    image: *const c_void,
    _num_options: c_uint,
    _options: *mut c_void,
    _values: *mut *mut c_void,
) -> hipError_t {
    hipModuleLoadData(module, image)
}

/// `hipModuleUnload`.
#[no_mangle]
pub extern "C" fn hipModuleUnload(module: *mut c_void) -> hipError_t {
    guard("hipModuleUnload", || {
        let mut rt = runtime();
        match rt.modules.remove(&(module as usize)) {
            Some(_) => ret(hipSuccess),
            None => fail(
                "hipModuleUnload",
                (hipErrorInvalidHandle, format!("unknown module {module:p}")),
            ),
        }
    })
}

/// `hipModuleGetFunction`.
///
/// # Safety
/// `name` must be NUL-terminated; `function` valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipModuleGetFunction(
    function: *mut *mut c_void,
    module: *mut c_void,
    name: *const c_char,
) -> hipError_t {
    guard("hipModuleGetFunction", || {
        if function.is_null() || name.is_null() {
            return fail(
                "hipModuleGetFunction",
                (hipErrorInvalidValue, "null pointer".into()),
            );
        }
        let name = CStr::from_ptr(name).to_string_lossy().into_owned();
        let mut rt = runtime();
        let Some(m) = rt.modules.get(&(module as usize)).map(|m| m.module.clone()) else {
            return fail(
                "hipModuleGetFunction",
                (hipErrorInvalidHandle, format!("unknown module {module:p}")),
            );
        };
        if m.kernel(&name).is_none() {
            return fail(
                "hipModuleGetFunction",
                (hipErrorNotFound, format!("the module has no kernel {name}")),
            );
        }
        let h = rt.handle();
        rt.module_functions
            .insert(h, ModuleFunction { module: m, name });
        *function = h as *mut c_void;
        ret(hipSuccess)
    })
}

/// `hipModuleGetGlobal`: a variable's device address and size.
///
/// # Safety
/// `name` must be NUL-terminated; outputs valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipModuleGetGlobal(
    dptr: *mut *mut c_void,
    bytes: *mut usize,
    module: *mut c_void,
    name: *const c_char,
) -> hipError_t {
    guard("hipModuleGetGlobal", || {
        if name.is_null() {
            return fail(
                "hipModuleGetGlobal",
                (hipErrorInvalidValue, "null name".into()),
            );
        }
        let name = CStr::from_ptr(name).to_string_lossy().into_owned();
        let rt = runtime();
        let Some(m) = rt.modules.get(&(module as usize)) else {
            return fail(
                "hipModuleGetGlobal",
                (hipErrorInvalidHandle, format!("unknown module {module:p}")),
            );
        };
        let Some(g) = m.module.global(&name) else {
            return fail(
                "hipModuleGetGlobal",
                (
                    hipErrorNotFound,
                    format!("the module has no variable {name}"),
                ),
            );
        };
        if !dptr.is_null() {
            *dptr = g.address as *mut c_void;
        }
        if !bytes.is_null() {
            *bytes = g.size as usize;
        }
        ret(hipSuccess)
    })
}

/// Texture references are not emulated.
///
/// # Safety
/// Any arguments.
#[no_mangle]
pub unsafe extern "C" fn hipModuleGetTexRef(
    _tex: *mut *mut c_void,
    _module: *mut c_void,
    _name: *const c_char,
) -> hipError_t {
    crate::api::unsupported("hipModuleGetTexRef")
}
