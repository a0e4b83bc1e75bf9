#include "gcn.h"
/* Streaming BLAS-1 style kernels: saxpy, grid-stride vector add, float4 triad. */

kernel void saxpy(int n, float a, global const float *restrict x, global float *restrict y) {
  int i = get_global_id(0);
  if (i < n)
    y[i] = fma(a, x[i], y[i]);
}

kernel void vadd_grid_stride(global const float *a, global const float *b, global float *c, uint n) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    c[i] = a[i] + b[i];
}

kernel void stream_triad4(global float4 *restrict a, global const float4 *restrict b,
                          global const float4 *restrict c, float s, uint n4) {
  uint i = get_global_id(0);
  if (i < n4)
    a[i] = b[i] + s * c[i];
}

kernel void daxpy_unrolled(int n, double a, global const double *x, global double *y) {
  int i = get_global_id(0) * 4;
  if (i + 3 < n) {
#pragma unroll
    for (int k = 0; k < 4; ++k)
      y[i + k] = fma(a, x[i + k], y[i + k]);
  } else {
    for (; i < n; ++i)
      y[i] = fma(a, x[i], y[i]);
  }
}
