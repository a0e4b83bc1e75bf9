//! The runtime's state: the emulated device, the fat binaries and kernels the program
//! registered, modules, memory shared with the host, streams and events.
//!
//! One device, one lock: every API call takes the lock for as long as it works, and a
//! launch runs to completion inside the call (streams are ordered by construction, events
//! record the time their position in the stream was reached).

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::Instant;

use gcnkit_codeobj::container::code_objects_in;
use gcnkit_codeobj::CodeObjectInfo;
use gcnkit_emu::{ArgValue, Device, EmuError, Grid, Module};

use crate::types::*;

/// The environment variable that names the processor to emulate.
pub const ARCH_VARIABLE: &str = "GCNKIT_HIP_ARCH";

/// The processor emulated when neither the variable nor a registered fat binary names one.
const DEFAULT_ARCH: &str = "gfx90a";

/// A registered fat binary: the offload bundle, and its module once loaded.
pub struct FatBinary {
    /// The bundle's bytes (copied: the program's copy lives in its own data section).
    pub bundle: Vec<u8>,
    /// The loaded module, or why it could not be loaded.
    pub module: Option<Result<Arc<Module>, (hipError_t, String)>>,
    /// Managed variables to point at their memory once the module is loaded: (device
    /// symbol, address of the memory).
    pub managed_vars: Vec<(String, u64)>,
}

/// A kernel a program registered: the fat binary it is in and its name there.
#[derive(Clone)]
pub struct Function {
    pub fatbin: usize,
    pub name: String,
}

/// A device variable a program registered through its host shadow.
#[derive(Clone)]
pub struct Var {
    pub fatbin: usize,
    pub name: String,
    pub size: usize,
}

/// Memory both the host and the kernels use at the same address (`hipHostMalloc`,
/// `hipMallocManaged`): host pages mapped at the address of a device allocation. The host's
/// copy is the one that counts between launches; it is copied to the device before each
/// launch and back after it.
pub struct Mirror {
    pub size: u64,
    pub managed: bool,
}

/// A module loaded by `hipModuleLoad*`.
pub struct LoadedModule {
    pub module: Arc<Module>,
}

/// A kernel handle from `hipModuleGetFunction`.
pub struct ModuleFunction {
    pub module: Arc<Module>,
    pub name: String,
}

/// A stream: its creation flags and priority.
pub struct Stream {
    pub flags: u32,
    pub priority: i32,
}

/// An event: when it was last recorded.
pub struct Event {
    pub recorded: Option<Instant>,
}

/// How a launch's explicit arguments are given.
pub enum KernelArgs {
    /// One pointer per argument (`void** args`).
    Pointers(*mut *mut std::ffi::c_void),
    /// A buffer laid out as the kernarg segment (`HIP_LAUNCH_PARAM_BUFFER_POINTER`).
    Buffer(*const u8, usize),
}

/// Everything the runtime holds.
pub struct Runtime {
    pub device: Device,
    /// The processor emulated, once chosen.
    pub arch: Option<String>,
    pub fatbins: Vec<FatBinary>,
    /// Fat-binary handles given to the program (leaked boxes holding the index).
    pub fatbin_handles: HashMap<usize, usize>,
    pub functions: HashMap<usize, Function>,
    pub vars: HashMap<usize, Var>,
    pub mirrors: BTreeMap<u64, Mirror>,
    pub modules: HashMap<usize, LoadedModule>,
    pub module_functions: HashMap<usize, ModuleFunction>,
    pub streams: HashMap<usize, Stream>,
    pub events: HashMap<usize, Event>,
    next_handle: usize,
    /// Names of the unsupported entry points already reported on stderr.
    pub reported: HashSet<String>,
}

impl Runtime {
    fn new() -> Runtime {
        Runtime {
            device: Device::new(),
            arch: std::env::var(ARCH_VARIABLE).ok().filter(|a| !a.is_empty()),
            fatbins: Vec::new(),
            fatbin_handles: HashMap::new(),
            functions: HashMap::new(),
            vars: HashMap::new(),
            mirrors: BTreeMap::new(),
            modules: HashMap::new(),
            module_functions: HashMap::new(),
            streams: HashMap::new(),
            events: HashMap::new(),
            next_handle: 0x1000,
            reported: HashSet::new(),
        }
    }

    /// A fresh opaque handle value (never null, never reused).
    pub fn handle(&mut self) -> usize {
        self.next_handle += 16;
        self.next_handle
    }

