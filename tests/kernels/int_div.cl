#include "gcn.h"
/* Integer division and remainder, 32 and 64 bit, signed and unsigned: the expansions the
 * backend emits (no hardware divider) are long and branchy. */

kernel void div_rem_u32(global const uint *a, global const uint *b, global uint *q, global uint *r, uint n) {
  uint i = get_global_id(0);
  if (i < n) {
    uint x = a[i], y = b[i] | 1;
    q[i] = x / y;
    r[i] = x % y;
  }
}

kernel void div_rem_i32(global const int *a, global const int *b, global int *q, global int *r, uint n) {
  uint i = get_global_id(0);
  if (i < n) {
    int y = b[i];
    if (y == 0) y = -7;
    q[i] = a[i] / y;
    r[i] = a[i] % y;
  }
}

kernel void div_rem_u64(global const ulong *a, global const ulong *b, global ulong *q, global ulong *r, uint n) {
  uint i = get_global_id(0);
  if (i < n) {
    ulong y = b[i] ? b[i] : 1;
    q[i] = a[i] / y;
    r[i] = a[i] % y;
  }
}

kernel void div_rem_i64(global const long *a, global const long *b, global long *q, global long *r, uint n) {
  uint i = get_global_id(0);
  if (i < n) {
    long y = b[i] ? b[i] : -3;
    q[i] = a[i] / y;
    r[i] = a[i] % y;
  }
}

/* division by constants becomes multiply-high sequences */
kernel void div_by_constants(global const uint *a, global uint *out) {
  uint i = get_global_id(0);
  uint x = a[i];
  out[4 * i + 0] = x / 3 + x % 7;
  out[4 * i + 1] = x / 1000 + (x % 1000) / 10;
  out[4 * i + 2] = (uint)((int)x / -5);
  out[4 * i + 3] = (uint)(((ulong)x * 0x9E3779B97F4A7C15ul) / 641ul);
}

/* convert flat index to 4-D coordinates (very common in ML kernels) */
kernel void unravel_index(global const uint *flat, global int4 *coord, int d1, int d2, int d3) {
  uint i = get_global_id(0);
  uint f = flat[i];
  int c3 = f % d3; f /= d3;
  int c2 = f % d2; f /= d2;
  int c1 = f % d1; f /= d1;
  coord[i] = (int4)(f, c1, c2, c3);
}

/* integer gcd by repeated remainder and binary gcd on 64 bit */
kernel void gcd_pairs(global const uint2 *p, global uint *g32, global const ulong2 *p64, global ulong *g64) {
  uint i = get_global_id(0);
  uint a = p[i].x, b = p[i].y;
  while (b) {
    uint t = a % b;
    a = b;
    b = t;
  }
  g32[i] = a;
  ulong u = p64[i].x, v = p64[i].y;
  if (u == 0 || v == 0) {
    g64[i] = u | v;
    return;
  }
  ulong shift = ctz(u | v);
  u >>= ctz(u);
  do {
    v >>= ctz(v);
    if (u > v) { ulong t = v; v = u; u = t; }
    v -= u;
  } while (v);
  g64[i] = u << shift;
}
