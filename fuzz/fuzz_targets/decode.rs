//! Decoder and printer on arbitrary bytes, for every generation: never a panic, and every
//! instruction that decodes either prints or is reported invalid.
#![no_main]

use gcnkit_disasm::listing::walk;
use gcnkit_isa::{Target, PROCESSORS};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, code)) = data.split_first() else {
        return;
    };
    let processor = &PROCESSORS[selector as usize % PROCESSORS.len()];
    let target = Target::new(processor);
    let mut consumed = 0usize;
    walk(&target, code, 0, |_| Some(".L0"), |off, _, len, _| {
        assert_eq!(off, consumed);
        assert!(len > 0);
        consumed += len;
    });
    assert_eq!(consumed, code.len());
});
