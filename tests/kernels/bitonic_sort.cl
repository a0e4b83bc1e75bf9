#include "gcn.h"
/* Bitonic sort: full local sort of 512 keys per work-group plus the global merge steps. */
#define LS 256

inline void cmp_swap(local uint *k, local uint *v, uint a, uint b, bool up) {
  uint ka = k[a], kb = k[b];
  if ((ka > kb) == up) {
    k[a] = kb;
    k[b] = ka;
    uint t = v[a];
    v[a] = v[b];
    v[b] = t;
  }
}

kernel __attribute__((reqd_work_group_size(LS, 1, 1)))
void bitonic_sort_local(global uint *keys, global uint *vals) {
  local uint k[2 * LS], v[2 * LS];
  uint tid = get_local_id(0);
  uint base = get_group_id(0) * 2 * LS;
  k[tid] = keys[base + tid];
  k[tid + LS] = keys[base + tid + LS];
  v[tid] = vals[base + tid];
  v[tid + LS] = vals[base + tid + LS];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint size = 2; size <= 2 * LS; size <<= 1) {
    bool up = ((tid & (size / 2)) == 0) ^ (get_group_id(0) & 1);
    for (uint stride = size / 2; stride > 0; stride >>= 1) {
      uint pos = 2 * tid - (tid & (stride - 1));
      cmp_swap(k, v, pos, pos + stride, size == 2 * LS ? !(get_group_id(0) & 1) : up);
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  keys[base + tid] = k[tid];
  keys[base + tid + LS] = k[tid + LS];
  vals[base + tid] = v[tid];
  vals[base + tid + LS] = v[tid + LS];
}

kernel void bitonic_merge_global(global uint *keys, global uint *vals, uint size, uint stride, uint dir) {
  uint gid = get_global_id(0);
  uint pos = 2 * gid - (gid & (stride - 1));
  bool up = ((pos & size) == 0) ^ (dir != 0);
  uint ka = keys[pos], kb = keys[pos + stride];
  if ((ka > kb) == up) {
    keys[pos] = kb;
    keys[pos + stride] = ka;
    uint t = vals[pos];
    vals[pos] = vals[pos + stride];
    vals[pos + stride] = t;
  }
}

/* odd-even transposition sort of 64 floats per work-group */
kernel __attribute__((reqd_work_group_size(32, 1, 1)))
void odd_even_sort64(global float *data) {
  local float s[64];
  uint t = get_local_id(0), base = get_group_id(0) * 64;
  s[2 * t] = data[base + 2 * t];
  s[2 * t + 1] = data[base + 2 * t + 1];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int phase = 0; phase < 64; ++phase) {
    uint a = 2 * t + (phase & 1);
    if (a + 1 < 64) {
      float x = s[a], y = s[a + 1];
      s[a] = fmin(x, y);
      s[a + 1] = fmax(x, y);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  data[base + 2 * t] = s[2 * t];
  data[base + 2 * t + 1] = s[2 * t + 1];
}
