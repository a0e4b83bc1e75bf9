//! Kernel launches: `<<<...>>>` (through `hipLaunchKernel`), the module API's launches, and
//! the helpers `hipLaunchKernelGGL` expands to.

use std::ffi::c_void;

use crate::runtime::{fail, guard, ret, runtime, KernelArgs};
use crate::types::*;

/// Launches the kernel registered for `function`.
///
/// # Safety
/// `args` as the HIP API describes: one pointer per kernel argument.
#[no_mangle]
pub unsafe extern "C" fn hipLaunchKernel(
    function: *const c_void,
    groups: dim3,
    block: dim3,
    args: *mut *mut c_void,
    shared: usize,
    _stream: *mut c_void,
) -> hipError_t {
    guard("hipLaunchKernel", || {
        let mut rt = runtime();
        let (module, name) = match rt.registered_kernel(function as usize) {
            Ok(k) => k,
            Err(e) => return fail("hipLaunchKernel", e),
        };
        match rt.launch(
            &module,
            &name,
            groups,
            block,
            shared,
            &KernelArgs::Pointers(args),
        ) {
            Ok(()) => ret(hipSuccess),
            Err(e) => fail(&format!("hipLaunchKernel({name})"), e),
        }
    })
}

/// `hipLaunchKernelGGL`'s out-of-line form in older headers.
///
/// # Safety
/// As [`hipLaunchKernel`].
#[export_name = "_ZN8hip_impl22hipLaunchKernelGGLImplEmRK4dim3S2_jP12ihipStream_tPPv"]
pub unsafe extern "C" fn hip_launch_kernel_ggl_impl(
    function: usize,
    groups: *const dim3,
    block: *const dim3,
    shared: u32,
    stream: *mut c_void,
    args: *mut *mut c_void,
) {
    if groups.is_null() || block.is_null() {
        ret(hipErrorInvalidValue);
        return;
    }
    hipLaunchKernel(
        function as *const c_void,
        *groups,
        *block,
        args,
        shared as usize,
        stream,
    );
}

/// Cooperative launches need every work-group resident at once for grid-wide barriers; the
/// emulator runs work-groups in turn, so they are refused rather than left to hang.
///
/// # Safety
/// Any arguments.
#[no_mangle]
pub unsafe extern "C" fn hipLaunchCooperativeKernel(
    _function: *const c_void,
    _groups: dim3,
    _block: dim3,
    _args: *mut *mut c_void,
    _shared: u32,
    _stream: *mut c_void,
) -> hipError_t {
    crate::api::unsupported("hipLaunchCooperativeKernel")
}

/// The explicit arguments of a module launch: `kernel_params`, or the buffer `extra` names.
unsafe fn module_args(
    kernel_params: *mut *mut c_void,
    extra: *mut *mut c_void,
) -> Result<KernelArgs, (hipError_t, String)> {
    if !kernel_params.is_null() || extra.is_null() {
        return Ok(KernelArgs::Pointers(kernel_params));
    }
    let (mut buffer, mut size) = (std::ptr::null::<u8>(), None);
    let mut i = 0;
    loop {
        match *extra.add(i) as usize {
            HIP_LAUNCH_PARAM_END => break,
            HIP_LAUNCH_PARAM_BUFFER_POINTER => buffer = *extra.add(i + 1) as *const u8,
            HIP_LAUNCH_PARAM_BUFFER_SIZE => {
                let p = *extra.add(i + 1) as *const usize;
                size = (!p.is_null()).then(|| *p);
            }
            other => {
                return Err((
                    hipErrorInvalidValue,
                    format!("unknown launch parameter {other:#x} in extra"),
                ))
            }
        }
        i += 2;
    }
    match (buffer.is_null(), size) {
        (false, Some(n)) => Ok(KernelArgs::Buffer(buffer, n)),
        _ => Err((
            hipErrorInvalidValue,
            "extra must give HIP_LAUNCH_PARAM_BUFFER_POINTER and HIP_LAUNCH_PARAM_BUFFER_SIZE"
                .into(),
        )),
    }
}

unsafe fn module_launch(
    call: &str,
    f: *mut c_void,
    groups: dim3,
    block: dim3,
    shared: usize,
    kernel_params: *mut *mut c_void,
    extra: *mut *mut c_void,
) -> hipError_t {
    let mut rt = runtime();
    let Some(mf) = rt.module_functions.get(&(f as usize)) else {
        return fail(
            call,
            (hipErrorInvalidHandle, "unknown function handle".into()),
        );
    };
    let (module, name) = (mf.module.clone(), mf.name.clone());
    let args = match module_args(kernel_params, extra) {
        Ok(a) => a,
        Err(e) => return fail(call, e),
    };
    match rt.launch(&module, &name, groups, block, shared, &args) {
        Ok(()) => ret(hipSuccess),
        Err(e) => fail(&format!("{call}({name})"), e),
    }
}

