//! Wave64 cross-lane operations, each written from its ISA definition. A wave's register is an
//! array of 64 lanes; `None` marks a lane whose value is undefined (the `old` operand of
//! `__builtin_amdgcn_mov_dpp` in a lane the row or bank mask disables), so that a reference
//! that would depend on such a value fails instead of guessing.

/// One VGPR of a wave64, lane by lane.
pub type Lanes<T> = [T; 64];

/// DPP_CTRL values used by the kernels (CDNA3 ISA, §13 "Microcode Formats", Table 93
/// "DPP_CTRL Enumeration"; the same encodings since GCN3).
pub mod ctrl {
    /// `quad_perm:[a,b,c,d]`: 0x00-0xff.
    pub const fn quad_perm(a: u32, b: u32, c: u32, d: u32) -> u32 {
        a | (b << 2) | (c << 4) | (d << 6)
    }
    /// `row_shr:n`, n = 1..15.
    pub const fn row_shr(n: u32) -> u32 {
        0x110 + n
    }
    /// `row_ror:n`, n = 1..15.
    pub const fn row_ror(n: u32) -> u32 {
        0x120 + n
    }
    /// `row_bcast:15`.
    pub const ROW_BCAST15: u32 = 0x142;
    /// `row_bcast:31`.
    pub const ROW_BCAST31: u32 = 0x143;
}

/// The lane that lane `n` reads under DPP control `ctrl`, or `None` when the source is out of
/// range (then BOUND_CTRL decides). CDNA3 ISA, §13, Table 93: quad_perm reads
/// `(n & 0x3c) + ctrl[2(n%4)+1 : 2(n%4)]`; row_shr reads `n - cnt` if `(n & 0xf) >= cnt`;
/// row_ror reads `n - cnt`, wrapping within the row of 16; row_bcast:15 reads
/// `(n & 0x30) - 1` for `n > 15`; row_bcast:31 reads `(n & 0x20) - 1` for `n > 31`.
pub fn dpp_source(ctrl: u32, n: usize) -> Result<Option<usize>, String> {
    let cnt = (ctrl & 0xf) as usize;
    Ok(match ctrl {
        0x000..=0x0ff => Some((n & 0x3c) + ((ctrl as usize >> (2 * (n % 4))) & 3)),
        0x111..=0x11f => ((n & 0xf) >= cnt).then(|| n - cnt),
        0x121..=0x12f => Some(if (n & 0xf) >= cnt {
            n - cnt
        } else {
            n + 16 - cnt
        }),
        ctrl::ROW_BCAST15 => (n > 15).then(|| (n & 0x30) - 1),
        ctrl::ROW_BCAST31 => (n > 31).then(|| (n & 0x20) - 1),
        _ => return Err(format!("DPP control {ctrl:#x} is not modelled")),
    })
}

/// `__builtin_amdgcn_update_dpp(old, src, ctrl, row_mask, bank_mask, bound_ctrl)` with every
/// lane active: LLVM defines it as `v_mov_b32 dst, old` then `v_mov_b32_dpp dst, src` with
/// those controls. Per the DPP field table (CDNA3 ISA, §13, Table 92): ROW_MASK bit r and
/// BANK_MASK bit b (b = (n % 16) / 4) gate only the write of lane n, so a disabled lane keeps
/// `old`; a lane whose source is out of range writes 0 when BOUND_CTRL is 1 ("write") and keeps
/// `old` when it is 0 ("do not write"). The builtin's last argument is the BOUND_CTRL bit.
pub fn update_dpp<T: Copy>(
    old: &Lanes<Option<T>>,
    src: &Lanes<Option<T>>,
    ctrl: u32,
    row_mask: u32,
    bank_mask: u32,
    bound_ctrl: bool,
    zero: T,
) -> Result<Lanes<Option<T>>, String> {
    let mut out = *old;
    for n in 0..64 {
        let row_on = row_mask >> (n / 16) & 1 == 1;
        let bank_on = bank_mask >> ((n % 16) / 4) & 1 == 1;
        if !(row_on && bank_on) {
            continue;
        }
        match dpp_source(ctrl, n)? {
            Some(s) => out[n] = src[s],
            None if bound_ctrl => out[n] = Some(zero),
            None => {}
        }
    }
    Ok(out)
}