    /// The processor emulated: `GCNKIT_HIP_ARCH`, else the newest processor among the code
    /// objects of the registered fat binaries (or, with none, of `first_image`, the first
    /// module loaded) that the emulator runs, else gfx90a. Chosen once.
    pub fn arch_for(&mut self, first_image: Option<&[u8]>) -> String {
        if let Some(a) = &self.arch {
            return a.clone();
        }
        let images: Vec<&[u8]> = if self.fatbins.is_empty() {
            first_image.into_iter().collect()
        } else {
            self.fatbins.iter().map(|f| f.bundle.as_slice()).collect()
        };
        let best = images
            .into_iter()
            .filter_map(newest_processor)
            .max_by(|a, b| (a.gen(), a.processor.name).cmp(&(b.gen(), b.processor.name)));
        let arch = best.map_or(DEFAULT_ARCH.to_string(), |t| t.processor.name.to_string());
        self.arch = Some(arch.clone());
        arch
    }

    /// [`Runtime::arch_for`] without a module image.
    pub fn arch(&mut self) -> String {
        self.arch_for(None)
    }

    /// The module of fat binary `i`, loaded for the emulated processor on first use.
    pub fn fatbin_module(&mut self, i: usize) -> Result<Arc<Module>, (hipError_t, String)> {
        if let Some(m) = self.fatbins.get(i).and_then(|f| f.module.clone()) {
            return m;
        }
        let arch = self.arch();
        let Some(fb) = self.fatbins.get(i) else {
            return Err((hipErrorInvalidHandle, "unknown fat binary".into()));
        };
        let bundle = fb.bundle.clone();
        let result = match self.device.load(&bundle, Some(&arch)) {
            Ok(m) => Ok(Arc::new(m)),
            Err(e) => Err((hipErrorNoBinaryForGpu, format!("{e}"))),
        };
        if let Ok(m) = &result {
            // Managed variables: the device symbol holds the address of their memory.
            let vars = self.fatbins[i].managed_vars.clone();
            for (name, addr) in vars {
                if let Some(g) = m.global(&name) {
                    let _ = self.device.write(g.address, &addr.to_le_bytes());
                }
            }
        }
        self.fatbins[i].module = Some(result.clone());
        result
    }

    /// The module and kernel name a registered host function stands for.
    pub fn registered_kernel(
        &mut self,
        host_function: usize,
    ) -> Result<(Arc<Module>, String), (hipError_t, String)> {
        let Some(f) = self.functions.get(&host_function).cloned() else {
            return Err((
                hipErrorInvalidDeviceFunction,
                format!("no kernel is registered for host function {host_function:#x}"),
            ));
        };
        Ok((self.fatbin_module(f.fatbin)?, f.name))
    }

    /// The device address of a registered variable (by its host shadow's address).
    pub fn var_address(&mut self, shadow: usize) -> Result<(u64, usize), (hipError_t, String)> {
        let Some(v) = self.vars.get(&shadow).cloned() else {
            return Err((
                hipErrorInvalidSymbol,
                format!("no device variable is registered at {shadow:#x}"),
            ));
        };
        let m = self.fatbin_module(v.fatbin)?;
        match m.global(&v.name) {
            Some(g) => Ok((g.address, v.size.max(g.size as usize))),
            None => Err((
                hipErrorInvalidSymbol,
                format!("the code object has no variable {}", v.name),
            )),
        }
    }

    /// True if `[addr, addr + len)` lies in device memory the host cannot touch directly
    /// (an allocation or a loaded module, not a host-shared mirror).
    pub fn is_device_only(&self, addr: u64, len: u64) -> bool {
        if self.mirror_of(addr).is_some() {
            return false;
        }
        self.device
            .memory()
            .allocation_of(addr)
            .is_some_and(|a| addr + len <= a.addr + a.size.max(1).div_ceil(4096) * 4096)
    }

    /// The host-shared mirror containing `addr`: (start, size).
    pub fn mirror_of(&self, addr: u64) -> Option<(u64, &Mirror)> {
        let (&start, m) = self.mirrors.range(..=addr).next_back()?;
        (addr < start + m.size.max(1)).then_some((start, m))
    }

    /// Copies `len` bytes from `src` to `dst`, each either device memory or host memory.
    ///
    /// # Safety
    /// Host addresses must be valid for `len` bytes.
    pub unsafe fn copy(&mut self, dst: u64, src: u64, len: u64) -> Result<(), String> {
        if len == 0 {
            return Ok(());
        }
        let (d_dev, s_dev) = (self.is_device_only(dst, len), self.is_device_only(src, len));
        match (d_dev, s_dev) {
            (false, false) => {
                std::ptr::copy(src as *const u8, dst as *mut u8, len as usize);
                Ok(())
            }
            (false, true) => {
                let out = std::slice::from_raw_parts_mut(dst as *mut u8, len as usize);
                self.device
                    .memory()
                    .read_into(src, out)
                    .map_err(|e| e.to_string())
            }
            (true, false) => {
                let bytes = std::slice::from_raw_parts(src as *const u8, len as usize);
                self.device.write(dst, bytes).map_err(|e| e.to_string())
            }
            (true, true) => {
                let bytes = self.device.read(src, len).map_err(|e| e.to_string())?;
                self.device.write(dst, &bytes).map_err(|e| e.to_string())
            }
        }
    }

