//! Launch descriptions (the JSON `gcn run` reads) on arbitrary text: parsing, generating
//! every buffer's initial bytes, and comparing them under each output's tolerance with
//! themselves (which must pass), with a copy with bytes changed (any outcome) and with a
//! shortened copy (which must fail: the lengths differ). None may panic.
#![no_main]

use gcnkit_emu::launch::{compare, LaunchDescription};
use libfuzzer_sys::fuzz_target;

/// Buffers larger than this are not generated (they only cost time and memory).
const MAX_GENERATED: u64 = 4 << 20;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(desc) = LaunchDescription::parse(text) else {
        return;
    };
    for launch in &desc.launches {
        let _ = launch.group_counts();
    }
    for buffer in &desc.buffers {
        let Ok(size) = buffer.size_bytes() else {
            continue;
        };
        if size > MAX_GENERATED {
            continue;
        }
        let Ok(bytes) = buffer.generate() else {
            continue;
        };
        assert_eq!(bytes.len() as u64, size, "{}: generated size", buffer.name);
        // Change a byte of every few elements, at an offset that moves through the element, so
        // that signs, exponents and low bits all get hit.
        let mut mutated = bytes.clone();
        let step = buffer.elem.size_bytes().max(1) as usize * 3 + 1;
        for (n, i) in (0..mutated.len()).step_by(step).enumerate() {
            mutated[i] ^= 0x80u8.rotate_left(n as u32);
        }
        let tolerances = desc
            .outputs
            .iter()
            .filter(|o| o.name == buffer.name)
            .map(|o| o.tolerance.clone())
            // Every buffer is also compared exactly, as an unlisted buffer is.
            .chain([Default::default()]);
        for tol in tolerances {
            let same = compare(&tol, buffer.elem, &bytes, &bytes);
            assert!(
                same.passed(),
                "{}: {tol:?}: a buffer differs from itself: {same:?}",
                buffer.name
            );
            let _ = compare(&tol, buffer.elem, &bytes, &mutated);
            let _ = compare(&tol, buffer.elem, &mutated, &bytes);
            if !bytes.is_empty() {
                let short = compare(&tol, buffer.elem, &bytes, &bytes[..bytes.len() - 1]);
                assert!(
                    !short.passed(),
                    "{}: {tol:?}: a shorter copy passed",
                    buffer.name
                );
            }
        }
    }
});
