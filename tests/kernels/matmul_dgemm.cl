#include "gcn.h"
/* Double-precision tiled GEMM with alpha/beta and a batched, strided DGEMV. */
#define TS 8

kernel __attribute__((reqd_work_group_size(TS, TS, 1)))
void dgemm_tiled(int M, int N, int K, double alpha, global const double *A, global const double *B,
                 double beta, global double *C) {
  local double As[TS][TS];
  local double Bs[TS][TS];
  int tx = get_local_id(0), ty = get_local_id(1);
  int row = get_group_id(1) * TS + ty, col = get_group_id(0) * TS + tx;
  double acc = 0.0;
  for (int t = 0; t < K; t += TS) {
    As[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : 0.0;
    Bs[ty][tx] = (t + ty < K && col < N) ? B[(t + ty) * N + col] : 0.0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; ++k)
      acc = fma(As[ty][k], Bs[k][tx], acc);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (row < M && col < N) {
    double c = C[row * N + col];
    C[row * N + col] = beta == 0.0 ? alpha * acc : fma(alpha, acc, beta * c);
  }
}

kernel void dgemv_batched(int batch, int m, int n, global const double *A, long strideA,
                          global const double *x, global double *y) {
  int b = get_group_id(1);
  int row = get_global_id(0);
  if (b >= batch || row >= m)
    return;
  global const double *Ab = A + b * strideA;
  double acc = 0.0;
  for (int j = 0; j < n; ++j)
    acc = fma(Ab[row + j * m], x[b * n + j], acc);
  y[b * m + row] = acc;
}
