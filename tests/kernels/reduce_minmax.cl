#include "gcn.h"
/* Arg-min / arg-max reductions carrying (value, index) pairs through LDS. */
#define WG 128

kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void argmax_f32(global const float *x, uint n, global float *best_val, global uint *best_idx) {
  local float sv[WG];
  local uint si[WG];
  uint tid = get_local_id(0);
  float bv = -INFINITY;
  uint bi = 0;
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
    float v = x[i];
    if (v > bv || (v == bv && i < bi)) {
      bv = v;
      bi = i;
    }
  }
  sv[tid] = bv;
  si[tid] = bi;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = WG / 2; s > 0; s >>= 1) {
    if (tid < s) {
      float o = sv[tid + s];
      uint oi = si[tid + s];
      if (o > sv[tid] || (o == sv[tid] && oi < si[tid])) {
        sv[tid] = o;
        si[tid] = oi;
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tid == 0) {
    best_val[get_group_id(0)] = sv[0];
    best_idx[get_group_id(0)] = si[0];
  }
}

kernel void minmax_i32(global const int *x, uint n, global int *gmin, global int *gmax) {
  local int lmin, lmax;
  if (get_local_id(0) == 0) {
    lmin = INT_MAX;
    lmax = INT_MIN;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int mn = INT_MAX, mx = INT_MIN;
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
    mn = min(mn, x[i]);
    mx = max(mx, x[i]);
  }
  atomic_min(&lmin, mn);
  atomic_max(&lmax, mx);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    atomic_min(gmin, lmin);
    atomic_max(gmax, lmax);
  }
}

kernel void range_u64(global const ulong *x, uint n, global ulong *lo, global ulong *hi) {
  ulong mn = ULONG_MAX, mx = 0;
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
    ulong v = x[i];
    mn = v < mn ? v : mn;
    mx = v > mx ? v : mx;
  }
  atomic_min(lo, mn);
  atomic_max(hi, mx);
}
