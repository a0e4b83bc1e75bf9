#include "gcn.h"
/* Half precision: arithmetic, half2 vectors, fma, conversions to/from float and integers,
 * and a mixed-precision GEMV with float accumulation. */

kernel void haxpy(int n, half a, global const half *x, global half *y) {
  int i = get_global_id(0);
  if (i < n)
    y[i] = fma(a, x[i], y[i]);
}

kernel void half2_ops(global const half2 *a, global const half2 *b, global half2 *c, global half2 *d, int n) {
  int i = get_global_id(0);
  if (i < n) {
    half2 x = a[i], y = b[i];
    c[i] = x * y + (half2)(1.0h, -0.5h);
    d[i] = (half2)(fmax(x.x, y.y), fabs(x.y - y.x));
  }
}

kernel void convert_f32_f16(global const float *in, global half *out, global float *roundtrip, int n) {
  int i = get_global_id(0);
  if (i < n) {
    half h = (half)in[i];
    out[i] = h;
    roundtrip[i] = (float)h - in[i];
  }
}

kernel void half_int_conv(global const half *h, global short *s, global ushort *us, global int *w, global half *back) {
  int i = get_global_id(0);
  half v = h[i];
  s[i] = (short)v;
  us[i] = (ushort)fabs(v);
  w[i] = (int)(v * (half)16.0f);
  back[i] = (half)s[i] + (half)(i & 255) + (half)us[i];
}

/* mixed precision y = A*x, A and x in half, accumulate in float */
kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void hgemv_mixed(global const half *A, global const half *x, global float *y, int m, int n) {
  local float part[64];
  int row = get_group_id(0), t = get_local_id(0);
  float acc = 0.0f;
  for (int j = t; j < n; j += 64)
    acc = fma((float)A[(long)row * n + j], (float)x[j], acc);
  part[t] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = 32; s > 0; s >>= 1) {
    if (t < s)
      part[t] += part[t + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (t == 0 && row < m)
    y[row] = part[0];
}

/* layer activation in half: GELU(tanh approximation) with rational tanh */
kernel void gelu_f16(global half *x, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  half v = x[i];
  half u = (half)0.7978845608f * (v + (half)0.044715f * v * v * v);
  half u2 = u * u;
  half t = u * ((half)27.0f + u2) / ((half)27.0f + (half)9.0f * u2);
  t = t > (half)1.0f ? (half)1.0f : (t < (half)-1.0f ? (half)-1.0f : t);
  x[i] = (half)0.5f * v * ((half)1.0f + t);
}
