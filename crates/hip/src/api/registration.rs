//! What hipcc's generated constructors call: fat binaries, kernels and variables, and the
//! launch configuration of a `<<<...>>>` call.

use std::ffi::{c_char, c_int, c_uint, c_void, CStr};

use crate::runtime::{fail, guard, ret, runtime, FatBinary, Function, Var, CALL_CONFIGS};
use crate::types::*;

/// Where the bytes of an image are read from: a slice (bounded), or the program's memory
/// behind a bare pointer (the HIP API hands fat binaries and module images over without a
/// size, which is read off their headers).
pub trait ImageBytes {
    /// `len` bytes at offset `at`, if available.
    fn bytes(&self, at: usize, len: usize) -> Option<&[u8]>;

    /// The little-endian u64 at `at`.
    fn u64_at(&self, at: usize) -> Option<u64> {
        Some(u64::from_le_bytes(self.bytes(at, 8)?.try_into().ok()?))
    }

    /// The little-endian u16 at `at`.
    fn u16_at(&self, at: usize) -> Option<u16> {
        Some(u16::from_le_bytes(self.bytes(at, 2)?.try_into().ok()?))
    }
}

impl ImageBytes for [u8] {
    fn bytes(&self, at: usize, len: usize) -> Option<&[u8]> {
        self.get(at..at.checked_add(len)?)
    }
}

/// An image in the program's memory, at a pointer the program vouches for.
pub struct InMemory(*const u8);

impl InMemory {
    /// The image at `p`.
    ///
    /// # Safety
    /// `p` must point at a whole, readable image (as the HIP API requires of its callers).
    pub unsafe fn new(p: *const u8) -> InMemory {
        InMemory(p)
    }
}

impl ImageBytes for InMemory {
    fn bytes(&self, at: usize, len: usize) -> Option<&[u8]> {
        // SAFETY: the caller of the HIP API guarantees the image is readable; the header
        // parsers below read only fields their earlier reads showed to be in the image.
        Some(unsafe { std::slice::from_raw_parts(self.0.add(at), len) })
    }
}

/// Most entries an offload bundle may have, and longest entry id, for the size read off a
/// bundle header (real bundles have a handful of entries with ids of tens of bytes).
const MAX_BUNDLE_ENTRIES: u64 = 4096;
const MAX_BUNDLE_ID: u64 = 4096;

/// The size of the offload bundle in `b`, read from its header: the end of its last entry.
pub fn bundle_size(b: &(impl ImageBytes + ?Sized)) -> Option<usize> {
    const MAGIC: &[u8] = b"__CLANG_OFFLOAD_BUNDLE__";
    if b.bytes(0, MAGIC.len())? != MAGIC {
        return None;
    }
    let count = b.u64_at(24)?;
    if count > MAX_BUNDLE_ENTRIES {
        return None;
    }
    let mut at = 32usize;
    let mut end = at;
    for _ in 0..count {
        let (offset, size, id_len) = (b.u64_at(at)?, b.u64_at(at + 8)?, b.u64_at(at + 16)?);
        if id_len > MAX_BUNDLE_ID {
            return None;
        }
        at += 24 + id_len as usize;
        end = end
            .max(at)
            .max(usize::try_from(offset.checked_add(size)?).ok()?);
    }
    Some(end)
}

/// The size of the 64-bit ELF file in `b`, from its header: the end of its section header
/// table or of its last program segment, whichever is further.
pub fn elf_size(b: &(impl ImageBytes + ?Sized)) -> Option<usize> {
    if b.bytes(0, 4)? != b"\x7fELF" || b.bytes(4, 1)? != [2] {
        return None;
    }
    let (phoff, shoff) = (b.u64_at(0x20)?, b.u64_at(0x28)?);
    let (phentsize, phnum) = (u64::from(b.u16_at(0x36)?), u64::from(b.u16_at(0x38)?));
    let (shentsize, shnum) = (u64::from(b.u16_at(0x3a)?), u64::from(b.u16_at(0x3c)?));
    let mut end = shoff.checked_add(shentsize.checked_mul(shnum)?)?;
    for i in 0..phnum {
        let ph = usize::try_from(phoff.checked_add(i.checked_mul(phentsize)?)?).ok()?;
        let (offset, filesz) = (
            b.u64_at(ph.checked_add(8)?)?,
            b.u64_at(ph.checked_add(32)?)?,
        );
        end = end.max(offset.checked_add(filesz)?);
    }
    usize::try_from(end).ok()
}

/// The size of a code object or offload bundle.
pub fn image_size(b: &(impl ImageBytes + ?Sized)) -> Option<usize> {
    bundle_size(b).or_else(|| elf_size(b))
}

/// Registers the fat binary hipcc embeds (`__hip_fatbin_wrapper`); returns the handle the
/// generated code passes to the other registration calls.
///
/// # Safety
/// `data` must point at a fat-binary wrapper.
#[no_mangle]
pub unsafe extern "C" fn __hipRegisterFatBinary(data: *const c_void) -> *mut *mut c_void {
    let w = data as *const FatBinaryWrapper;
    let bundle = if w.is_null() || (*w).magic != 0x4849_5046 || (*w).binary.is_null() {
        eprintln!("gcnkit-hip: __hipRegisterFatBinary: not a HIP fat binary");
        Vec::new()
    } else {
        let p = (*w).binary as *const u8;
        match bundle_size(&InMemory::new(p)) {
            Some(n) => std::slice::from_raw_parts(p, n).to_vec(),
            None => {
                eprintln!(
                    "gcnkit-hip: __hipRegisterFatBinary: the fat binary holds no offload bundle"
                );
                Vec::new()
            }
        }
    };
    let mut rt = runtime();
    rt.fatbins.push(FatBinary {
        bundle,
        module: None,
        managed_vars: Vec::new(),
    });
    let index = rt.fatbins.len() - 1;
    let handle = Box::into_raw(Box::new(index)) as *mut *mut c_void;
    rt.fatbin_handles.insert(handle as usize, index);
    handle
}

