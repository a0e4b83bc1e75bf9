#include "gcn.h"
/* ds_swizzle_b32 in its quad-permute and bit-mask modes: butterfly reductions within 32 lanes,
 * reversals, and broadcast within groups. */

#define SWZ_QDMODE(a, b, c, d) (0x8000 | (a) | ((b) << 2) | ((c) << 4) | ((d) << 6))
#define SWZ_BITMASK(and_m, or_m, xor_m) ((and_m) | ((or_m) << 5) | ((xor_m) << 10))

kernel void butterfly_sum32(global const float *x, global float *sums) {
  uint i = get_global_id(0);
  float v = x[i];
  v += gcn_swizzle_f(v, SWZ_BITMASK(0x1f, 0, 1));
  v += gcn_swizzle_f(v, SWZ_BITMASK(0x1f, 0, 2));
  v += gcn_swizzle_f(v, SWZ_BITMASK(0x1f, 0, 4));
  v += gcn_swizzle_f(v, SWZ_BITMASK(0x1f, 0, 8));
  v += gcn_swizzle_f(v, SWZ_BITMASK(0x1f, 0, 16));
  if ((gcn_lane_id() & 31) == 0)
    sums[i / 32] = v;
}

kernel void quad_ops(global const int *x, global int4 *out) {
  uint i = get_global_id(0);
  int v = x[i];
  int rev = __builtin_amdgcn_ds_swizzle(v, SWZ_QDMODE(3, 2, 1, 0));
  int bc0 = __builtin_amdgcn_ds_swizzle(v, SWZ_QDMODE(0, 0, 0, 0));
  int rot = __builtin_amdgcn_ds_swizzle(v, SWZ_QDMODE(1, 2, 3, 0));
  int rev32 = __builtin_amdgcn_ds_swizzle(v, SWZ_BITMASK(0x1f, 0, 0x1f));
  out[i] = (int4)(rev, bc0, rot, rev32);
}

/* broadcast lane 0 of each group of 8, then compute differences (finite differences in a wave) */
kernel void group8_broadcast(global const float *x, global float *d) {
  uint i = get_global_id(0);
  float v = x[i];
  float head = gcn_swizzle_f(v, SWZ_BITMASK(0x18, 0, 0));
  float next = gcn_swizzle_f(v, SWZ_QDMODE(1, 2, 3, 3));
  d[i] = (v - head) + (next - v);
}