/// Launches a kernel from `hipModuleGetFunction` over a grid of blocks.
///
/// # Safety
/// Arguments as the HIP API describes.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn hipModuleLaunchKernel(
    f: *mut c_void,
    gx: u32,
    gy: u32,
    gz: u32,
    bx: u32,
    by: u32,
    bz: u32,
    shared: u32,
    _stream: *mut c_void,
    kernel_params: *mut *mut c_void,
    extra: *mut *mut c_void,
) -> hipError_t {
    guard("hipModuleLaunchKernel", || {
        module_launch(
            "hipModuleLaunchKernel",
            f,
            dim3 {
                x: gx,
                y: gy,
                z: gz,
            },
            dim3 {
                x: bx,
                y: by,
                z: bz,
            },
            shared as usize,
            kernel_params,
            extra,
        )
    })
}

/// Launches a module kernel over a grid given in work-items (HIP's extension), recording
/// the optional start and stop events around it.
///
/// # Safety
/// Arguments as the HIP API describes.
#[allow(clippy::too_many_arguments)]
unsafe fn ext_module_launch(
    call: &str,
    f: *mut c_void,
    global: [u32; 3],
    local: [u32; 3],
    shared: usize,
    stream: *mut c_void,
    kernel_params: *mut *mut c_void,
    extra: *mut *mut c_void,
    start: *mut c_void,
    stop: *mut c_void,
) -> hipError_t {
    if local.contains(&0) {
        return fail(
            call,
            (
                hipErrorInvalidConfiguration,
                "a block dimension is 0".into(),
            ),
        );
    }
    let groups = dim3 {
        x: global[0].div_ceil(local[0]),
        y: global[1].div_ceil(local[1]),
        z: global[2].div_ceil(local[2]),
    };
    if !start.is_null() {
        crate::api::stream::hipEventRecord(start, stream);
    }
    let e = module_launch(
        call,
        f,
        groups,
        dim3 {
            x: local[0],
            y: local[1],
            z: local[2],
        },
        shared,
        kernel_params,
        extra,
    );
    if !stop.is_null() {
        crate::api::stream::hipEventRecord(stop, stream);
    }
    ret(e)
}

/// `hipExtModuleLaunchKernel`.
///
/// # Safety
/// Arguments as the HIP API describes.
#[export_name = "_Z24hipExtModuleLaunchKernelP18ihipModuleSymbol_tjjjjjjmP12ihipStream_tPPvS4_P11ihipEvent_tS6_j"]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn hip_ext_module_launch_kernel(
    f: *mut c_void,
    gx: u32,
    gy: u32,
    gz: u32,
    lx: u32,
    ly: u32,
    lz: u32,
    shared: usize,
    stream: *mut c_void,
    kernel_params: *mut *mut c_void,
    extra: *mut *mut c_void,
    start: *mut c_void,
    stop: *mut c_void,
    _flags: u32,
) -> hipError_t {
    guard("hipExtModuleLaunchKernel", || {
        ext_module_launch(
            "hipExtModuleLaunchKernel",
            f,
            [gx, gy, gz],
            [lx, ly, lz],
            shared,
            stream,
            kernel_params,
            extra,
            start,
            stop,
        )
    })
}

/// `hipHccModuleLaunchKernel`: `hipExtModuleLaunchKernel` without flags.
///
/// # Safety
/// Arguments as the HIP API describes.
#[export_name = "_Z24hipHccModuleLaunchKernelP18ihipModuleSymbol_tjjjjjjmP12ihipStream_tPPvS4_P11ihipEvent_tS6_"]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn hip_hcc_module_launch_kernel(
    f: *mut c_void,
    gx: u32,
    gy: u32,
    gz: u32,
    lx: u32,
    ly: u32,
    lz: u32,
    shared: usize,
    stream: *mut c_void,
    kernel_params: *mut *mut c_void,
    extra: *mut *mut c_void,
    start: *mut c_void,
    stop: *mut c_void,
) -> hipError_t {
    hip_ext_module_launch_kernel(
        f,
        gx,
        gy,
        gz,
        lx,
        ly,
        lz,
        shared,
        stream,
        kernel_params,
        extra,
        start,
        stop,
        0,
    )
}