/// Drops a fat binary at program exit (its module stays loaded: nothing runs after this).
///
/// # Safety
/// `modules` must come from `__hipRegisterFatBinary`.
#[no_mangle]
pub unsafe extern "C" fn __hipUnregisterFatBinary(modules: *mut *mut c_void) {
    let _ = modules;
}

/// Registers a kernel: the host stub's address and the kernel's name in the fat binary.
///
/// # Safety
/// Pointers as hipcc's generated code passes them.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn __hipRegisterFunction(
    modules: *mut *mut c_void,
    host_function: *const c_void,
    _device_function: *mut c_char,
    device_name: *const c_char,
    _thread_limit: c_uint,
    _tid: *mut c_void,
    _bid: *mut c_void,
    _block_dim: *mut dim3,
    _grid_dim: *mut dim3,
    _wsize: *mut c_int,
) {
    if device_name.is_null() {
        return;
    }
    let name = CStr::from_ptr(device_name).to_string_lossy().into_owned();
    let mut rt = runtime();
    if let Some(&fatbin) = rt.fatbin_handles.get(&(modules as usize)) {
        rt.functions
            .insert(host_function as usize, Function { fatbin, name });
    }
}

/// Registers a device variable through its host shadow.
///
/// # Safety
/// Pointers as hipcc's generated code passes them.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn __hipRegisterVar(
    modules: *mut *mut c_void,
    var: *mut c_void,
    _host_var: *mut c_char,
    device_var: *const c_char,
    _ext: c_int,
    size: usize,
    _constant: c_int,
    _global: c_int,
) {
    if device_var.is_null() {
        return;
    }
    let name = CStr::from_ptr(device_var).to_string_lossy().into_owned();
    let mut rt = runtime();
    if let Some(&fatbin) = rt.fatbin_handles.get(&(modules as usize)) {
        rt.vars.insert(var as usize, Var { fatbin, name, size });
    }
}

/// Registers a `__managed__` variable: memory the host and kernels share, initialised from
/// `init_value`, whose address the device symbol `name` holds.
///
/// # Safety
/// Pointers as hipcc's generated code passes them.
#[no_mangle]
pub unsafe extern "C" fn __hipRegisterManagedVar(
    hip_module: *mut c_void,
    pointer: *mut *mut c_void,
    init_value: *mut c_void,
    name: *const c_char,
    size: usize,
    _align: c_uint,
) {
    if pointer.is_null() || name.is_null() {
        return;
    }
    let name = CStr::from_ptr(name).to_string_lossy().into_owned();
    let mut rt = runtime();
    let Some(&fatbin) = rt.fatbin_handles.get(&(hip_module as usize)) else {
        return;
    };
    match rt.allocate_shared(size as u64, true) {
        Ok(addr) => {
            if !init_value.is_null() {
                std::ptr::copy_nonoverlapping(init_value as *const u8, addr as *mut u8, size);
            }
            *pointer = addr as *mut c_void;
            rt.fatbins[fatbin].managed_vars.push((name, addr));
        }
        Err(m) => eprintln!("gcnkit-hip: __hipRegisterManagedVar {name}: {m}"),
    }
}

/// Textures and surfaces are not emulated.
///
/// # Safety
/// Any arguments.
#[no_mangle]
pub unsafe extern "C" fn __hipRegisterTexture() {
    crate::api::unsupported("__hipRegisterTexture");
}

/// Textures and surfaces are not emulated.
///
/// # Safety
/// Any arguments.
#[no_mangle]
pub unsafe extern "C" fn __hipRegisterSurface() {
    crate::api::unsupported("__hipRegisterSurface");
}

/// Saves the configuration of a `<<<grid, block, shared, stream>>>` call for the launch
/// that follows.
#[no_mangle]
pub extern "C" fn __hipPushCallConfiguration(
    grid: dim3,
    block: dim3,
    shared: usize,
    stream: *mut c_void,
) -> hipError_t {
    guard("__hipPushCallConfiguration", || {
        CALL_CONFIGS.with(|c| c.borrow_mut().push((grid, block, shared, stream as usize)));
        ret(hipSuccess)
    })
}

/// Takes back the configuration saved by `__hipPushCallConfiguration`.
///
/// # Safety
/// Pointers must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn __hipPopCallConfiguration(
    grid: *mut dim3,
    block: *mut dim3,
    shared: *mut usize,
    stream: *mut *mut c_void,
) -> hipError_t {
    guard("__hipPopCallConfiguration", || {
        let Some((g, b, s, st)) = CALL_CONFIGS.with(|c| c.borrow_mut().pop()) else {
            return fail(
                "__hipPopCallConfiguration",
                (
                    hipErrorMissingConfiguration,
                    "no launch configuration was pushed".into(),
                ),
            );
        };
        if !grid.is_null() {
            *grid = g;
        }
        if !block.is_null() {
            *block = b;
        }
        if !shared.is_null() {
            *shared = s;
        }
        if !stream.is_null() {
            *stream = st as *mut c_void;
        }
        ret(hipSuccess)
    })
}
