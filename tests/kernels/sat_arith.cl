#include "gcn.h"
/* Saturating and packed arithmetic on small integers: 8/16-bit pixel math, mad24,
 * sum of absolute differences (motion estimation), and u8 quantisation. */

inline uchar sat_u8(int v) { return (uchar)(v < 0 ? 0 : (v > 255 ? 255 : v)); }
inline short sat_s16(int v) { return (short)(v < -32768 ? -32768 : (v > 32767 ? 32767 : v)); }

kernel void blend_u8(global const uchar4 *a, global const uchar4 *b, global const uchar *alpha, global uchar4 *out) {
  int i = get_global_id(0);
  int al = alpha[i], ia = 255 - al;
  uchar4 x = a[i], y = b[i];
  out[i] = (uchar4)(sat_u8((x.x * al + y.x * ia + 128) >> 8), sat_u8((x.y * al + y.y * ia + 128) >> 8),
                    sat_u8((x.z * al + y.z * ia + 128) >> 8), sat_u8(x.w + y.w));
}

kernel void audio_mix_s16(global const short *a, global const short *b, global short *out, int gain_a, int gain_b) {
  int i = get_global_id(0);
  out[i] = sat_s16((a[i] * gain_a + b[i] * gain_b) >> 8);
}

/* 8x8 block SAD over a +-4 search window, using __builtin_amdgcn_sad_u8 on packed bytes */
kernel void block_match_sad(global const uint *cur, global const uint *ref, int stride_words, global int2 *mv) {
  int bx = get_global_id(0), by = get_global_id(1);
  uint best = 0xffffffffu;
  int2 bv = (int2)(0, 0);
  for (int dy = -4; dy <= 4; ++dy)
    for (int dxw = -1; dxw <= 1; ++dxw) {
      uint sad = 0;
      for (int r = 0; r < 8; ++r) {
        int ci = (by * 8 + r) * stride_words + bx * 2;
        int ri = (by * 8 + r + dy) * stride_words + bx * 2 + dxw;
        if (ri < 0) continue;
        sad = __builtin_amdgcn_sad_u8(cur[ci], ref[ri], sad);
        sad = __builtin_amdgcn_sad_u8(cur[ci + 1], ref[ri + 1], sad);
      }
      if (sad < best) { best = sad; bv = (int2)(dxw * 4, dy); }
    }
  mv[by * get_global_size(0) + bx] = bv;
}

kernel void quantize_u8(global const float *x, global uchar *q, float scale, int zero_point, int n) {
  int i = get_global_id(0);
  if (i < n)
    q[i] = sat_u8((int)rint(x[i] / scale) + zero_point);
}

kernel void mad24_index(global const float *in, global float *out, uint w, uint pitch) {
  uint x = get_global_id(0), y = get_global_id(1);
  out[mad24(y, w, x)] = in[mad24(y, pitch, x)] * 2.0f;
}

/* packed 16-bit lanes in a 32-bit word: SWAR add with carry isolation */
kernel void swar_add16(global const uint *a, global const uint *b, global uint *c) {
  int i = get_global_id(0);
  uint x = a[i], y = b[i];
  uint s = ((x & 0x7fff7fffu) + (y & 0x7fff7fffu)) ^ ((x ^ y) & 0x80008000u);
  c[i] = s;
}
