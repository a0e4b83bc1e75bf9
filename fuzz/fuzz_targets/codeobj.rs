//! Every reader of gcnkit-codeobj on arbitrary bytes: ELF header and flags, sections and
//! symbols, notes, metadata (MessagePack and YAML), kernel descriptors, `amd_kernel_code_t`,
//! offload bundles and the `gcn info` rendering (text and JSON). None may panic.
#![no_main]

use gcnkit_codeobj::bundle::find_bundles;
use gcnkit_codeobj::container::code_objects_in;
use gcnkit_codeobj::descriptor::KernelDescriptor;
use gcnkit_codeobj::kernel_code::AmdKernelCode;
use gcnkit_codeobj::metadata::Metadata;
use gcnkit_codeobj::notes::parse_notes;
use gcnkit_codeobj::CodeObjectInfo;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(info) = CodeObjectInfo::read(data) {
        for k in &info.kernels {
            let _ = info.entry_address(k);
        }
    }
    let _ = gcnkit_cli::info::render(std::path::Path::new("fuzz"), data, false, false);
    let _ = gcnkit_cli::info::render(std::path::Path::new("fuzz"), data, true, false);
    let _ = code_objects_in(data);
    let _ = find_bundles(data);
    if let Ok(notes) = parse_notes(".note", data, 0, 4) {
        for n in &notes {
            let _ = n.decode();
        }
    }
    if let Ok(md) = Metadata::from_msgpack(data, 0) {
        for k in md.kernels() {
            let _ = (k.name(), k.sgpr_count(), k.args().len());
        }
    }
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(md) = Metadata::from_yaml(text, 0) {
            for k in md.kernels() {
                let _ = k.args().iter().map(|a| a.offset()).count();
            }
        }
    }
    if let Ok(kd) = KernelDescriptor::decode(data) {
        let bytes = kd.encode().expect("a decoded descriptor re-encodes");
        assert_eq!(&bytes[..], &data[..64], "descriptor round trip");
    }
    let _ = AmdKernelCode::decode(data);
});
