#include "gcn.h"
/* Classic work-group tree reductions in LDS, finished with a global atomic. */
#define WG 256

kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void reduce_sum_f32(global const float *in, global float *partial, uint n) {
  local float sdata[WG];
  uint tid = get_local_id(0);
  uint i = get_group_id(0) * (WG * 2) + tid;
  uint stride = WG * 2 * get_num_groups(0);
  float acc = 0.0f;
  while (i < n) {
    acc += in[i];
    if (i + WG < n)
      acc += in[i + WG];
    i += stride;
  }
  sdata[tid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = WG / 2; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tid < 32) {
    volatile local float *v = sdata;
    v[tid] += v[tid + 32];
    v[tid] += v[tid + 16];
    v[tid] += v[tid + 8];
    v[tid] += v[tid + 4];
    v[tid] += v[tid + 2];
    v[tid] += v[tid + 1];
  }
  if (tid == 0)
    partial[get_group_id(0)] = sdata[0];
}

kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void reduce_sum_i64_atomic(global const int *in, global long *total, uint n) {
  local long sdata[WG];
  uint tid = get_local_id(0);
  uint i = get_global_id(0);
  sdata[tid] = i < n ? (long)in[i] : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = WG / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tid == 0)
    atomic_add(total, sdata[0]);
}

kernel void reduce_sum_f64(global const double *in, global double *out, uint n, local double *scratch) {
  uint tid = get_local_id(0), ls = get_local_size(0);
  double acc = 0.0, comp = 0.0; /* Kahan */
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
    double y = in[i] - comp;
    double t = acc + y;
    comp = (t - acc) - y;
    acc = t;
  }
  scratch[tid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = ls / 2; s > 0; s >>= 1) {
    if (tid < s)
      scratch[tid] += scratch[tid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tid == 0)
    out[get_group_id(0)] = scratch[0];
}
