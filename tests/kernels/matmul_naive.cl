#include "gcn.h"
/* Straightforward GEMM variants: one output per work-item, nested loops. */

kernel void sgemm_naive(int M, int N, int K, float alpha, global const float *A, int lda,
                        global const float *B, int ldb, float beta, global float *C, int ldc) {
  int row = get_global_id(1), col = get_global_id(0);
  if (row >= M || col >= N)
    return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc = fma(A[row * lda + k], B[k * ldb + col], acc);
  C[row * ldc + col] = alpha * acc + beta * C[row * ldc + col];
}

/* each work-item computes a 4x4 register block */
kernel void sgemm_regblock(int M, int N, int K, global const float *A, global const float *B, global float *C) {
  int r0 = get_global_id(1) * 4, c0 = get_global_id(0) * 4;
  if (r0 >= M || c0 >= N)
    return;
  float acc[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      acc[i][j] = 0.0f;
  for (int k = 0; k < K; ++k) {
    float a[4], b[4];
    for (int i = 0; i < 4; ++i)
      a[i] = A[(r0 + i) * K + k];
    for (int j = 0; j < 4; ++j)
      b[j] = B[k * N + c0 + j];
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j)
        acc[i][j] = fma(a[i], b[j], acc[i][j]);
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      if (r0 + i < M && c0 + j < N)
        C[(r0 + i) * N + c0 + j] = acc[i][j];
}

kernel void igemm_i8(int M, int N, int K, global const char *A, global const char *B, global int *C) {
  int row = get_global_id(1), col = get_global_id(0);
  if (row < M && col < N) {
    int acc = 0;
    for (int k = 0; k < K; ++k)
      acc += (int)A[row * K + k] * (int)B[k * N + col];
    C[row * N + col] = acc;
  }
}
