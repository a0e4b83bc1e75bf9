.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
.if 1
.else
s_nop 0
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.ifdef q
.elseif 1
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
.endif
