//! Memory: device allocations, memory shared with the host, copies and fills in every
//! direction (the direction is read from the pointers: `hipMemcpyDefault` and the explicit
//! kinds behave alike), symbols.

use std::ffi::{c_int, c_uint, c_void};

use crate::runtime::{fail, guard, ret, runtime};
use crate::types::*;

/// Bytes of device memory the emulated device reports (its address space is larger; this is
/// what `hipMemGetInfo` and `totalGlobalMem` say).
pub const DEVICE_MEMORY: usize = 16 << 30;

unsafe fn out<T>(call: &str, p: *mut T, value: T) -> hipError_t {
    if p.is_null() {
        return fail(call, (hipErrorInvalidValue, "null output pointer".into()));
    }
    *p = value;
    ret(hipSuccess)
}

/// `hipMalloc`.
///
/// # Safety
/// `ptr` must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipMalloc(ptr: *mut *mut c_void, size: usize) -> hipError_t {
    guard("hipMalloc", || {
        if ptr.is_null() {
            return fail("hipMalloc", (hipErrorInvalidValue, "null pointer".into()));
        }
        if size == 0 {
            *ptr = std::ptr::null_mut();
            return ret(hipSuccess);
        }
        match runtime().device.allocate(size as u64) {
            Ok(a) => out("hipMalloc", ptr, a as *mut c_void),
            Err(e) => fail("hipMalloc", (hipErrorOutOfMemory, e.to_string())),
        }
    })
}

/// `hipExtMallocWithFlags`: as `hipMalloc`.
///
/// # Safety
/// `ptr` must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipExtMallocWithFlags(
    ptr: *mut *mut c_void,
    size: usize,
    _flags: c_uint,
) -> hipError_t {
    hipMalloc(ptr, size)
}

/// `hipMallocPitch`: rows padded to 256 bytes.
///
/// # Safety
/// Pointers must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipMallocPitch(
    ptr: *mut *mut c_void,
    pitch: *mut usize,
    width: usize,
    height: usize,
) -> hipError_t {
    if pitch.is_null() {
        return fail(
            "hipMallocPitch",
            (hipErrorInvalidValue, "null pitch".into()),
        );
    }
    let p = width.div_ceil(256) * 256;
    *pitch = p;
    hipMalloc(ptr, p * height)
}

unsafe fn shared_alloc(
    call: &str,
    ptr: *mut *mut c_void,
    size: usize,
    managed: bool,
) -> hipError_t {
    guard(call, || {
        if ptr.is_null() {
            return fail(call, (hipErrorInvalidValue, "null pointer".into()));
        }
        if size == 0 {
            *ptr = std::ptr::null_mut();
            return ret(hipSuccess);
        }
        match runtime().allocate_shared(size as u64, managed) {
            Ok(a) => out(call, ptr, a as *mut c_void),
            Err(m) => fail(call, (hipErrorOutOfMemory, m)),
        }
    })
}

/// `hipHostMalloc`: host memory kernels can use at the same address.
///
/// # Safety
/// `ptr` must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipHostMalloc(
    ptr: *mut *mut c_void,
    size: usize,
    _flags: c_uint,
) -> hipError_t {
    shared_alloc("hipHostMalloc", ptr, size, false)
}

/// `hipHostAlloc` (deprecated name of `hipHostMalloc`).
///
/// # Safety
/// `ptr` must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipHostAlloc(
    ptr: *mut *mut c_void,
    size: usize,
    _flags: c_uint,
) -> hipError_t {
    shared_alloc("hipHostAlloc", ptr, size, false)
}

/// `hipMallocHost` (deprecated name of `hipHostMalloc`).
///
/// # Safety
/// `ptr` must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipMallocHost(ptr: *mut *mut c_void, size: usize) -> hipError_t {
    shared_alloc("hipMallocHost", ptr, size, false)
}

/// `hipMallocManaged`: memory the host and kernels share.
///
/// # Safety
/// `ptr` must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipMallocManaged(
    ptr: *mut *mut c_void,
    size: usize,
    _flags: c_uint,
) -> hipError_t {
    shared_alloc("hipMallocManaged", ptr, size, true)
}

unsafe fn free(call: &str, ptr: *mut c_void) -> hipError_t {
    guard(call, || {
        if ptr.is_null() {
            return ret(hipSuccess);
        }
        match runtime().free(ptr as u64) {
            Ok(()) => ret(hipSuccess),
            Err(m) => fail(call, (hipErrorInvalidDevicePointer, m)),
        }
    })
}

