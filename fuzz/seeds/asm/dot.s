.set x, . - y
y:
s_nop 0
.long x
.set z, .+4
.quad z
