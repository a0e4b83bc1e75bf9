; Sections, data directives and alignment.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
	.text
	s_nop 0
	.p2align 4
	s_endpgm
	.balign 8
	.align 16
	s_endpgm
	.p2align 5, 0x12
	.long 1
	.byte 2, 3
	.balignw 4, 0x5678
	.p2alignl 4, 0xbf810000
	.balignw 8, 0x1234
	.p2align 6,,4
	s_endpgm

	.data
bytes:	.byte 1, 2, 0xff, -1, 0x61
	.short 0x1234, -2
	.2byte 8
	.value 9
	.long 0xdeadbeef, 1 + 2 * 3
	.int -5
	.4byte 10
	.quad 0x123456789abcdef0
	.8byte -1
	.ascii "ab\n\t\"", "c"
	.asciz "zero\0x"
	.string "str\101\x42"
	.zero 3
	.zero 2, 0x7f
	.space 4, 1
	.skip 2
	.fill 3, 2, 0x4142
	.fill 2, 4
	.fill 5

	.section .rodata,"a",@progbits
	.p2align 3
	.long 1
	.section .mydata,"aw",@progbits
	.byte 5
	.section .note.mine,"",@note
	.long 4
	.pushsection .data
	.byte 0x55
	.popsection
	.byte 6
	.text
	s_nop 1
	.previous
	.byte 7
	.bss
	.zero 16
