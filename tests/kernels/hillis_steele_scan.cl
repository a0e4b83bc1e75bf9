#include "gcn.h"
/* Hillis-Steele double-buffered inclusive scan and a stream compaction that uses it. */
#define WG 256

kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void scan_inclusive_i32(global const int *in, global int *out, uint n) {
  local int buf[2][WG];
  uint tid = get_local_id(0), i = get_global_id(0);
  int pout = 0, pin = 1;
  buf[pout][tid] = i < n ? in[i] : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint off = 1; off < WG; off *= 2) {
    pout = 1 - pout;
    pin = 1 - pout;
    if (tid >= off)
      buf[pout][tid] = buf[pin][tid] + buf[pin][tid - off];
    else
      buf[pout][tid] = buf[pin][tid];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (i < n)
    out[i] = buf[pout][tid];
}

kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void compact_positive(global const float *in, global float *out, global uint *count, uint n) {
  local uint flags[WG];
  local uint base;
  uint tid = get_local_id(0), i = get_global_id(0);
  float v = i < n ? in[i] : -1.0f;
  uint keep = v > 0.0f;
  flags[tid] = keep;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint off = 1; off < WG; off <<= 1) {
    uint t = tid >= off ? flags[tid - off] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    flags[tid] += t;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tid == WG - 1)
    base = atomic_add(count, flags[WG - 1]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (keep)
    out[base + flags[tid] - 1] = v;
}