/// `hipFree`.
///
/// # Safety
/// `ptr` must come from an allocation call, or be null.
#[no_mangle]
pub unsafe extern "C" fn hipFree(ptr: *mut c_void) -> hipError_t {
    free("hipFree", ptr)
}

/// `hipHostFree`.
///
/// # Safety
/// `ptr` must come from `hipHostMalloc`, or be null.
#[no_mangle]
pub unsafe extern "C" fn hipHostFree(ptr: *mut c_void) -> hipError_t {
    free("hipHostFree", ptr)
}

/// `hipFreeHost` (deprecated name of `hipHostFree`).
///
/// # Safety
/// `ptr` must come from `hipHostMalloc`, or be null.
#[no_mangle]
pub unsafe extern "C" fn hipFreeHost(ptr: *mut c_void) -> hipError_t {
    free("hipFreeHost", ptr)
}

/// `hipHostGetDevicePointer`: host-shared memory has one address on both sides.
///
/// # Safety
/// Pointers must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipHostGetDevicePointer(
    device_ptr: *mut *mut c_void,
    host_ptr: *mut c_void,
    _flags: c_uint,
) -> hipError_t {
    guard("hipHostGetDevicePointer", || {
        if runtime().mirror_of(host_ptr as u64).is_none() {
            return fail(
                "hipHostGetDevicePointer",
                (
                    hipErrorInvalidValue,
                    format!("{host_ptr:p} is not from hipHostMalloc"),
                ),
            );
        }
        out("hipHostGetDevicePointer", device_ptr, host_ptr)
    })
}

/// `hipHostGetFlags`.
///
/// # Safety
/// Pointers must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipHostGetFlags(flags: *mut c_uint, host_ptr: *mut c_void) -> hipError_t {
    guard("hipHostGetFlags", || {
        if runtime().mirror_of(host_ptr as u64).is_none() {
            return fail(
                "hipHostGetFlags",
                (hipErrorInvalidValue, "not host memory".into()),
            );
        }
        out("hipHostGetFlags", flags, 0)
    })
}

unsafe fn copy(call: &str, dst: *mut c_void, src: *const c_void, size: usize) -> hipError_t {
    guard(call, || {
        if size == 0 {
            return ret(hipSuccess);
        }
        if dst.is_null() || src.is_null() {
            return fail(call, (hipErrorInvalidValue, "null pointer".into()));
        }
        match runtime().copy(dst as u64, src as u64, size as u64) {
            Ok(()) => ret(hipSuccess),
            Err(m) => fail(call, (hipErrorInvalidValue, m)),
        }
    })
}

/// `hipMemcpy`: the direction follows from the pointers.
///
/// # Safety
/// Host pointers must be valid for `size` bytes.
#[no_mangle]
pub unsafe extern "C" fn hipMemcpy(
    dst: *mut c_void,
    src: *const c_void,
    size: usize,
    kind: hipMemcpyKind,
) -> hipError_t {
    if !(0..=4).contains(&kind) {
        return fail(
            "hipMemcpy",
            (hipErrorInvalidMemcpyDirection, format!("kind {kind}")),
        );
    }
    copy("hipMemcpy", dst, src, size)
}

/// `hipMemcpyWithStream`.
///
/// # Safety
/// As [`hipMemcpy`].
#[no_mangle]
pub unsafe extern "C" fn hipMemcpyWithStream(
    dst: *mut c_void,
    src: *const c_void,
    size: usize,
    kind: hipMemcpyKind,
    _stream: *mut c_void,
) -> hipError_t {
    hipMemcpy(dst, src, size, kind)
}

/// `hipMemcpyAsync`: done at once (work on a stream runs in order, and this call is the
/// stream's next work).
///
/// # Safety
/// As [`hipMemcpy`].
#[no_mangle]
pub unsafe extern "C" fn hipMemcpyAsync(
    dst: *mut c_void,
    src: *const c_void,
    size: usize,
    kind: hipMemcpyKind,
    _stream: *mut c_void,
) -> hipError_t {
    hipMemcpy(dst, src, size, kind)
}

