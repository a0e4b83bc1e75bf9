; Symbols, expressions with forward references, relocations.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
	.globl	func
	.p2align	2
	.type	func,@function
func:
	s_getpc_b64 s[4:5]
	s_add_u32 s4, s4, ext_var@rel32@lo+4
	s_addc_u32 s5, s5, ext_var@rel32@hi+12
	s_getpc_b64 s[6:7]
	s_add_u32 s6, s6, local_data@rel32@lo+4
	s_addc_u32 s7, s7, local_data@rel32@hi+12
	s_mov_b32 s0, ext_abs@abs32@lo
	s_mov_b32 s1, ext_abs@abs32@hi
	s_mov_b32 s2, later
	s_mov_b32 s3, .Lend-func
	s_mov_b32 s8, fwd_const
	v_mov_b32 v0, size_const * 2
	s_movk_i32 s9, 0x1234
	s_mov_b32 s10, func
	s_mov_b32 s11, gotpc_sym@gotpcrel32@lo
	s_mov_b32 s12, gotpc_sym@gotpcrel32@hi
.Lend:
	s_setpc_b64 s[30:31]
.Lfunc_end0:
	.size	func, .Lfunc_end0-func

	.weak	weak_fn
	.type	weak_fn,@function
weak_fn:
	s_endpgm
	.hidden hidden_fn
	.protected prot_fn
	.globl hidden_fn, prot_fn
hidden_fn:
prot_fn:
	s_endpgm
later:
	s_endpgm

	.set fwd_const, 0x1000 + size_const
	size_const = 40
	.equ other, size_const - 8
	.set addr_alias, later

	.data
	.globl	local_data
	.type local_data,@object
local_data:
	.long ext_var
	.long func
	.quad ext_var + 8
	.quad later
	.long .Lend - func
	.long other
	.long ext_var - .
	.size local_data, 28
	.local loc_sym
loc_sym:
	.byte 1