    /// Fills `len` bytes at `dst` (device or host memory) with the pattern `unit`.
    ///
    /// # Safety
    /// A host address must be valid for `len` bytes.
    pub unsafe fn fill(&mut self, dst: u64, unit: &[u8], len: u64) -> Result<(), String> {
        let bytes: Vec<u8> = unit.iter().copied().cycle().take(len as usize).collect();
        if self.is_device_only(dst, len) {
            self.device.write(dst, &bytes).map_err(|e| e.to_string())
        } else {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), dst as *mut u8, bytes.len());
            Ok(())
        }
    }

    /// Allocates memory the host and the kernels share at one address.
    pub fn allocate_shared(&mut self, size: u64, managed: bool) -> Result<u64, String> {
        let size = size.max(1);
        let addr = self.device.allocate(size).map_err(|e| e.to_string())?;
        let len = size.div_ceil(4096) * 4096;
        // SAFETY: a fresh anonymous mapping at an address nothing else in the process uses
        // (MAP_FIXED_NOREPLACE refuses to replace an existing mapping).
        let p = unsafe {
            libc::mmap(
                addr as *mut libc::c_void,
                len as usize,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED_NOREPLACE,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED || p as u64 != addr {
            if p != libc::MAP_FAILED {
                // SAFETY: unmapping what this call mapped.
                unsafe { libc::munmap(p, len as usize) };
            }
            let _ = self.device.free(addr);
            return Err(format!(
                "cannot map host memory at device address {addr:#x} ({len} bytes): the \
                 address is taken in this process"
            ));
        }
        self.mirrors.insert(addr, Mirror { size, managed });
        Ok(addr)
    }

    /// Frees memory from `hipMalloc` or [`Runtime::allocate_shared`].
    pub fn free(&mut self, addr: u64) -> Result<(), String> {
        if let Some(m) = self.mirrors.remove(&addr) {
            let len = m.size.div_ceil(4096) * 4096;
            // SAFETY: the mapping made by allocate_shared for this address.
            unsafe { libc::munmap(addr as *mut libc::c_void, len as usize) };
        }
        self.device.free(addr).map_err(|e| e.to_string())
    }

    fn mirrors_to_device(&mut self) -> Result<(), String> {
        let regions: Vec<(u64, u64)> = self.mirrors.iter().map(|(&a, m)| (a, m.size)).collect();
        for (addr, size) in regions {
            // SAFETY: the mapping made by allocate_shared, `size` bytes long.
            let bytes = unsafe { std::slice::from_raw_parts(addr as *const u8, size as usize) };
            self.device.write(addr, bytes).map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    fn mirrors_to_host(&mut self) -> Result<(), String> {
        let regions: Vec<(u64, u64)> = self.mirrors.iter().map(|(&a, m)| (a, m.size)).collect();
        for (addr, size) in regions {
            // SAFETY: the mapping made by allocate_shared, `size` bytes long.
            let out = unsafe { std::slice::from_raw_parts_mut(addr as *mut u8, size as usize) };
            self.device
                .memory()
                .read_into(addr, out)
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    /// Runs kernel `name` of `module`: `groups` work-groups of `block` work-items, `shared`
    /// bytes of dynamic LDS, explicit arguments from `args`.
    ///
    /// # Safety
    /// `args` must point at the kernel's arguments as the HIP API describes.
    pub unsafe fn launch(
        &mut self,
        module: &Module,
        name: &str,
        groups: dim3,
        block: dim3,
        shared: usize,
        args: &KernelArgs,
    ) -> Result<(), (hipError_t, String)> {
        let config = |m: String| (hipErrorInvalidConfiguration, m);
        let Some(kernel) = module.kernel(name).or_else(|| {
            // hipcc registers the kernel by its name; the descriptor symbol adds `.kd`.
            module.kernel(name.trim_end_matches(".kd"))
        }) else {
            return Err((
                hipErrorInvalidDeviceFunction,
                format!("the code object has no kernel {name}"),
            ));
        };
        let dims = [groups.x, groups.y, groups.z];
        let local = [block.x, block.y, block.z];
        if dims.contains(&0) || local.contains(&0) {
            return Err(config(format!(
                "grid {dims:?} of blocks {local:?}: every dimension must be at least 1"
            )));
        }
        let items = local.iter().map(|&l| u64::from(l)).product::<u64>();
        if items > 1024 {
            return Err(config(format!(
                "a block of {items} threads; at most 1024 are allowed"
            )));
        }
        let mut global = [0u32; 3];
        for d in 0..3 {
            global[d] = dims[d].checked_mul(local[d]).ok_or_else(|| {
                config(format!(
                    "grid dimension {d}: {} blocks of {} threads exceed 2^32 threads",
                    dims[d], local[d]
                ))
            })?;
        }
        let grid = Grid {
            dims: if dims[2] > 1 || local[2] > 1 {
                3
            } else if dims[1] > 1 || local[1] > 1 {
                2
            } else {
                1
            },
            global,
            local,
            offset: [0; 3],
        };
        let mut values = Vec::new();
        for (i, a) in kernel.explicit_args().enumerate() {
            let size = a.size as usize;
            let bytes = match *args {
                KernelArgs::Pointers(p) => {
                    if p.is_null() {
                        return Err((
                            hipErrorInvalidValue,
                            format!("kernel {name} takes arguments; none were given"),
                        ));
                    }
                    let arg = *p.add(i) as *const u8;
                    if arg.is_null() {
                        return Err((hipErrorInvalidValue, format!("argument {i} is null")));
                    }
                    std::slice::from_raw_parts(arg, size).to_vec()
                }
                KernelArgs::Buffer(p, len) => {
                    let at = a.offset as usize;
                    if at + size > len {
                        return Err((
                            hipErrorInvalidValue,
                            format!(
                                "the argument buffer holds {len} bytes; argument {i} needs \
                                 bytes {at} to {}",
                                at + size
                            ),
                        ));
                    }
                    std::slice::from_raw_parts(p.add(at), size).to_vec()
                }
            };
            values.push(ArgValue::Bytes(bytes));
        }
        let shared = u32::try_from(shared)
            .map_err(|_| config(format!("{shared} bytes of dynamic shared memory")))?;
        self.mirrors_to_device()
            .map_err(|m| (hipErrorIllegalAddress, m))?;
        let result =
            self.device
                .launch_with_dynamic_lds(module, &kernel.name, &grid, &values, shared);
        self.mirrors_to_host()
            .map_err(|m| (hipErrorIllegalAddress, m))?;
        result.map(|_| ()).map_err(|e| {
            let code = match &e {
                EmuError::Fault(report) => match report.fault {
                    gcnkit_emu::exec::Fault::Memory(_) => hipErrorIllegalAddress,
                    gcnkit_emu::exec::Fault::Trap(..) => hipErrorAssert,
                    gcnkit_emu::exec::Fault::MaxInstructions(_) => hipErrorLaunchTimeOut,
                    _ => hipErrorUnknown,
                },
                EmuError::BadLaunch { .. } => hipErrorInvalidConfiguration,
                EmuError::NoKernel { .. } => hipErrorInvalidDeviceFunction,
                _ => hipErrorUnknown,
            };
            (code, e.to_string())
        })
    }
}

/// The newest processor among the code objects of a bundle or code object.
pub fn newest_processor(image: &[u8]) -> Option<gcnkit_isa::Target> {
    let contents = code_objects_in(image).ok()?;
    contents
        .code_objects
        .iter()
        .filter_map(|e| {
            CodeObjectInfo::read(&e.aligned())
                .ok()
                .and_then(|i| i.target)
        })
        .max_by(|a, b| (a.gen(), a.processor.name).cmp(&(b.gen(), b.processor.name)))
}

static RUNTIME: OnceLock<Mutex<Runtime>> = OnceLock::new();

/// The runtime, locked. A panic in an earlier call does not poison it for the next.
pub fn runtime() -> MutexGuard<'static, Runtime> {
    RUNTIME
        .get_or_init(|| Mutex::new(Runtime::new()))
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

thread_local! {
    /// The last error of this thread's calls (`hipGetLastError`).
    pub static LAST_ERROR: Cell<hipError_t> = const { Cell::new(hipSuccess) };
    /// Launch configurations pushed by `__hipPushCallConfiguration`.
    pub static CALL_CONFIGS: RefCell<Vec<(dim3, dim3, usize, usize)>> = const { RefCell::new(Vec::new()) };
}

/// Records `e` as this thread's last error (as ROCm's runtime does after every call) and
/// returns it.
pub fn ret(e: hipError_t) -> hipError_t {
    LAST_ERROR.with(|l| l.set(e));
    e
}

/// Reports a failed call on stderr and returns its code (recorded as the last error).
pub fn fail(call: &str, (code, message): (hipError_t, String)) -> hipError_t {
    eprintln!("gcnkit-hip: {call}: {message}");
    ret(code)
}

/// Runs an API body, turning a panic into `hipErrorUnknown` (a panic must not cross into
/// the program's C++ frames).
pub fn guard(call: &str, body: impl FnOnce() -> hipError_t) -> hipError_t {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(body)) {
        Ok(e) => e,
        Err(_) => fail(call, (hipErrorUnknown, "internal error".into())),
    }
}
