#include "gcn.h"
/* Work-efficient (Blelloch) exclusive scan in LDS plus the block-sum fix-up pass. */
#define N_PER_WG 512 /* 256 work-items, 2 elements each */
#define LOG_NUM_BANKS 5
#define CONFLICT_FREE(n) ((n) + ((n) >> LOG_NUM_BANKS))

kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void scan_blelloch(global const uint *in, global uint *out, global uint *block_sums, uint n) {
  local uint temp[CONFLICT_FREE(N_PER_WG) + 1];
  uint tid = get_local_id(0);
  uint base = get_group_id(0) * N_PER_WG;
  uint ai = tid, bi = tid + N_PER_WG / 2;
  temp[CONFLICT_FREE(ai)] = base + ai < n ? in[base + ai] : 0;
  temp[CONFLICT_FREE(bi)] = base + bi < n ? in[base + bi] : 0;
  uint offset = 1;
  for (uint d = N_PER_WG >> 1; d > 0; d >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (tid < d) {
      uint a = offset * (2 * tid + 1) - 1, b = offset * (2 * tid + 2) - 1;
      temp[CONFLICT_FREE(b)] += temp[CONFLICT_FREE(a)];
    }
    offset <<= 1;
  }
  if (tid == 0) {
    block_sums[get_group_id(0)] = temp[CONFLICT_FREE(N_PER_WG - 1)];
    temp[CONFLICT_FREE(N_PER_WG - 1)] = 0;
  }
  for (uint d = 1; d < N_PER_WG; d <<= 1) {
    offset >>= 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (tid < d) {
      uint a = offset * (2 * tid + 1) - 1, b = offset * (2 * tid + 2) - 1;
      uint t = temp[CONFLICT_FREE(a)];
      temp[CONFLICT_FREE(a)] = temp[CONFLICT_FREE(b)];
      temp[CONFLICT_FREE(b)] += t;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (base + ai < n) out[base + ai] = temp[CONFLICT_FREE(ai)];
  if (base + bi < n) out[base + bi] = temp[CONFLICT_FREE(bi)];
}

kernel void scan_add_block_sums(global uint *data, global const uint *scanned_sums, uint n) {
  uint g = get_group_id(0);
  uint add = scanned_sums[g / 2]; /* two work-groups of 256 per 512-element block */
  uint i = get_global_id(0);
  if (i < n)
    data[i] += add;
}

/* segmented inclusive scan of floats, segments flagged by head bits */
kernel __attribute__((reqd_work_group_size(128, 1, 1)))
void segmented_scan_f32(global const float *in, global const uchar *head, global float *out) {
  local float v[128];
  local uchar f[128];
  uint tid = get_local_id(0), i = get_global_id(0);
  v[tid] = in[i];
  f[tid] = head[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint off = 1; off < 128; off <<= 1) {
    float pv = 0.0f;
    uchar pf = 0;
    if (tid >= off) {
      pv = v[tid - off];
      pf = f[tid - off];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (tid >= off && !f[tid]) {
      v[tid] += pv;
      f[tid] |= pf;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[i] = v[tid];
}
