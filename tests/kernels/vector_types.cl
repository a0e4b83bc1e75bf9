#include "gcn.h"
/* OpenCL vector types: float4/int2/uchar4/short8 arithmetic, swizzles, component-wise
 * comparisons, vector shuffles via __builtin_shufflevector, and type punning with as_*. */

kernel void rgba_to_luma(global const uchar4 *rgba, global uchar *luma, int n) {
  int i = get_global_id(0);
  if (i < n) {
    float4 c = (float4)(rgba[i].x, rgba[i].y, rgba[i].z, rgba[i].w);
    float l = dot(c, (float4)(0.299f, 0.587f, 0.114f, 0.0f));
    luma[i] = (uchar)fmin(l + 0.5f, 255.0f);
  }
}

kernel void float4_math(global const float4 *a, global const float4 *b, global float4 *c, global int4 *mask) {
  int i = get_global_id(0);
  float4 x = a[i], y = b[i];
  float4 r = x.wzyx * y + x.xxyy - y.zwzw;
  c[i] = r;
  mask[i] = x > y; /* -1 / 0 per component */
}

kernel void int2_pairs(global const int2 *p, global int2 *q, global long *packed) {
  int i = get_global_id(0);
  int2 v = p[i];
  int2 w = (int2)(v.y, v.x) * 3 + (int2)(1, -1);
  q[i] = w >> 1;
  packed[i] = as_long(w);
}

kernel void short8_saturating(global const short8 *a, global const short8 *b, global short8 *c) {
  int i = get_global_id(0);
  int8 s = __builtin_convertvector(a[i], int8) + __builtin_convertvector(b[i], int8);
  s = s > (int8)(32767) ? (int8)(32767) : s;
  s = s < (int8)(-32768) ? (int8)(-32768) : s;
  c[i] = __builtin_convertvector(s, short8);
}

kernel void shuffle_interleave(global const float4 *a, global const float4 *b, global float8 *out) {
  int i = get_global_id(0);
  float4 x = a[i], y = b[i];
  out[i] = __builtin_shufflevector(x, y, 0, 4, 1, 5, 2, 6, 3, 7);
}

kernel void double2_rotate(global double2 *v, double c, double s) {
  int i = get_global_id(0);
  double2 p = v[i];
  v[i] = (double2)(c * p.x - s * p.y, s * p.x + c * p.y);
}

kernel void uchar16_xor_cipher(global uchar16 *data, uchar16 key, uint rounds) {
  int i = get_global_id(0);
  uchar16 d = data[i];
  for (uint r = 0; r < rounds; ++r) {
    d ^= key;
    d = d.s123456789abcdef0;
    d += (uchar16)((uchar)r);
  }
  data[i] = d;
}
