//! Streams and events. Work runs when it is submitted, so a stream is always idle, its work
//! done in submission order; an event records the time its place in a stream was reached.

use std::ffi::{c_int, c_uint, c_void};

use crate::runtime::{fail, guard, ret, runtime, Event, Stream};
use crate::types::*;

/// The null stream and `hipStreamPerThread`, which need no creation.
fn is_builtin_stream(s: *mut c_void) -> bool {
    matches!(s as usize, 0 | 2)
}

unsafe fn create_stream(
    call: &str,
    stream: *mut *mut c_void,
    flags: u32,
    priority: i32,
) -> hipError_t {
    guard(call, || {
        if stream.is_null() {
            return fail(call, (hipErrorInvalidValue, "null pointer".into()));
        }
        let mut rt = runtime();
        let h = rt.handle();
        rt.streams.insert(h, Stream { flags, priority });
        *stream = h as *mut c_void;
        ret(hipSuccess)
    })
}

/// `hipStreamCreate`.
///
/// # Safety
/// `stream` must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipStreamCreate(stream: *mut *mut c_void) -> hipError_t {
    create_stream("hipStreamCreate", stream, 0, 0)
}

/// `hipStreamCreateWithFlags`.
///
/// # Safety
/// `stream` must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipStreamCreateWithFlags(
    stream: *mut *mut c_void,
    flags: c_uint,
) -> hipError_t {
    create_stream("hipStreamCreateWithFlags", stream, flags, 0)
}

/// `hipStreamCreateWithPriority`.
///
/// # Safety
/// `stream` must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipStreamCreateWithPriority(
    stream: *mut *mut c_void,
    flags: c_uint,
    priority: c_int,
) -> hipError_t {
    create_stream("hipStreamCreateWithPriority", stream, flags, priority)
}

fn known_stream(call: &str, s: *mut c_void) -> Result<(), hipError_t> {
    if is_builtin_stream(s) || runtime().streams.contains_key(&(s as usize)) {
        Ok(())
    } else {
        Err(fail(
            call,
            (hipErrorInvalidHandle, format!("unknown stream {s:p}")),
        ))
    }
}

/// `hipStreamDestroy`.
#[no_mangle]
pub extern "C" fn hipStreamDestroy(stream: *mut c_void) -> hipError_t {
    guard("hipStreamDestroy", || {
        if runtime().streams.remove(&(stream as usize)).is_none() {
            return fail(
                "hipStreamDestroy",
                (hipErrorInvalidHandle, format!("unknown stream {stream:p}")),
            );
        }
        ret(hipSuccess)
    })
}

/// `hipStreamSynchronize`: its work is done.
#[no_mangle]
pub extern "C" fn hipStreamSynchronize(stream: *mut c_void) -> hipError_t {
    match known_stream("hipStreamSynchronize", stream) {
        Ok(()) => ret(hipSuccess),
        Err(e) => e,
    }
}

/// `hipStreamQuery`: always complete.
#[no_mangle]
pub extern "C" fn hipStreamQuery(stream: *mut c_void) -> hipError_t {
    match known_stream("hipStreamQuery", stream) {
        Ok(()) => ret(hipSuccess),
        Err(e) => e,
    }
}

/// `hipStreamWaitEvent`: the event's work is already done.
#[no_mangle]
pub extern "C" fn hipStreamWaitEvent(
    stream: *mut c_void,
    event: *mut c_void,
    _flags: c_uint,
) -> hipError_t {
    if let Err(e) = known_stream("hipStreamWaitEvent", stream) {
        return e;
    }
    if !runtime().events.contains_key(&(event as usize)) {
        return fail(
            "hipStreamWaitEvent",
            (hipErrorInvalidHandle, format!("unknown event {event:p}")),
        );
    }
    ret(hipSuccess)
}

/// `hipStreamGetFlags`.
///
/// # Safety
/// `flags` must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipStreamGetFlags(stream: *mut c_void, flags: *mut c_uint) -> hipError_t {
    if flags.is_null() {
        return fail(
            "hipStreamGetFlags",
            (hipErrorInvalidValue, "null pointer".into()),
        );
    }
    if let Err(e) = known_stream("hipStreamGetFlags", stream) {
        return e;
    }
    *flags = runtime()
        .streams
        .get(&(stream as usize))
        .map_or(0, |s| s.flags);
    ret(hipSuccess)
}

/// `hipStreamGetPriority`.
///
/// # Safety
/// `priority` must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipStreamGetPriority(
    stream: *mut c_void,
    priority: *mut c_int,
) -> hipError_t {
    if priority.is_null() {
        return fail(
            "hipStreamGetPriority",
            (hipErrorInvalidValue, "null pointer".into()),
        );
    }
    if let Err(e) = known_stream("hipStreamGetPriority", stream) {
        return e;
    }
    *priority = runtime()
        .streams
        .get(&(stream as usize))
        .map_or(0, |s| s.priority);
    ret(hipSuccess)
}