macro_rules! typed_copies {
    ($($name:ident, $async_name:ident;)*) => {$(
        /// A copy of `size` bytes (the direction follows from the pointers).
        ///
        /// # Safety
        /// Host pointers must be valid for `size` bytes.
        #[no_mangle]
        pub unsafe extern "C" fn $name(dst: *mut c_void, src: *const c_void, size: usize) -> hipError_t {
            copy(stringify!($name), dst, src, size)
        }

        /// The same, on a stream.
        ///
        /// # Safety
        /// Host pointers must be valid for `size` bytes.
        #[no_mangle]
        pub unsafe extern "C" fn $async_name(
            dst: *mut c_void,
            src: *const c_void,
            size: usize,
            _stream: *mut c_void,
        ) -> hipError_t {
            copy(stringify!($async_name), dst, src, size)
        }
    )*};
}

typed_copies! {
    hipMemcpyHtoD, hipMemcpyHtoDAsync;
    hipMemcpyDtoH, hipMemcpyDtoHAsync;
    hipMemcpyDtoD, hipMemcpyDtoDAsync;
}

/// `hipMemcpy2D`: `height` rows of `width` bytes.
///
/// # Safety
/// Host pointers must be valid for the rows they hold.
#[no_mangle]
pub unsafe extern "C" fn hipMemcpy2D(
    dst: *mut c_void,
    dpitch: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    _kind: hipMemcpyKind,
) -> hipError_t {
    if width > dpitch || width > spitch {
        return fail(
            "hipMemcpy2D",
            (hipErrorInvalidValue, "width exceeds a pitch".into()),
        );
    }
    for row in 0..height {
        let e = copy(
            "hipMemcpy2D",
            (dst as *mut u8).wrapping_add(row * dpitch) as *mut c_void,
            (src as *const u8).wrapping_add(row * spitch) as *const c_void,
            width,
        );
        if e != hipSuccess {
            return e;
        }
    }
    ret(hipSuccess)
}

/// `hipMemcpy2DAsync`.
///
/// # Safety
/// As [`hipMemcpy2D`].
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn hipMemcpy2DAsync(
    dst: *mut c_void,
    dpitch: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    kind: hipMemcpyKind,
    _stream: *mut c_void,
) -> hipError_t {
    hipMemcpy2D(dst, dpitch, src, spitch, width, height, kind)
}

unsafe fn symbol_address(call: &str, symbol: *const c_void) -> Result<(u64, usize), hipError_t> {
    runtime()
        .var_address(symbol as usize)
        .map_err(|e| fail(call, e))
}

/// `hipMemcpyToSymbol`.
///
/// # Safety
/// `src` must be valid for `size` bytes; `symbol` a registered variable's host shadow.
#[no_mangle]
pub unsafe extern "C" fn hipMemcpyToSymbol(
    symbol: *const c_void,
    src: *const c_void,
    size: usize,
    offset: usize,
    _kind: hipMemcpyKind,
) -> hipError_t {
    guard("hipMemcpyToSymbol", || {
        let (addr, len) = match symbol_address("hipMemcpyToSymbol", symbol) {
            Ok(a) => a,
            Err(e) => return e,
        };
        if offset + size > len {
            return fail(
                "hipMemcpyToSymbol",
                (
                    hipErrorInvalidValue,
                    format!("{size} bytes at offset {offset} of a {len}-byte variable"),
                ),
            );
        }
        copy(
            "hipMemcpyToSymbol",
            (addr + offset as u64) as *mut c_void,
            src,
            size,
        )
    })
}

/// `hipMemcpyFromSymbol`.
///
/// # Safety
/// `dst` must be valid for `size` bytes; `symbol` a registered variable's host shadow.
#[no_mangle]
pub unsafe extern "C" fn hipMemcpyFromSymbol(
    dst: *mut c_void,
    symbol: *const c_void,
    size: usize,
    offset: usize,
    _kind: hipMemcpyKind,
) -> hipError_t {
    guard("hipMemcpyFromSymbol", || {
        let (addr, len) = match symbol_address("hipMemcpyFromSymbol", symbol) {
            Ok(a) => a,
            Err(e) => return e,
        };
        if offset + size > len {
            return fail(
                "hipMemcpyFromSymbol",
                (
                    hipErrorInvalidValue,
                    format!("{size} bytes at offset {offset} of a {len}-byte variable"),
                ),
            );
        }
        copy(
            "hipMemcpyFromSymbol",
            dst,
            (addr + offset as u64) as *const c_void,
            size,
        )
    })
}

