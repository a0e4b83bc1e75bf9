#include "gcn.h"
/* LSD radix sort building blocks: 4-bit digit counting, local rank by split, and scatter. */
#define WG 256
#define RADIX 16

kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void radix_count(global const uint *keys, uint n, uint shift, global uint *counts /* [RADIX][ngroups] */) {
  local uint hist[RADIX];
  uint tid = get_local_id(0);
  if (tid < RADIX)
    hist[tid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint i = get_global_id(0);
  if (i < n)
    atomic_inc(&hist[(keys[i] >> shift) & (RADIX - 1)]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (tid < RADIX)
    counts[tid * get_num_groups(0) + get_group_id(0)] = hist[tid];
}

kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void radix_local_split(global uint *keys, uint shift) {
  local uint k[WG];
  local uint pre[WG];
  local uint total_false;
  uint tid = get_local_id(0), i = get_global_id(0);
  uint key = keys[i];
  for (uint b = shift; b < shift + 4; ++b) {
    k[tid] = key;
    uint bit = (key >> b) & 1;
    pre[tid] = !bit;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint off = 1; off < WG; off <<= 1) {
      uint t = tid >= off ? pre[tid - off] : 0;
      barrier(CLK_LOCAL_MEM_FENCE);
      pre[tid] += t;
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (tid == WG - 1)
      total_false = pre[tid];
    barrier(CLK_LOCAL_MEM_FENCE);
    uint excl = pre[tid] - !bit;
    uint dst = bit ? tid - excl + total_false : excl;
    k[dst] = key;
    barrier(CLK_LOCAL_MEM_FENCE);
    key = k[tid];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  keys[i] = key;
}

kernel void radix_scatter(global const uint *keys_in, global uint *keys_out, global const uint *offsets,
                          uint n, uint shift) {
  uint i = get_global_id(0);
  if (i >= n)
    return;
  uint key = keys_in[i];
  uint d = (key >> shift) & (RADIX - 1);
  /* rank within the group among equal digits (quadratic but LDS-free) */
  uint g0 = get_group_id(0) * get_local_size(0), rank = 0;
  for (uint j = g0; j < i; ++j)
    rank += ((keys_in[j] >> shift) & (RADIX - 1)) == d;
  keys_out[offsets[d * get_num_groups(0) + get_group_id(0)] + rank] = key;
}

/* float keys to order-preserving unsigned ints and back */
kernel void float_flip(global uint *k, uint n, int inverse) {
  uint i = get_global_id(0);
  if (i < n) {
    uint f = k[i];
    uint mask = inverse ? (((f >> 31) - 1) | 0x80000000u) : (-(int)(f >> 31) | 0x80000000u);
    k[i] = f ^ mask;
  }
}
