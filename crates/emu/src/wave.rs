//! The state of one wave: scalar registers, vector registers stored register-major (each
//! `v[r]` is 64 contiguous lanes, so an instruction over all lanes is one loop the compiler
//! vectorises), SCC, the MODE register and the program counter.

/// Lanes per wave (every target here runs wave64).
pub const LANES: usize = 64;

/// One vector register: a value per lane.
pub type Lanes = [u32; LANES];

/// Scalar register storage indices. The encodings of these registers differ between
/// generations (FLAT_SCRATCH is 104/105 on gfx7 and 102/103 on gfx8+, the trap temporaries
/// start at 112 before gfx9 and at 108 from gfx9 on); the program decoder maps every encoding
/// to one of these indices, so semantics never look at the generation.
pub mod sreg {
    /// `s0`: the general SGPRs are 0..=105.
    pub const S0: u16 = 0;
    /// Number of general SGPR slots (s0..s105).
    pub const SGPRS: u16 = 106;
    /// VCC_LO; VCC_HI follows.
    pub const VCC: u16 = 106;
    /// TBA_LO/HI (gfx6–gfx8).
    pub const TBA: u16 = 108;
    /// TMA_LO/HI (gfx6–gfx8).
    pub const TMA: u16 = 110;
    /// TTMP0; TTMP1..15 follow.
    pub const TTMP0: u16 = 112;
    /// M0.
    pub const M0: u16 = 128;
    /// EXEC_LO; EXEC_HI follows.
    pub const EXEC: u16 = 130;
    /// FLAT_SCRATCH_LO/HI.
    pub const FLAT_SCRATCH: u16 = 132;
    /// XNACK_MASK_LO/HI.
    pub const XNACK_MASK: u16 = 134;
    /// `null` (gfx8+ encoding 125): reads 0, writes are dropped.
    pub const NULL: u16 = 136;
    /// Size of the scalar storage. Slots past NULL absorb multi-dword writes that start near
    /// the end (an `s_load_dwordx16` into the last registers), so no index can overflow.
    pub const COUNT: usize = 160;
}

/// Index of AccVGPR `a0` in the vector register file (AccVGPR `a[i]` is `v[ACC_BASE + i]`).
pub const ACC_BASE: u16 = 256;
/// Vector register slots per wave: 256 VGPRs, 256 AccVGPRs, and 32 spare slots so that an
/// operand of up to 32 registers starting at the last register never indexes out of bounds.
pub const VREGS: usize = 512 + 32;

/// The MODE register (hardware register 1), with its fields decoded for the semantics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mode {
    /// The raw register value.
    pub bits: u32,
}

impl Mode {
    /// FP_ROUND for f32: 0 nearest even, 1 +inf, 2 -inf, 3 toward zero.
    #[inline]
    pub fn round_f32(self) -> u32 {
        self.bits & 3
    }
    /// FP_ROUND for f16/f64.
    #[inline]
    pub fn round_f64(self) -> u32 {
        (self.bits >> 2) & 3
    }
    /// FP_DENORM for f32: bit 0 keeps input denormals, bit 1 keeps output denormals (0 flush
    /// both, 1 flush outputs only, 2 flush inputs only, 3 keep both; see
    /// docs/emulator-abi.md).
    #[inline]
    pub fn denorm_f32(self) -> u32 {
        (self.bits >> 4) & 3
    }
    /// FP_DENORM for f16/f64.
    #[inline]
    pub fn denorm_f64(self) -> u32 {
        (self.bits >> 6) & 3
    }
    /// DX10_CLAMP.
    #[inline]
    pub fn dx10_clamp(self) -> bool {
        self.bits & (1 << 8) != 0
    }
    /// IEEE mode.
    #[inline]
    pub fn ieee(self) -> bool {
        self.bits & (1 << 9) != 0
    }
    /// True when f32 input denormals are kept (FP_DENORM bit 0).
    #[inline]
    pub fn f32_denorm_in(self) -> bool {
        self.denorm_f32() & 1 != 0
    }
    /// True when f32 output denormals are kept (FP_DENORM bit 1).
    #[inline]
    pub fn f32_denorm_out(self) -> bool {
        self.denorm_f32() & 2 != 0
    }
    /// True when f16/f64 input denormals are kept.
    #[inline]
    pub fn f64_denorm_in(self) -> bool {
        self.denorm_f64() & 1 != 0
    }
    /// True when f16/f64 output denormals are kept.
    #[inline]
    pub fn f64_denorm_out(self) -> bool {
        self.denorm_f64() & 2 != 0
    }
}

/// Why a wave stopped running for now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaveStatus {
    /// Ready to run.
    Running,
    /// Waiting at `s_barrier` for the other waves of its work-group.
    AtBarrier,
    /// Finished (`s_endpgm`).
    Done,
}

