//! Code objects that once crashed or exhausted the host under the `emu_load` fuzz target
//! (`fuzz/regressions/emu_load-*.co`) load and launch with an error or a result, never a
//! panic or an allocation the host cannot make: the loader's image limit, the dispatcher's
//! kernarg, private-segment and scratch limits, and checked address arithmetic.

use gcnkit_emu::{ArgValue, Device, Grid, LaunchOptions};

#[test]
fn emu_load_regressions_end_with_an_error_or_a_result() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fuzz/regressions");
    let mut checked = 0;
    for entry in std::fs::read_dir(dir).expect("fuzz/regressions exists") {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !name.starts_with("emu_load-") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let mut dev = Device::new();
        dev.set_options(LaunchOptions {
            threads: 1,
            max_instructions: 10_000,
        });
        checked += 1;
        let module = match dev.load(&bytes, None) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("{name}: load: {e}");
                continue;
            }
        };
        let buffer = dev.allocate(4096).unwrap();
        for kernel in &module.kernels {
            let args: Vec<ArgValue> = kernel
                .explicit_args()
                .map(|a| match a.kind.as_str() {
                    "dynamic_shared_pointer" => ArgValue::Local(16),
                    _ if a.size == 8 => ArgValue::Bytes(buffer.to_le_bytes().to_vec()),
                    _ => ArgValue::Bytes(vec![0; a.size.min(64) as usize]),
                })
                .collect();
            match dev.launch(&module, &kernel.name, &Grid::linear(64, 64), &args) {
                Ok(_) => eprintln!("{name}: {} ran", kernel.name),
                Err(e) => eprintln!("{name}: {}: {e}", kernel.name),
            }
        }
    }
    assert!(
        checked >= 4,
        "expected the emu_load regression inputs, found {checked}"
    );
}
