#include "gcn.h"
/* Radix-2 Stockham FFT: one global pass per stage, plus a 1024-point in-LDS FFT. */

inline float2 cmul(float2 a, float2 b) { return (float2)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }

kernel void fft_stage(global const float2 *in, global float2 *out, int n, int p /* span */, int sign) {
  int i = get_global_id(0); /* 0 .. n/2 */
  int k = i & (p - 1);
  float2 a = in[i], b = in[i + n / 2];
  float c, s = gcn_sincos(sign * -3.14159265f * k / p, &c);
  b = cmul(b, (float2)(c, s));
  int j = (i << 1) - k;
  out[j] = a + b;
  out[j + p] = a - b;
}

#define N 1024
kernel __attribute__((reqd_work_group_size(N / 2, 1, 1)))
void fft1024_lds(global float2 *data) {
  local float2 buf[2][N];
  int t = get_local_id(0);
  global float2 *d = data + get_group_id(0) * N;
  buf[0][t] = d[t];
  buf[0][t + N / 2] = d[t + N / 2];
  int src = 0;
  for (int p = 1; p < N; p <<= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    int k = t & (p - 1);
    float2 a = buf[src][t], b = buf[src][t + N / 2];
    float c, s = gcn_sincos(-3.14159265f * k / p, &c);
    b = cmul(b, (float2)(c, s));
    int j = (t << 1) - k;
    buf[1 - src][j] = a + b;
    buf[1 - src][j + p] = a - b;
    src = 1 - src;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  d[t] = buf[src][t];
  d[t + N / 2] = buf[src][t + N / 2];
}

/* bit-reversal permutation */
kernel void bit_reverse_perm(global const float2 *in, global float2 *out, uint log2n) {
  uint i = get_global_id(0);
  out[bitreverse(i) >> (32 - log2n)] = in[i];
}