/// `hipMemcpyToSymbolAsync`.
///
/// # Safety
/// As [`hipMemcpyToSymbol`].
#[no_mangle]
pub unsafe extern "C" fn hipMemcpyToSymbolAsync(
    symbol: *const c_void,
    src: *const c_void,
    size: usize,
    offset: usize,
    kind: hipMemcpyKind,
    _stream: *mut c_void,
) -> hipError_t {
    hipMemcpyToSymbol(symbol, src, size, offset, kind)
}

/// `hipMemcpyFromSymbolAsync`.
///
/// # Safety
/// As [`hipMemcpyFromSymbol`].
#[no_mangle]
pub unsafe extern "C" fn hipMemcpyFromSymbolAsync(
    dst: *mut c_void,
    symbol: *const c_void,
    size: usize,
    offset: usize,
    kind: hipMemcpyKind,
    _stream: *mut c_void,
) -> hipError_t {
    hipMemcpyFromSymbol(dst, symbol, size, offset, kind)
}

/// `hipGetSymbolAddress`.
///
/// # Safety
/// `ptr` must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipGetSymbolAddress(
    ptr: *mut *mut c_void,
    symbol: *const c_void,
) -> hipError_t {
    guard("hipGetSymbolAddress", || {
        match symbol_address("hipGetSymbolAddress", symbol) {
            Ok((a, _)) => out("hipGetSymbolAddress", ptr, a as *mut c_void),
            Err(e) => e,
        }
    })
}

/// `hipGetSymbolSize`.
///
/// # Safety
/// `size` must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipGetSymbolSize(size: *mut usize, symbol: *const c_void) -> hipError_t {
    guard("hipGetSymbolSize", || {
        match symbol_address("hipGetSymbolSize", symbol) {
            Ok((_, n)) => out("hipGetSymbolSize", size, n),
            Err(e) => e,
        }
    })
}

unsafe fn fill(call: &str, dst: *mut c_void, unit: &[u8], count: usize) -> hipError_t {
    guard(call, || {
        if count == 0 {
            return ret(hipSuccess);
        }
        if dst.is_null() {
            return fail(call, (hipErrorInvalidValue, "null pointer".into()));
        }
        let len = (count * unit.len()) as u64;
        match runtime().fill(dst as u64, unit, len) {
            Ok(()) => ret(hipSuccess),
            Err(m) => fail(call, (hipErrorInvalidValue, m)),
        }
    })
}

/// `hipMemset`: `size` bytes set to the low byte of `value`.
///
/// # Safety
/// A host `dst` must be valid for `size` bytes.
#[no_mangle]
pub unsafe extern "C" fn hipMemset(dst: *mut c_void, value: c_int, size: usize) -> hipError_t {
    fill("hipMemset", dst, &[value as u8], size)
}

/// `hipMemsetAsync`.
///
/// # Safety
/// As [`hipMemset`].
#[no_mangle]
pub unsafe extern "C" fn hipMemsetAsync(
    dst: *mut c_void,
    value: c_int,
    size: usize,
    _stream: *mut c_void,
) -> hipError_t {
    fill("hipMemsetAsync", dst, &[value as u8], size)
}

/// `hipMemsetD8`.
///
/// # Safety
/// As [`hipMemset`].
#[no_mangle]
pub unsafe extern "C" fn hipMemsetD8(dst: *mut c_void, value: u8, count: usize) -> hipError_t {
    fill("hipMemsetD8", dst, &[value], count)
}

/// `hipMemsetD8Async`.
///
/// # Safety
/// As [`hipMemset`].
#[no_mangle]
pub unsafe extern "C" fn hipMemsetD8Async(
    dst: *mut c_void,
    value: u8,
    count: usize,
    _stream: *mut c_void,
) -> hipError_t {
    fill("hipMemsetD8Async", dst, &[value], count)
}

/// `hipMemsetD16`: `count` 16-bit values.
///
/// # Safety
/// A host `dst` must be valid for `2 * count` bytes.
#[no_mangle]
pub unsafe extern "C" fn hipMemsetD16(dst: *mut c_void, value: u16, count: usize) -> hipError_t {
    fill("hipMemsetD16", dst, &value.to_le_bytes(), count)
}

