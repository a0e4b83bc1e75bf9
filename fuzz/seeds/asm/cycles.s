.set a, b+1
.set b, a+1
.set c, c+1
.set d, x
.set d, d+1
.set e, 1
.set e, e+1
.long a, b, c, d, e
