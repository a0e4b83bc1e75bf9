#include "gcn.h"
/* Matrix-core (MFMA) kernels for CDNA: gfx908, gfx90a, gfx942 only (scripts/build-kernels.sh
 * builds mfma_* files just for those targets). One wave computes one output tile; operand and
 * result layouts follow AMD's matrix instruction calculator. */
#if !GCN_HAS_MFMA
#error "mfma_gemm.cl needs a target with matrix cores (gfx908, gfx90a, gfx942)"
#endif

typedef float v4f __attribute__((ext_vector_type(4)));
typedef float v16f __attribute__((ext_vector_type(16)));
typedef float v32f __attribute__((ext_vector_type(32)));
typedef half v4h __attribute__((ext_vector_type(4)));
typedef int v4i __attribute__((ext_vector_type(4)));
typedef double v4d __attribute__((ext_vector_type(4)));

/* C[32x32] = A[32xK] * B[Kx32], fp32, v_mfma_f32_32x32x2f32; one wave per tile */
kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void sgemm_mfma_32x32x2(int M, int N, int K, global const float *A, global const float *B, global float *C) {
  int lane = get_local_id(0);
  int tm = get_group_id(1) * 32, tn = get_group_id(0) * 32;
  int r = lane & 31, kk = lane >> 5;
  v16f acc = (v16f)(0.0f);
  for (int k = 0; k < K; k += 2) {
    float a = A[(tm + r) * K + k + kk];
    float b = B[(k + kk) * N + tn + r];
    acc = __builtin_amdgcn_mfma_f32_32x32x2f32(a, b, acc, 0, 0, 0);
  }
  for (int i = 0; i < 16; ++i) {
    int row = (i / 4) * 8 + (lane / 32) * 4 + (i & 3);
    C[(tm + row) * N + tn + (lane & 31)] = acc[i];
  }
}

/* 16x16 tiles, fp16 inputs, fp32 accumulation, LDS-staged B: v_mfma_f32_16x16x16f16 */
kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void hgemm_mfma_16x16x16(int M, int N, int K, global const half *A, global const half *B, global float *C, float alpha) {
  local half Bs[16][16 + 4];
  int lane = get_local_id(0);
  int tm = get_group_id(1) * 16, tn = get_group_id(0) * 16;
  int r = lane & 15, kq = (lane >> 4) * 4;
  v4f acc = (v4f)(0.0f);
  for (int k = 0; k < K; k += 16) {
    for (int e = lane; e < 256; e += 64)
      Bs[e / 16][e % 16] = B[(k + e / 16) * N + tn + e % 16];
    barrier(CLK_LOCAL_MEM_FENCE);
    v4h a, b;
    for (int j = 0; j < 4; ++j) {
      a[j] = A[(tm + r) * K + k + kq + j];
      b[j] = Bs[kq + j][r];
    }
    acc = __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, acc, 0, 0, 0);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int i = 0; i < 4; ++i)
    C[(tm + (lane >> 4) * 4 + i) * N + tn + r] = alpha * acc[i];
}

/* two 32x32 outer-product blocks per instruction (v_mfma_f32_32x32x1f32), accumulated over K:
 * block 0 and block 1 are independent batches */
kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void batched_outer_32x32x1(int K, global const float *A, global const float *B, global float *C) {
  int lane = get_local_id(0), batch = get_group_id(0) * 2 + (lane >> 5), r = lane & 31;
  v32f acc = (v32f)(0.0f);
  for (int k = 0; k < K; ++k)
    acc = __builtin_amdgcn_mfma_f32_32x32x1f32(A[(batch * K + k) * 32 + r], B[(batch * K + k) * 32 + r], acc, 0, 0, 0);
  global float *Cb = C + (long)get_group_id(0) * 2 * 1024;
  for (int i = 0; i < 32; ++i)
    Cb[i * 64 + lane] = acc[i];
}

/* 16 independent 4x4 products per wave (v_mfma_f32_4x4x1f32), e.g. batched 4x4 transforms */
kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void batched_4x4x1(global const float *a, global const float *b, global float4 *c, int K) {
  int lane = get_local_id(0);
  v4f acc = (v4f)(0.0f);
  for (int k = 0; k < K; ++k)
    acc = __builtin_amdgcn_mfma_f32_4x4x1f32(a[k * 64 + lane], b[k * 64 + lane], acc, 0, 0, 0);
  c[get_global_id(0)] = (float4)(acc[0], acc[1], acc[2], acc[3]);
}

