#include "gcn.h"
/* LDS tiled SGEMM (16x16 tiles) and a 2x2-per-thread variant with 32x32 tiles. */
#define TS 16

kernel __attribute__((reqd_work_group_size(TS, TS, 1)))
void sgemm_tiled(int M, int N, int K, global const float *A, global const float *B, global float *C) {
  local float As[TS][TS];
  local float Bs[TS][TS + 1];
  int tx = get_local_id(0), ty = get_local_id(1);
  int row = get_group_id(1) * TS + ty, col = get_group_id(0) * TS + tx;
  float acc = 0.0f;
  for (int t = 0; t < K; t += TS) {
    As[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : 0.0f;
    Bs[ty][tx] = (t + ty < K && col < N) ? B[(t + ty) * N + col] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int k = 0; k < TS; ++k)
      acc = fma(As[ty][k], Bs[k][tx], acc);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

#define T2 32
kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void sgemm_tiled_2x2(int M, int N, int K, global const float *A, global const float *B, global float *C) {
  local float As[T2][T2 + 1];
  local float Bs[T2][T2 + 1];
  int tx = get_local_id(0), ty = get_local_id(1);
  int row0 = get_group_id(1) * T2, col0 = get_group_id(0) * T2;
  float c00 = 0, c01 = 0, c10 = 0, c11 = 0;
  for (int t = 0; t < K; t += T2) {
    for (int i = ty; i < T2; i += 16)
      for (int j = tx; j < T2; j += 16) {
        As[i][j] = (row0 + i < M && t + j < K) ? A[(row0 + i) * K + t + j] : 0.0f;
        Bs[i][j] = (t + i < K && col0 + j < N) ? B[(t + i) * N + col0 + j] : 0.0f;
      }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < T2; ++k) {
      float a0 = As[ty][k], a1 = As[ty + 16][k];
      float b0 = Bs[k][tx], b1 = Bs[k][tx + 16];
      c00 = fma(a0, b0, c00);
      c01 = fma(a0, b1, c01);
      c10 = fma(a1, b0, c10);
      c11 = fma(a1, b1, c11);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  int r = row0 + ty, c = col0 + tx;
  if (r < M && c < N) C[r * N + c] = c00;
  if (r < M && c + 16 < N) C[r * N + c + 16] = c01;
  if (r + 16 < M && c < N) C[(r + 16) * N + c] = c10;
  if (r + 16 < M && c + 16 < N) C[(r + 16) * N + c + 16] = c11;
}
