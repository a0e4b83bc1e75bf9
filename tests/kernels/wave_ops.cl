#include "gcn.h"
/* Cross-lane primitives: readlane/readfirstlane broadcasts, ballot + mbcnt compaction,
 * ds_bpermute shuffles (GFX8+), ds_append counters, and uniform-branch hoisting. */

inline ulong ballot(bool p) { return __builtin_amdgcn_ballot_w64(p); }

/* per-wave compaction of valid elements, one global atomic per wave */
kernel void wave_compact(global const int *in, global int *out, global uint *count, uint n) {
  uint i = get_global_id(0);
  int v = i < n ? in[i] : 0;
  bool keep = i < n && v != 0;
  ulong mask = ballot(keep);
  uint total = popcount(mask);
  uint rank = __builtin_amdgcn_mbcnt_hi((uint)(mask >> 32), __builtin_amdgcn_mbcnt_lo((uint)mask, 0u));
  uint base = 0;
  if (gcn_lane_id() == 0)
    base = atomic_add(count, total);
  base = __builtin_amdgcn_readfirstlane(base);
  if (keep)
    out[base + rank] = v;
}

/* broadcast the value of the first active lane, and of lane 17 */
kernel void broadcasts(global const int *in, global int *out) {
  uint i = get_global_id(0);
  int v = in[i];
  int first = gcn_readfirstlane(v);
  int l17 = gcn_readlane(v, 17);
  int uniform_sum = 0;
  for (int k = 0; k < 64; k += 8)
    uniform_sum += gcn_readlane(v, k);
  out[i] = v - first + l17 + uniform_sum;
}

/* warp-shuffle style transpose of 8x8 tiles using ds_bpermute */
kernel void shuffle_transpose8(global const int *in, global int *out) {
  uint i = get_global_id(0);
  int v = in[i];
#if GCN_HAS_DPP
  uint lane = gcn_lane_id();
  uint r = lane / 8, c = lane % 8;
  uint src = (c * 8 + r) * 4;
  out[i] = __builtin_amdgcn_ds_bpermute(src, v);
  out[i + get_global_size(0)] = __builtin_amdgcn_ds_permute(((lane + 1) & 63) * 4, v);
#else
  local int tmp[64 * 4];
  uint lane = get_local_id(0);
  tmp[lane] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint w = lane & ~63u, l = lane & 63u;
  out[i] = tmp[w + (l % 8) * 8 + l / 8];
  out[i + get_global_size(0)] = tmp[w + ((l + 63) & 63)];
#endif
}

/* work-group queue slots via ds_append / ds_consume */
kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void append_consume(global const float *x, global float *kept, global uint *nkept) {
  local int counter;
  local float buf[256];
  if (get_local_id(0) == 0)
    counter = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  float v = x[get_global_id(0)];
  if (v > 0.5f) {
    int slot = __builtin_amdgcn_ds_append(&counter);
    buf[slot] = v;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int n = counter;
  if (get_local_id(0) < (uint)n)
    kept[get_group_id(0) * 256 + get_local_id(0)] = buf[get_local_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    nkept[get_group_id(0)] = n;
    __builtin_amdgcn_ds_consume(&counter);
  }
}

/* vote functions: any/all, and a wave-uniform fast path */
kernel void vote_fast_path(global const float *x, global float *y, float thresh) {
  uint i = get_global_id(0);
  float v = x[i];
  ulong m = ballot(v > thresh);
  if (m == 0) {
    y[i] = v; /* no lane needs the slow path */
  } else if (m == ~0ul) {
    y[i] = sqrt(v);
  } else {
    y[i] = v > thresh ? sqrt(v) : v * 0.5f;
  }
}
