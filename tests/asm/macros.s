; Macros, repetitions and conditionals.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx803"
	.macro movs dst, val=7
	s_mov_b32 \dst, \val
	.endm

	.macro pair a:req, b
	v_add_f32 v\a, v\b, v\a
	.ifb \b
	s_nop 9
	.endif
	.endm

	.macro sum first, rest:vararg
	.long \first
	.ifnb \rest
	sum \rest
	.endif
	.endm

	.macro count
	s_nop \@
	.endm

	.macro label_n n
lbl\n\():
	s_nop \n
	.endm

	.macro early x
	s_nop 1
	.if \x
	.exitm
	.endif
	s_nop 2
	.endm

	.text
	movs s0
	movs s1, 5
	movs s2 3
	pair 1, 2
	pair 3
	count
	count
	label_n 4
	early 1
	early 0
	.rept 3
	s_nop 3
	.endr
	.irp r, 4, 5, 6
	v_mov_b32 v\r, s\r
	.endr
	.irpc c, 789
	s_mov_b32 s\c, \c
	.endr
	.set i, 0
	.rept 4
	s_mov_b32 s10, i
	.set i, i + 1
	.endr
	.rept 2
	.irp k, 1, 2
	s_nop \k
	.endr
	.endr

	.set flag, 1
	.if flag == 1
	s_nop 1
	.elseif flag == 2
	s_nop 2
	.else
	s_nop 3
	.endif
	.if 0
	s_nop 4
	.if 1
	s_nop 5
	.endif
	.elseif 0
	s_nop 6
	.else
	s_nop 7
	.endif
	.ifdef flag
	s_nop 8
	.endif
	.ifndef nosuch
	s_nop 9
	.endif
	.ifnotdef flag
	s_nop 10
	.endif
	.ifc abc, abc
	s_nop 11
	.endif
	.ifnc abc, abd
	s_nop 12
	.endif
	.ifeq flag - 1
	s_nop 13
	.endif
	.ifne flag
	s_nop 14
	.endif
	.ifgt flag
	s_nop 15
	.endif
	.iflt flag
	s_nop 16
	.endif
	.data
	sum 1, 2, 3