/// `hipMemsetD16Async`.
///
/// # Safety
/// As [`hipMemsetD16`].
#[no_mangle]
pub unsafe extern "C" fn hipMemsetD16Async(
    dst: *mut c_void,
    value: u16,
    count: usize,
    _stream: *mut c_void,
) -> hipError_t {
    fill("hipMemsetD16Async", dst, &value.to_le_bytes(), count)
}

/// `hipMemsetD32`: `count` 32-bit values.
///
/// # Safety
/// A host `dst` must be valid for `4 * count` bytes.
#[no_mangle]
pub unsafe extern "C" fn hipMemsetD32(dst: *mut c_void, value: c_int, count: usize) -> hipError_t {
    fill("hipMemsetD32", dst, &value.to_le_bytes(), count)
}

/// `hipMemsetD32Async`.
///
/// # Safety
/// As [`hipMemsetD32`].
#[no_mangle]
pub unsafe extern "C" fn hipMemsetD32Async(
    dst: *mut c_void,
    value: c_int,
    count: usize,
    _stream: *mut c_void,
) -> hipError_t {
    fill("hipMemsetD32Async", dst, &value.to_le_bytes(), count)
}

/// `hipMemset2D`.
///
/// # Safety
/// A host `dst` must be valid for the rows it holds.
#[no_mangle]
pub unsafe extern "C" fn hipMemset2D(
    dst: *mut c_void,
    pitch: usize,
    value: c_int,
    width: usize,
    height: usize,
) -> hipError_t {
    for row in 0..height {
        let e = fill(
            "hipMemset2D",
            (dst as *mut u8).wrapping_add(row * pitch) as *mut c_void,
            &[value as u8],
            width,
        );
        if e != hipSuccess {
            return e;
        }
    }
    ret(hipSuccess)
}

/// `hipMemGetInfo`.
///
/// # Safety
/// Pointers must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipMemGetInfo(free: *mut usize, total: *mut usize) -> hipError_t {
    guard("hipMemGetInfo", || {
        let used: u64 = runtime()
            .device
            .memory()
            .allocations()
            .map(|a| a.size)
            .sum();
        let free_bytes = DEVICE_MEMORY.saturating_sub(used as usize);
        if free.is_null() || total.is_null() {
            return fail(
                "hipMemGetInfo",
                (hipErrorInvalidValue, "null pointer".into()),
            );
        }
        *free = free_bytes;
        *total = DEVICE_MEMORY;
        ret(hipSuccess)
    })
}

/// `hipMemPtrGetInfo`: the size of the allocation at `ptr`.
///
/// # Safety
/// `size` must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipMemPtrGetInfo(ptr: *mut c_void, size: *mut usize) -> hipError_t {
    guard("hipMemPtrGetInfo", || {
        let found = runtime().device.memory().allocation_of(ptr as u64).copied();
        match found {
            Some(a) => out("hipMemPtrGetInfo", size, a.size as usize),
            None => fail(
                "hipMemPtrGetInfo",
                (hipErrorInvalidValue, format!("{ptr:p} is not allocated")),
            ),
        }
    })
}

/// `hipPointerGetAttributes`.
///
/// # Safety
/// `attributes` must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipPointerGetAttributes(
    attributes: *mut hipPointerAttribute_t,
    ptr: *const c_void,
) -> hipError_t {
    guard("hipPointerGetAttributes", || {
        if attributes.is_null() {
            return fail(
                "hipPointerGetAttributes",
                (hipErrorInvalidValue, "null attributes".into()),
            );
        }
        let rt = runtime();
        let addr = ptr as u64;
        let (memory_type, managed, host) = if let Some((_, m)) = rt.mirror_of(addr) {
            (
                if m.managed {
                    hipMemoryTypeDevice
                } else {
                    hipMemoryTypeHost
                },
                m.managed,
                true,
            )
        } else if rt.device.memory().allocation_of(addr).is_some() {
            (hipMemoryTypeDevice, false, false)
        } else {
            return fail(
                "hipPointerGetAttributes",
                (
                    hipErrorInvalidValue,
                    format!("{ptr:p} is not memory the runtime allocated"),
                ),
            );
        };
        *attributes = hipPointerAttribute_t {
            memoryType: memory_type,
            device: 0,
            devicePointer: ptr as *mut c_void,
            hostPointer: if host {
                ptr as *mut c_void
            } else {
                std::ptr::null_mut()
            },
            isManaged: managed as c_int,
            allocationFlags: 0,
        };
        ret(hipSuccess)
    })
}
