#include "gcn.h"
/* Sparse matrix-vector products: CSR scalar (row per lane), CSR vector (row per wave with an
 * LDS reduction), ELL, COO with atomics, and double-precision CSR. */

kernel void csr_spmv_scalar(int m, global const int *rowptr, global const int *col, global const float *val,
                            global const float *x, global float *y, float alpha, float beta) {
  int r = get_global_id(0);
  if (r >= m) return;
  float s = 0.0f;
  for (int k = rowptr[r]; k < rowptr[r + 1]; ++k)
    s = fma(val[k], x[col[k]], s);
  y[r] = alpha * s + (beta != 0.0f ? beta * y[r] : 0.0f);
}

#define WG 256
kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void csr_spmv_vector(int m, global const int *rowptr, global const int *col, global const float *val,
                     global const float *x, global float *y) {
  local float part[WG];
  int tid = get_local_id(0), lane = tid & 63;
  int r = get_global_id(0) / 64;
  float s = 0.0f;
  if (r < m)
    for (int k = rowptr[r] + lane; k < rowptr[r + 1]; k += 64)
      s = fma(val[k], x[col[k]], s);
  part[tid] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int off = 32; off > 0; off >>= 1) {
    if (lane < off)
      part[tid] += part[tid + off];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lane == 0 && r < m)
    y[r] = part[tid];
}

kernel void ell_spmv(int m, int width, global const int *col, global const float *val, global const float *x,
                     global float *y) {
  int r = get_global_id(0);
  if (r >= m) return;
  float s = 0.0f;
  for (int j = 0; j < width; ++j) {
    int c = col[j * m + r];
    if (c < 0) break;
    s = fma(val[j * m + r], x[c], s);
  }
  y[r] = s;
}

kernel void coo_spmv_atomic(int nnz, global const int *row, global const int *col, global const float *val,
                            global const float *x, global float *y) {
  int k = get_global_id(0);
  if (k < nnz)
    atomic_add(&y[row[k]], val[k] * x[col[k]]);
}

kernel void csr_dspmv(int m, global const long *rowptr, global const int *col, global const double *val,
                      global const double *x, global double *y) {
  int r = get_global_id(0);
  if (r >= m) return;
  double s = 0.0;
  for (long k = rowptr[r]; k < rowptr[r + 1]; ++k)
    s = fma(val[k], x[col[k]], s);
  y[r] = s;
}

/* Jacobi-preconditioned residual: r = b - A x, z = r / diag */
kernel void csr_residual_precond(int m, global const int *rowptr, global const int *col, global const double *val,
                                 global const double *x, global const double *b, global double *r, global double *z) {
  int i = get_global_id(0);
  if (i >= m) return;
  double s = 0.0, d = 1.0;
  for (int k = rowptr[i]; k < rowptr[i + 1]; ++k) {
    int c = col[k];
    s = fma(val[k], x[c], s);
    if (c == i) d = val[k];
  }
  double res = b[i] - s;
  r[i] = res;
  z[i] = res / d;
}