/// `ds_swizzle_b32` with every lane active (GCN3/Vega DS instruction pseudo-code, as in the DS
/// chapter the project was seeded from): with offset bit 15 set (quad mode) lane n reads
/// `(n & 0x3c) + offset[2(n%4)+1 : 2(n%4)]`; otherwise (bit-mask mode) it reads, within its
/// group of 32 lanes, `(((n & 31) & and) | or) ^ xor` with and = offset[4:0], or =
/// offset[9:5], xor = offset[14:10].
pub fn ds_swizzle<T: Copy>(src: &Lanes<T>, offset: u16) -> Lanes<T> {
    let offset = offset as usize;
    std::array::from_fn(|n| {
        let from = if offset & 0x8000 != 0 {
            (n & 0x3c) + ((offset >> (2 * (n & 3))) & 3)
        } else {
            let (and, or, xor) = (offset & 31, (offset >> 5) & 31, (offset >> 10) & 31);
            (n & 32) + ((((n & 31) & and) | or) ^ xor)
        };
        src[from]
    })
}

/// `ds_swizzle` offset for bit-mask mode.
pub const fn swz_bitmask(and: u16, or: u16, xor: u16) -> u16 {
    and | (or << 5) | (xor << 10)
}

/// `ds_swizzle` offset for quad mode.
pub const fn swz_quad(a: u16, b: u16, c: u16, d: u16) -> u16 {
    0x8000 | a | (b << 2) | (c << 4) | (d << 6)
}

/// `ds_bpermute_b32` (GFX8+, "backward permute", every lane active, offset 0): lane n reads
/// the lane `(addr[n] / 4) mod 64` (Vega ISA, DS instructions: the source lane is the byte
/// address divided by 4, high bits ignored).
pub fn ds_bpermute<T: Copy>(addr: &Lanes<u32>, src: &Lanes<T>) -> Lanes<T> {
    std::array::from_fn(|n| src[(addr[n] as usize / 4) % 64])
}

/// `ds_permute_b32` (GFX8+, "forward permute", every lane active, offset 0): lane n writes its
/// value to lane `(addr[n] / 4) mod 64`; when several lanes write one lane the highest-numbered
/// writer wins, and a lane nobody writes receives 0 (Vega ISA, DS instructions).
pub fn ds_permute<T: Copy>(addr: &Lanes<u32>, src: &Lanes<T>, zero: T) -> Lanes<T> {
    let mut out = [zero; 64];
    for n in 0..64 {
        out[(addr[n] as usize / 4) % 64] = src[n];
    }
    out
}

/// `v_readlane_b32`: lane `lane`'s value, for every lane (a wave-uniform result).
pub fn readlane<T: Copy>(src: &Lanes<T>, lane: usize) -> T {
    src[lane % 64]
}

/// `__builtin_amdgcn_ballot_w64`: bit n set when lane n is active and its predicate holds.
pub fn ballot(active: &Lanes<bool>, pred: &Lanes<bool>) -> u64 {
    (0..64)
        .filter(|&n| active[n] && pred[n])
        .fold(0, |m, n| m | 1u64 << n)
}

/// `v_mbcnt_hi_u32_b32(hi, v_mbcnt_lo_u32_b32(lo, 0))` in lane n: the number of set bits of
/// the 64-bit mask `hi:lo` below bit n (mbcnt_lo counts bits of `lo` below min(n, 32),
/// mbcnt_hi bits of `hi` below n - 32).
pub fn mbcnt(mask: u64, n: usize) -> u32 {
    (mask & ((1u64 << n) - 1)).count_ones()
}

/// IEEE maxNum on floats (`fmax`, v_max_f32 in IEEE mode): a NaN operand yields the other.
pub fn fmax(a: f32, b: f32) -> f32 {
    let take_a = b.is_nan() || (!a.is_nan() && (a > b || (a == b && b.is_sign_negative())));
    if take_a {
        a
    } else {
        b
    }
}