/// The state of one wave.
pub struct Wave {
    /// Scalar storage, indexed by [`sreg`] constants.
    pub s: [u32; sreg::COUNT],
    /// Vector registers: VGPRs then AccVGPRs ([`ACC_BASE`]).
    pub v: Vec<Lanes>,
    /// SCC.
    pub scc: bool,
    /// MODE.
    pub mode: Mode,
    /// TRAPSTS (hardware register 3).
    pub trapsts: u32,
    /// Index of the next operation in the program.
    pub pc: usize,
    /// Running, at a barrier, or done.
    pub status: WaveStatus,
    /// Wave-instructions executed.
    pub instructions: u64,
    /// Index of this wave within its work-group.
    pub wave_in_group: u32,
    /// Linear index of its work-group in the dispatch (x fastest), for the dispatch order
    /// of `ds_ordered_count`.
    pub group: u64,
    /// Base address of this wave's scratch slot (for flat/scratch private accesses).
    pub scratch_base: u64,
    /// Bytes of private memory per lane.
    pub scratch_per_lane: u64,
    /// Index-mode state of `s_set_gpr_idx_on` (gfx8+): `Some(mask)` when enabled, with the
    /// index in M0[7:0]... kept here for the semantics that need it.
    pub gpr_idx: Option<u32>,
    /// Priority set by `s_setprio` (kept for `s_getreg` only).
    pub priority: u32,
    /// The exports this wave has made (`exp`), in program order; the dispatch takes them.
    pub exports: Vec<crate::exports::ExportRecord>,
}

impl Wave {
    /// A wave with every register zero.
    pub fn new() -> Wave {
        Wave {
            s: [0; sreg::COUNT],
            v: vec![[0; LANES]; VREGS],
            scc: false,
            mode: Mode { bits: 0 },
            trapsts: 0,
            pc: 0,
            status: WaveStatus::Running,
            instructions: 0,
            wave_in_group: 0,
            group: 0,
            scratch_base: 0,
            scratch_per_lane: 0,
            gpr_idx: None,
            priority: 0,
            exports: Vec::new(),
        }
    }

    /// Resets the wave for a new start, zeroing the first `vgprs` VGPRs and `agprs` AccVGPRs
    /// (the ones the kernel declares; registers it does not declare it cannot read) and every
    /// scalar register, so that results never depend on what ran before on this thread.
    pub fn reset(&mut self, vgprs: usize, agprs: usize) {
        self.s = [0; sreg::COUNT];
        for r in &mut self.v[..vgprs.min(256)] {
            *r = [0; LANES];
        }
        let a = ACC_BASE as usize;
        for r in &mut self.v[a..a + agprs.min(256)] {
            *r = [0; LANES];
        }
        self.scc = false;
        self.trapsts = 0;
        self.pc = 0;
        self.status = WaveStatus::Running;
        self.instructions = 0;
        self.gpr_idx = None;
        self.priority = 0;
        self.exports.clear();
    }

    /// EXEC as a 64-bit mask.
    #[inline(always)]
    pub fn exec(&self) -> u64 {
        self.s[sreg::EXEC as usize] as u64 | (self.s[sreg::EXEC as usize + 1] as u64) << 32
    }

    /// Sets EXEC.
    #[inline(always)]
    pub fn set_exec(&mut self, mask: u64) {
        self.s[sreg::EXEC as usize] = mask as u32;
        self.s[sreg::EXEC as usize + 1] = (mask >> 32) as u32;
    }

    /// VCC as a 64-bit mask.
    #[inline(always)]
    pub fn vcc(&self) -> u64 {
        self.sreg64(sreg::VCC)
    }

    /// Reads the 64-bit scalar pair starting at storage index `i`.
    #[inline(always)]
    pub fn sreg64(&self, i: u16) -> u64 {
        let i = i as usize;
        self.s[i] as u64 | (self.s[i + 1] as u64) << 32
    }

    /// Writes the 64-bit scalar pair starting at storage index `i`.
    #[inline(always)]
    pub fn set_sreg64(&mut self, i: u16, value: u64) {
        let i = i as usize;
        self.s[i] = value as u32;
        self.s[i + 1] = (value >> 32) as u32;
        self.s[sreg::NULL as usize] = 0;
        self.s[sreg::NULL as usize + 1] = 0;
    }

    /// Writes one 32-bit scalar register (writes to `null` are dropped).
    #[inline(always)]
    pub fn set_sreg(&mut self, i: u16, value: u32) {
        self.s[i as usize] = value;
        self.s[sreg::NULL as usize] = 0;
    }
}

impl Default for Wave {
    fn default() -> Self {
        Wave::new()
    }
}
