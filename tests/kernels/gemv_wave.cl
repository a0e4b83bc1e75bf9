#include "gcn.h"
/* GEMV variants: one wave per row reduced with readlane-free swizzles and LDS, transposed GEMV
 * with coalesced columns, and a rank-1 update (GER). */

/* ds_swizzle has no pocl counterpart: this kernel exists only in the AMDGCN build. */
#ifdef __AMDGCN__
kernel __attribute__((reqd_work_group_size(64, 4, 1)))
void sgemv_n(int m, int n, global const float *A, int lda, global const float *x, global float *y, float alpha, float beta) {
  local float red[4][64];
  int lane = get_local_id(0), w = get_local_id(1);
  int row = get_group_id(0) * 4 + w;
  float s = 0.0f;
  if (row < m)
    for (int j = lane; j < n; j += 64)
      s = fma(A[(long)row * lda + j], x[j], s);
  /* first fold 64 -> 32 inside each half-wave pair with ds_swizzle, then LDS */
  s += gcn_swizzle_f(s, GCN_SWZ_XOR(16));
  s += gcn_swizzle_f(s, GCN_SWZ_XOR(8));
  red[w][lane] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lane == 0 && row < m) {
    float t = 0.0f;
    for (int k = 0; k < 8; ++k)
      t += red[w][k] + red[w][32 + k];
    y[row] = alpha * t + beta * y[row];
  }
}
#endif

kernel void sgemv_t(int m, int n, global const float *A, int lda, global const float *x, global float *y) {
  int col = get_global_id(0);
  if (col >= n) return;
  float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  int i = 0;
  for (; i + 3 < m; i += 4) {
    s0 = fma(A[(long)i * lda + col], x[i], s0);
    s1 = fma(A[(long)(i + 1) * lda + col], x[i + 1], s1);
    s2 = fma(A[(long)(i + 2) * lda + col], x[i + 2], s2);
    s3 = fma(A[(long)(i + 3) * lda + col], x[i + 3], s3);
  }
  for (; i < m; ++i)
    s0 = fma(A[(long)i * lda + col], x[i], s0);
  y[col] = (s0 + s1) + (s2 + s3);
}

kernel void sger(int m, int n, float alpha, global const float *x, global const float *y, global float *A, int lda) {
  int i = get_global_id(1), j = get_global_id(0);
  if (i < m && j < n)
    A[(long)i * lda + j] = fma(alpha * x[i], y[j], A[(long)i * lda + j]);
}

/* banded matrix-vector product (tridiagonal), double */
kernel void dgtmv(int n, global const double *dl, global const double *d, global const double *du,
                  global const double *x, global double *y) {
  int i = get_global_id(0);
  if (i >= n) return;
  double s = d[i] * x[i];
  if (i > 0) s = fma(dl[i - 1], x[i - 1], s);
  if (i < n - 1) s = fma(du[i], x[i + 1], s);
  y[i] = s;
}
