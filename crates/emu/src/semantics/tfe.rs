//! MUBUF/MTBUF loads with `tfe` (texture fail enable, gfx6–gfx908; bit 55 is the acc bit
//! from gfx90a on).
//!
//! With TFE a load returns one more VGPR after its data: the fail status of the access
//! (Southern Islands / GCN3 / Vega manuals, MUBUF and MTBUF field tables: "TFE — texture fail
//! enable (for partially resident textures)"; CLRX GcnInstrsMubuf.md: "store status after
//! data"). Buffer memory here is always resident: a mapped access — in range or out of range,
//! which reads 0 as without TFE — succeeds, so the status is 0 in every lane of EXEC; an
//! unmapped address still faults. The status register is `vdata + n`, n the number of VGPRs
//! the data occupies (1 for the byte/short and D16 dword loads, N for `dwordxN` and
//! `format_{x..xyzw}`, ceil(N/2) for packed D16 formats, N unpacked). Stores and atomics have
//! no status register and fault with tfe, as do LDS loads (`lds` puts no data in VGPRs).
//!
//! The status register index is kept in `op.vdata1` (unused by MUBUF/MTBUF); the load itself
//! (what `vmem::select` chose, which ignores the tfe flag) is `op.inner`.

use gcnkit_isa::{Instruction, Mnemonic as M};

use crate::exec::{Env, ExecFn, Fault, Flow};
use crate::program::{memflags, BuildContext, Op};
use crate::wave::{Wave, LANES};

/// The operation for `inst`, a MUBUF/MTBUF instruction with the tfe bit.
pub fn select(inst: &Instruction, op: &mut Op, ctx: &BuildContext<'_>, load: ExecFn) -> ExecFn {
    if op.mflags & memflags::LDS != 0 {
        return tfe_unsupported;
    }
    let unpacked = ctx.target.processor.unpacked_d16;
    let d16 = |n: u16| if unpacked { n } else { n.div_ceil(2) };
    let n = match inst.def().op {
        M::BufferLoadUbyte
        | M::BufferLoadSbyte
        | M::BufferLoadUshort
        | M::BufferLoadSshort
        | M::BufferLoadUbyteD16
        | M::BufferLoadUbyteD16Hi
        | M::BufferLoadSbyteD16
        | M::BufferLoadSbyteD16Hi
        | M::BufferLoadShortD16
        | M::BufferLoadShortD16Hi
        | M::BufferLoadDword
        | M::BufferLoadFormatX
        | M::TbufferLoadFormatX
        | M::BufferLoadFormatD16HiX => 1,
        M::BufferLoadDwordx2 | M::BufferLoadFormatXy | M::TbufferLoadFormatXy => 2,
        M::BufferLoadDwordx3 | M::BufferLoadFormatXyz | M::TbufferLoadFormatXyz => 3,
        M::BufferLoadDwordx4 | M::BufferLoadFormatXyzw | M::TbufferLoadFormatXyzw => 4,
        M::BufferLoadFormatD16X | M::TbufferLoadFormatD16X => 1,
        M::BufferLoadFormatD16Xy | M::TbufferLoadFormatD16Xy => d16(2),
        M::BufferLoadFormatD16Xyz | M::TbufferLoadFormatD16Xyz => d16(3),
        M::BufferLoadFormatD16Xyzw | M::TbufferLoadFormatD16Xyzw => d16(4),
        _ => return tfe_unsupported,
    };
    op.vdata1 = op.vdata + n;
    op.inner = load;
    load_with_status
}

fn load_with_status(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let flow = (op.inner)(w, op, env)?;
    let exec = w.exec();
    let status = &mut w.v[op.vdata1 as usize];
    for (lane, s) in status.iter_mut().enumerate().take(LANES) {
        if exec >> lane & 1 != 0 {
            *s = 0;
        }
    }
    Ok(flow)
}

fn tfe_unsupported(_: &mut Wave, op: &Op, _: &mut Env<'_>) -> Result<Flow, Fault> {
    Err(Fault::Unsupported(format!(
        "{} with tfe: only loads into VGPRs return a fail status (stores, atomics and lds \
         loads have no status register)",
        op.inst.mnemonic()
    )))
}
