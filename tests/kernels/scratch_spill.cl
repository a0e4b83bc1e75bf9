#include "gcn.h"
/* Private memory that must live in scratch: dynamically indexed private arrays, a private
 * sort, a private histogram, and high register pressure. */

kernel void private_insertion_sort(global const float *in, global float *median, int k) {
  int i = get_global_id(0);
  float w[48];
  int n = min(k, 48);
  for (int j = 0; j < n; ++j)
    w[j] = in[i * 48 + j];
  for (int a = 1; a < n; ++a) {
    float key = w[a];
    int b = a - 1;
    while (b >= 0 && w[b] > key) {
      w[b + 1] = w[b];
      --b;
    }
    w[b + 1] = key;
  }
  median[i] = w[n / 2];
}

kernel void private_histogram(global const uchar *data, global uint *mode, int len) {
  int i = get_global_id(0);
  uint h[64];
  for (int b = 0; b < 64; ++b)
    h[b] = 0;
  for (int j = 0; j < len; ++j)
    h[data[i * len + j] & 63]++;
  uint best = 0;
  for (int b = 1; b < 64; ++b)
    if (h[b] > h[best])
      best = b;
  mode[i] = best | (h[best] << 8);
}

/* a lookup table built at run time in private memory */
kernel void private_lut(global const uint *idx, global float *out, float base) {
  int i = get_global_id(0);
  float lut[100];
  float v = base;
  for (int j = 0; j < 100; ++j) {
    lut[j] = v;
    v = v * 1.01f + 0.5f;
  }
  uint k = idx[i];
  out[i] = lut[k % 100] + lut[(k >> 8) % 100] * lut[(k >> 16) % 100];
}

/* 8x8 DCT-II on one block per work-item, with all 64 coefficients live */
kernel void dct8x8_private(global const float *in, global float *out) {
  int blk = get_global_id(0);
  float b[64], t[64];
  for (int j = 0; j < 64; ++j)
    b[j] = in[blk * 64 + j];
  for (int u = 0; u < 8; ++u)
    for (int x = 0; x < 8; ++x) {
      float s = 0;
      for (int y = 0; y < 8; ++y)
        s += b[x * 8 + y] * cos((2 * y + 1) * u * 0.19634954f);
      t[x * 8 + u] = s * (u ? 0.5f : 0.35355339f);
    }
  for (int v = 0; v < 8; ++v)
    for (int u = 0; u < 8; ++u) {
      float s = 0;
      for (int x = 0; x < 8; ++x)
        s += t[x * 8 + u] * cos((2 * x + 1) * v * 0.19634954f);
      out[blk * 64 + v * 8 + u] = s * (v ? 0.5f : 0.35355339f);
    }
}

/* big private struct copied by value into a helper loop */
typedef struct { double m[6][6]; } mat6;
kernel void mat6_power(global const mat6 *in, global mat6 *out, int p) {
  int i = get_global_id(0);
  mat6 a = in[i], r;
  for (int x = 0; x < 6; ++x)
    for (int y = 0; y < 6; ++y)
      r.m[x][y] = x == y;
  for (int e = 0; e < p; ++e) {
    mat6 t;
    for (int x = 0; x < 6; ++x)
      for (int y = 0; y < 6; ++y) {
        double s = 0;
        for (int k = 0; k < 6; ++k)
          s = fma(r.m[x][k], a.m[k][y], s);
        t.m[x][y] = s;
      }
    r = t;
  }
  out[i] = r;
}
