#include "gcn.h"
/* Image processing on plain buffers (no image objects): separable Gaussian blur through LDS,
 * Sobel edges, bilinear resize, and a 256-level histogram equalisation LUT. */
#define BW 16
#define BH 16
#define RAD 3

constant float gauss7[7] = {0.0702f, 0.1311f, 0.1907f, 0.2161f, 0.1907f, 0.1311f, 0.0702f};

kernel __attribute__((reqd_work_group_size(BW, BH, 1)))
void gaussian_blur(global const uchar *src, global uchar *dst, int w, int h) {
  local float tile[BH + 2 * RAD][BW + 2 * RAD];
  local float tmp[BH + 2 * RAD][BW];
  int lx = get_local_id(0), ly = get_local_id(1);
  int gx0 = get_group_id(0) * BW - RAD, gy0 = get_group_id(1) * BH - RAD;
  for (int y = ly; y < BH + 2 * RAD; y += BH)
    for (int x = lx; x < BW + 2 * RAD; x += BW) {
      int sx = clamp(gx0 + x, 0, w - 1), sy = clamp(gy0 + y, 0, h - 1);
      tile[y][x] = src[sy * w + sx];
    }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int y = ly; y < BH + 2 * RAD; y += BH) {
    float s = 0;
    for (int k = 0; k < 7; ++k) s += gauss7[k] * tile[y][lx + k];
    tmp[y][lx] = s;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  float s = 0;
  for (int k = 0; k < 7; ++k) s += gauss7[k] * tmp[ly + k][lx];
  int gx = get_global_id(0), gy = get_global_id(1);
  if (gx < w && gy < h) dst[gy * w + gx] = (uchar)(s + 0.5f);
}

kernel void sobel(global const uchar *src, global uchar *mag, global uchar *dir, int w, int h) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1) return;
#define P(dx, dy) ((int)src[(y + (dy)) * w + x + (dx)])
  int gx = -P(-1, -1) - 2 * P(-1, 0) - P(-1, 1) + P(1, -1) + 2 * P(1, 0) + P(1, 1);
  int gy = -P(-1, -1) - 2 * P(0, -1) - P(1, -1) + P(-1, 1) + 2 * P(0, 1) + P(1, 1);
#undef P
  mag[y * w + x] = (uchar)min((int)sqrt((float)(gx * gx + gy * gy)), 255);
  int ax = abs(gx), ay = abs(gy);
  dir[y * w + x] = ay * 5 < ax * 2 ? 0 : (ax * 5 < ay * 2 ? 2 : ((gx ^ gy) < 0 ? 3 : 1));
}

kernel void resize_bilinear(global const uchar4 *src, int sw, int sh, global uchar4 *dst, int dw, int dh) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= dw || y >= dh) return;
  float fx = (x + 0.5f) * sw / dw - 0.5f, fy = (y + 0.5f) * sh / dh - 0.5f;
  int x0 = clamp((int)floor(fx), 0, sw - 1), y0 = clamp((int)floor(fy), 0, sh - 1);
  int x1 = min(x0 + 1, sw - 1), y1 = min(y0 + 1, sh - 1);
  float ax = clamp(fx - x0, 0.0f, 1.0f), ay = clamp(fy - y0, 0.0f, 1.0f);
  uchar4 p00 = src[y0 * sw + x0], p01 = src[y0 * sw + x1], p10 = src[y1 * sw + x0], p11 = src[y1 * sw + x1];
  float4 f00 = (float4)(p00.x, p00.y, p00.z, p00.w), f01 = (float4)(p01.x, p01.y, p01.z, p01.w);
  float4 f10 = (float4)(p10.x, p10.y, p10.z, p10.w), f11 = (float4)(p11.x, p11.y, p11.z, p11.w);
  float4 top = f00 + (f01 - f00) * ax, bot = f10 + (f11 - f10) * ax;
  float4 r = top + (bot - top) * ay + 0.5f;
  dst[y * dw + x] = (uchar4)((uchar)r.x, (uchar)r.y, (uchar)r.z, (uchar)r.w);
}

kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void equalize_lut(global const uint *hist, uint npix, global uchar *lut) {
  local uint cdf[256];
  uint t = get_local_id(0);
  cdf[t] = hist[t];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint off = 1; off < 256; off <<= 1) {
    uint v = t >= off ? cdf[t - off] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    cdf[t] += v;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  uint cmin = cdf[0];
  lut[t] = (uchar)(((ulong)(cdf[t] - cmin) * 255) / max(npix - cmin, 1u));
}
