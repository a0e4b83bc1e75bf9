.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
.rept 1
s_nop 0
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
.irp r, 1
v_mov_b32 v\r, 0
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
.irpc c, 0
s_nop \c
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
.endr