/* 4 blocks of 16x16 (v_mfma_f32_16x16x1f32) with broadcast control bits (cbsz/abid) */
kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void mfma_16x16x1_bcast(global const float *a, global const float *b, global float *c) {
  int lane = get_local_id(0);
  v16f acc = (v16f)(0.0f);
  acc = __builtin_amdgcn_mfma_f32_16x16x1f32(a[lane], b[lane], acc, 0, 0, 0);
  acc = __builtin_amdgcn_mfma_f32_16x16x1f32(a[64 + lane], b[64 + lane], acc, 2, 1, 0);
  for (int i = 0; i < 16; ++i)
    c[i * 64 + lane] = acc[i];
}

#if defined(__gfx908__) || defined(__gfx90a__)
/* int8 GEMM tile: v_mfma_i32_16x16x16i8 (replaced by 16x16x32_i8 on gfx940+) */
kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void igemm_mfma_16x16x16i8(int K, global const int *A4, global const int *B4, global int *C) {
  int lane = get_local_id(0);
  v4i acc = (v4i)(0);
  for (int k = 0; k < K / 16; ++k)
    acc = __builtin_amdgcn_mfma_i32_16x16x16i8(A4[k * 64 + lane], B4[k * 64 + lane], acc, 0, 0, 0);
  for (int i = 0; i < 4; ++i)
    C[((lane >> 4) * 4 + i) * 16 + (lane & 15)] = acc[i];
}
#endif

#if defined(__gfx90a__) || defined(__gfx940__) || defined(__gfx941__) || defined(__gfx942__)
/* double-precision matrix cores: v_mfma_f64_16x16x4f64 */
kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void dgemm_mfma_16x16x4(int M, int N, int K, global const double *A, global const double *B, global double *C) {
  int lane = get_local_id(0);
  int tm = get_group_id(1) * 16, tn = get_group_id(0) * 16;
  int r = lane & 15, kk = lane >> 4;
  v4d acc = (v4d)(0.0);
  for (int k = 0; k < K; k += 4)
    acc = __builtin_amdgcn_mfma_f64_16x16x4f64(A[(tm + r) * K + k + kk], B[(k + kk) * N + tn + r], acc, 0, 0, 0);
  for (int i = 0; i < 4; ++i)
    C[(tm + kk * 4 + i) * N + tn + r] = acc[i];
}
#endif

#if defined(__gfx940__) || defined(__gfx941__) || defined(__gfx942__)
typedef float v2f __attribute__((ext_vector_type(2)));
/* gfx94x additions: xf32, int8 with K=32, fp8 */
kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void cdna3_mfma(global const float2 *xa, global const float2 *xb, global const long *ia, global const long *ib,
                global float4 *out_f, global int4 *out_i, global float4 *out_f8) {
  int lane = get_local_id(0);
  float2 pa = xa[lane], pb = xb[lane];
  v4f f = __builtin_amdgcn_mfma_f32_16x16x8_xf32((v2f)(pa.x, pa.y), (v2f)(pb.x, pb.y), (v4f)(0.0f), 0, 0, 0);
  v4i i = __builtin_amdgcn_mfma_i32_16x16x32_i8(ia[lane], ib[lane], (v4i)(0), 0, 0, 0);
  v4f q = __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(ia[lane], ib[lane], (v4f)(0.0f), 0, 0, 0);
  out_f[lane] = (float4)(f[0], f[1], f[2], f[3]);
  out_i[lane] = (int4)(i[0], i[1], i[2], i[3]);
  out_f8[lane] = (float4)(q[0], q[1], q[2], q[3]);
}
#endif

/* single-block 16x16x4 fp32 (v_mfma_f32_16x16x4f32) over a K loop, with blgp lane swizzle */
kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void sgemm_mfma_16x16x4(int K, global const float *A, global const float *B, global float *C) {
  int lane = get_local_id(0);
  v4f acc = (v4f)(0.0f);
  for (int k = 0; k < K; k += 8) {
    acc = __builtin_amdgcn_mfma_f32_16x16x4f32(A[(lane & 15) * K + k + (lane >> 4)], B[(k + (lane >> 4)) * 16 + (lane & 15)],
                                               acc, 0, 0, 0);
    acc = __builtin_amdgcn_mfma_f32_16x16x4f32(A[(lane & 15) * K + k + 4 + (lane >> 4)],
                                               B[(k + 4 + (lane >> 4)) * 16 + (lane & 15)], acc, 0, 0, 1);
  }
  for (int i = 0; i < 4; ++i)
    C[((lane >> 4) * 4 + i) * 16 + (lane & 15)] = acc[i];
}
