#include "gcn.h"
/* 1-D convolution with the filter in constant memory and LDS staging; 2-D 3x3 convolution
 * over multiple channels (a tiny CNN layer with bias and ReLU). */
#define R 8
#define WG 128

kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void conv1d(global const float *x, constant float *filt, global float *y, int n) {
  local float s[WG + 2 * R];
  int tid = get_local_id(0), i = get_global_id(0);
  int base = get_group_id(0) * WG - R;
  for (int k = tid; k < WG + 2 * R; k += WG) {
    int g = base + k;
    s[k] = (g >= 0 && g < n) ? x[g] : 0.0f;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  float acc = 0.0f;
#pragma unroll
  for (int k = -R; k <= R; ++k)
    acc = fma(filt[k + R], s[tid + R + k], acc);
  if (i < n)
    y[i] = acc;
}

kernel void conv2d_3x3_relu(global const float *in, global const float *w, global const float *bias,
                            global float *out, int C, int K, int H, int W) {
  int x = get_global_id(0), y = get_global_id(1), k = get_global_id(2);
  if (x >= W || y >= H || k >= K)
    return;
  float acc = bias[k];
  for (int c = 0; c < C; ++c) {
    global const float *ip = in + (long)c * H * W;
    global const float *wp = w + (k * C + c) * 9;
    for (int dy = -1; dy <= 1; ++dy) {
      int yy = y + dy;
      if (yy < 0 || yy >= H)
        continue;
      for (int dx = -1; dx <= 1; ++dx) {
        int xx = x + dx;
        if (xx >= 0 && xx < W)
          acc = fma(ip[yy * W + xx], wp[(dy + 1) * 3 + dx + 1], acc);
      }
    }
  }
  out[((long)k * H + y) * W + x] = fmax(acc, 0.0f);
}

kernel void maxpool2x2(global const float *in, global float *out, int H, int W) {
  int x = get_global_id(0), y = get_global_id(1), c = get_global_id(2);
  int Ho = H / 2, Wo = W / 2;
  if (x < Wo && y < Ho) {
    global const float *p = in + ((long)c * H + 2 * y) * W + 2 * x;
    out[((long)c * Ho + y) * Wo + x] = fmax(fmax(p[0], p[1]), fmax(p[W], p[W + 1]));
  }
}
