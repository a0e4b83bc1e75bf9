kernel void k(global float *x) { x[0] = undefined_fn(x[1]); }
