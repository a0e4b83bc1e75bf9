.macro m n
.if \n
m (\n-1)
.endif
s_nop \n
.endm
m 400
.macro a
b
.endm
.macro b
a
.endm
a
