#include "gcn.h"
/* 256-bin byte histogram: private LDS sub-histograms, then merge with global atomics. */
#define BINS 256

kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void histogram256(global const uchar *data, uint n, global uint *hist) {
  local uint lh[BINS];
  uint tid = get_local_id(0);
  lh[tid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = get_global_id(0) * 4; i < n; i += get_global_size(0) * 4) {
    uint w = i + 3 < n ? *(global const uint *)(data + i) : 0;
    if (i + 3 < n) {
      atomic_inc(&lh[w & 0xff]);
      atomic_inc(&lh[(w >> 8) & 0xff]);
      atomic_inc(&lh[(w >> 16) & 0xff]);
      atomic_inc(&lh[w >> 24]);
    } else {
      for (uint k = i; k < n; ++k)
        atomic_inc(&lh[data[k]]);
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lh[tid])
    atomic_add(&hist[tid], lh[tid]);
}

/* float histogram with computed bins and clamp, 64-bit counters */
kernel void histogram_f32(global const float *x, uint n, float lo, float hi, uint nbins, global ulong *hist) {
  float scale = nbins / (hi - lo);
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
    float v = x[i];
    if (isnan(v))
      continue;
    int b = (int)floor((v - lo) * scale);
    b = clamp(b, 0, (int)nbins - 1);
    atomic_add(&hist[b], (ulong)1);
  }
}

/* weighted histogram: float atomic add into LDS bins */
kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void histogram_weighted(global const uint *keys, global const float *w, uint n, global float *out) {
  local float bins[64];
  uint tid = get_local_id(0);
  bins[tid] = 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    atomic_add(&bins[keys[i] & 63], w[i]);
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_add(&out[tid], bins[tid]);
}
