//! The generated instruction table must be exactly what the generator makes of the table files.

use std::path::PathBuf;

#[test]
fn generated_rust_matches_the_table_files() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let code = xtask::tablegen::generate(&root.join("crates/isa/tables")).expect("tables parse");
    let current = std::fs::read_to_string(root.join("crates/isa/src/generated.rs"))
        .expect("generated.rs exists");
    assert!(
        current == code,
        "crates/isa/src/generated.rs is out of date: run `cargo xtask gen-tables`"
    );
}
