#include "gcn.h"
/* Wave-level reductions and scans with DPP (GFX8+), falling back to ds_swizzle + readlane
 * on GFX6/7. The DPP sequence is the one AMD's libraries use: row_shr 1/2/4/8, row_bcast 15/31. */

#define DPP_ROW_SHR(n) (0x110 + (n))
#define DPP_ROW_BCAST15 0x142
#define DPP_ROW_BCAST31 0x143
#define DPP_QUAD_PERM(a, b, c, d) ((a) | ((b) << 2) | ((c) << 4) | ((d) << 6))

inline int wave_inclusive_scan_add(int v) {
#if GCN_HAS_DPP
  v += __builtin_amdgcn_update_dpp(0, v, DPP_ROW_SHR(1), 0xf, 0xf, 0);
  v += __builtin_amdgcn_update_dpp(0, v, DPP_ROW_SHR(2), 0xf, 0xf, 0);
  v += __builtin_amdgcn_update_dpp(0, v, DPP_ROW_SHR(3), 0xf, 0xf, 0);
  v += __builtin_amdgcn_update_dpp(0, v, DPP_ROW_SHR(4), 0xf, 0xe, 0);
  v += __builtin_amdgcn_update_dpp(0, v, DPP_ROW_SHR(8), 0xf, 0xc, 0);
  v += __builtin_amdgcn_update_dpp(0, v, DPP_ROW_BCAST15, 0xa, 0xf, 0);
  v += __builtin_amdgcn_update_dpp(0, v, DPP_ROW_BCAST31, 0xc, 0xf, 0);
  return v;
#else
  /* Kogge-Stone via LDS-free swizzles is not possible for shifts; use readlane per step */
  uint lane = gcn_lane_id();
  for (uint off = 1; off < 64; off <<= 1) {
    int other = 0;
    for (uint l = 0; l < 64; ++l) /* uniform loop: readlane needs a uniform lane index */
      if (lane == l + off)
        other = __builtin_amdgcn_readlane(v, l);
    v += other;
  }
  return v;
#endif
}

inline float wave_reduce_max(float v) {
#if GCN_HAS_DPP
  int x = as_int(v);
  v = fmax(v, as_float(__builtin_amdgcn_mov_dpp(x, DPP_QUAD_PERM(1, 0, 3, 2), 0xf, 0xf, 1)));
  x = as_int(v);
  v = fmax(v, as_float(__builtin_amdgcn_mov_dpp(x, DPP_QUAD_PERM(2, 3, 0, 1), 0xf, 0xf, 1)));
  x = as_int(v);
  v = fmax(v, as_float(__builtin_amdgcn_mov_dpp(x, 0x124 /* row_ror:4 */, 0xf, 0xf, 1)));
  x = as_int(v);
  v = fmax(v, as_float(__builtin_amdgcn_mov_dpp(x, 0x128 /* row_ror:8 */, 0xf, 0xf, 1)));
  x = as_int(v);
  v = fmax(v, as_float(__builtin_amdgcn_mov_dpp(x, DPP_ROW_BCAST15, 0xa, 0xf, 0)));
  x = as_int(v);
  v = fmax(v, as_float(__builtin_amdgcn_mov_dpp(x, DPP_ROW_BCAST31, 0xc, 0xf, 0)));
  return gcn_readlane_f(v, 63);
#else
  v = fmax(v, gcn_swizzle_f(v, GCN_SWZ_XOR(1)));
  v = fmax(v, gcn_swizzle_f(v, GCN_SWZ_XOR(2)));
  v = fmax(v, gcn_swizzle_f(v, GCN_SWZ_XOR(4)));
  v = fmax(v, gcn_swizzle_f(v, GCN_SWZ_XOR(8)));
  v = fmax(v, gcn_swizzle_f(v, GCN_SWZ_XOR(16)));
  return fmax(gcn_readlane_f(v, 0), gcn_readlane_f(v, 32));
#endif
}

kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void block_scan_dpp(global const int *in, global int *out, global int *block_tot) {
  local int wave_tot[4];
  uint tid = get_local_id(0), wave = tid / 64, i = get_global_id(0);
  int v = in[i];
  int s = wave_inclusive_scan_add(v);
  if (gcn_lane_id() == 63)
    wave_tot[wave] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  int pre = 0;
  for (uint w = 0; w < wave; ++w)
    pre += wave_tot[w];
  out[i] = s + pre;
  if (tid == 255)
    block_tot[get_group_id(0)] = s + pre;
}

kernel void wave_max_abs(global const float *x, global float *res, uint n) {
  uint i = get_global_id(0);
  float v = i < n ? fabs(x[i]) : 0.0f;
  float m = wave_reduce_max(v);
  if (gcn_lane_id() == 0)
    atomic_max(res, m);
}

/* softmax denominator per 64-wide row using a wave sum */
kernel void wave_row_sum(global const float *x, global float *rowsum) {
  uint i = get_global_id(0);
  int fixed = (int)(x[i] * 65536.0f);
  int s = wave_inclusive_scan_add(fixed);
  if (gcn_lane_id() == 63)
    rowsum[i / 64] = s / 65536.0f;
}
