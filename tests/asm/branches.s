; Branches forward and back, and expressions in operands.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	.globl k
k:
	s_branch .Lfwd
.Lback:
	s_cbranch_scc0 .Lback
	s_cbranch_vccnz .Lfwd
	s_cbranch_execz .Lback
.Lfwd:
	s_mov_b32 s0, (1 << 4) | 3
	s_mov_b32 s1, ~0xff & 0xffff
	s_mov_b32 s2, 100 / 7 + 100 % 7
	s_mov_b32 s3, -(2 - 5)
	s_mov_b32 s4, (3 > 2) + (1 == 1) + (2 != 2)
	s_mov_b32 s5, 1 && 0 || 1
	s_add_u32 s7, s7, .Lfwd - .Lback
	s_mov_b32 s6, . - k
	s_cbranch_scc1 k
	s_endpgm