/// `hipDeviceGetStreamPriorityRange`: one priority.
///
/// # Safety
/// Pointers must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipDeviceGetStreamPriorityRange(
    least: *mut c_int,
    greatest: *mut c_int,
) -> hipError_t {
    if !least.is_null() {
        *least = 0;
    }
    if !greatest.is_null() {
        *greatest = 0;
    }
    ret(hipSuccess)
}

/// `hipStreamAddCallback`: the stream's work is done, so the callback runs now.
///
/// # Safety
/// `callback` must be a valid function.
#[no_mangle]
pub unsafe extern "C" fn hipStreamAddCallback(
    stream: *mut c_void,
    callback: Option<unsafe extern "C" fn(*mut c_void, hipError_t, *mut c_void)>,
    user_data: *mut c_void,
    _flags: c_uint,
) -> hipError_t {
    if let Err(e) = known_stream("hipStreamAddCallback", stream) {
        return e;
    }
    let Some(cb) = callback else {
        return fail(
            "hipStreamAddCallback",
            (hipErrorInvalidValue, "null callback".into()),
        );
    };
    cb(stream, hipSuccess, user_data);
    ret(hipSuccess)
}

unsafe fn create_event(call: &str, event: *mut *mut c_void) -> hipError_t {
    guard(call, || {
        if event.is_null() {
            return fail(call, (hipErrorInvalidValue, "null pointer".into()));
        }
        let mut rt = runtime();
        let h = rt.handle();
        rt.events.insert(h, Event { recorded: None });
        *event = h as *mut c_void;
        ret(hipSuccess)
    })
}

/// `hipEventCreate`.
///
/// # Safety
/// `event` must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipEventCreate(event: *mut *mut c_void) -> hipError_t {
    create_event("hipEventCreate", event)
}

/// `hipEventCreateWithFlags`.
///
/// # Safety
/// `event` must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipEventCreateWithFlags(
    event: *mut *mut c_void,
    _flags: c_uint,
) -> hipError_t {
    create_event("hipEventCreateWithFlags", event)
}

/// `hipEventRecord`: the stream's work so far is done now.
#[no_mangle]
pub extern "C" fn hipEventRecord(event: *mut c_void, stream: *mut c_void) -> hipError_t {
    guard("hipEventRecord", || {
        if let Err(e) = known_stream("hipEventRecord", stream) {
            return e;
        }
        match runtime().events.get_mut(&(event as usize)) {
            Some(e) => {
                e.recorded = Some(std::time::Instant::now());
                ret(hipSuccess)
            }
            None => fail(
                "hipEventRecord",
                (hipErrorInvalidHandle, format!("unknown event {event:p}")),
            ),
        }
    })
}

/// `hipEventSynchronize`.
#[no_mangle]
pub extern "C" fn hipEventSynchronize(event: *mut c_void) -> hipError_t {
    if !runtime().events.contains_key(&(event as usize)) {
        return fail(
            "hipEventSynchronize",
            (hipErrorInvalidHandle, format!("unknown event {event:p}")),
        );
    }
    ret(hipSuccess)
}

/// `hipEventQuery`: complete once recorded.
#[no_mangle]
pub extern "C" fn hipEventQuery(event: *mut c_void) -> hipError_t {
    match runtime().events.get(&(event as usize)) {
        Some(_) => ret(hipSuccess),
        None => fail(
            "hipEventQuery",
            (hipErrorInvalidHandle, format!("unknown event {event:p}")),
        ),
    }
}

/// `hipEventElapsedTime`: milliseconds between two recorded events.
///
/// # Safety
/// `ms` must be valid or null.
#[no_mangle]
pub unsafe extern "C" fn hipEventElapsedTime(
    ms: *mut f32,
    start: *mut c_void,
    stop: *mut c_void,
) -> hipError_t {
    guard("hipEventElapsedTime", || {
        if ms.is_null() {
            return fail(
                "hipEventElapsedTime",
                (hipErrorInvalidValue, "null pointer".into()),
            );
        }
        let rt = runtime();
        let (Some(a), Some(b)) = (
            rt.events.get(&(start as usize)),
            rt.events.get(&(stop as usize)),
        ) else {
            return fail(
                "hipEventElapsedTime",
                (hipErrorInvalidHandle, "unknown event".into()),
            );
        };
        let (Some(a), Some(b)) = (a.recorded, b.recorded) else {
            return fail(
                "hipEventElapsedTime",
                (hipErrorNotReady, "an event was never recorded".into()),
            );
        };
        *ms = b.saturating_duration_since(a).as_secs_f32() * 1000.0;
        ret(hipSuccess)
    })
}

/// `hipEventDestroy`.
#[no_mangle]
pub extern "C" fn hipEventDestroy(event: *mut c_void) -> hipError_t {
    if runtime().events.remove(&(event as usize)).is_none() {
        return fail(
            "hipEventDestroy",
            (hipErrorInvalidHandle, format!("unknown event {event:p}")),
        );
    }
    ret(hipSuccess)
}
