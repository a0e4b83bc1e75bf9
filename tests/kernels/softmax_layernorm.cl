#include "gcn.h"
/* Transformer building blocks: row softmax, LayerNorm (Welford), RMSNorm in half, and
 * scaled-dot-product attention scores for one query per work-group. */
#define WG 256

inline float block_reduce_max(local float *s, float v) {
  uint t = get_local_id(0);
  s[t] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint off = WG / 2; off > 0; off >>= 1) {
    if (t < off) s[t] = fmax(s[t], s[t + off]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  float r = s[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  return r;
}
inline float block_reduce_sum(local float *s, float v) {
  uint t = get_local_id(0);
  s[t] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint off = WG / 2; off > 0; off >>= 1) {
    if (t < off) s[t] += s[t + off];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  float r = s[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  return r;
}

kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void softmax_rows(global const float *x, global float *y, int cols) {
  local float red[WG];
  global const float *xr = x + (long)get_group_id(0) * cols;
  global float *yr = y + (long)get_group_id(0) * cols;
  float m = -INFINITY;
  for (int j = get_local_id(0); j < cols; j += WG) m = fmax(m, xr[j]);
  m = block_reduce_max(red, m);
  float s = 0.0f;
  for (int j = get_local_id(0); j < cols; j += WG) s += native_exp(xr[j] - m);
  s = block_reduce_sum(red, s);
  float inv = 1.0f / s;
  for (int j = get_local_id(0); j < cols; j += WG) yr[j] = native_exp(xr[j] - m) * inv;
}

kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void layernorm(global const float *x, global const float *gamma, global const float *beta, global float *y, int cols, float eps) {
  local float sm[WG], sM2[WG], sn[WG];
  int t = get_local_id(0);
  global const float *xr = x + (long)get_group_id(0) * cols;
  float mean = 0.0f, M2 = 0.0f, n = 0.0f;
  for (int j = t; j < cols; j += WG) {
    float v = xr[j];
    n += 1.0f;
    float d = v - mean;
    mean += d / n;
    M2 += d * (v - mean);
  }
  sm[t] = mean; sM2[t] = M2; sn[t] = n;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int off = WG / 2; off > 0; off >>= 1) {
    if (t < off && sn[t + off] > 0) {
      float na = sn[t], nb = sn[t + off], nab = na + nb;
      float d = sm[t + off] - sm[t];
      sm[t] += d * nb / nab;
      sM2[t] += sM2[t + off] + d * d * na * nb / nab;
      sn[t] = nab;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  float mu = sm[0], rstd = rsqrt(sM2[0] / cols + eps);
  for (int j = t; j < cols; j += WG)
    y[(long)get_group_id(0) * cols + j] = (xr[j] - mu) * rstd * gamma[j] + beta[j];
}

/* pocl has no cl_khr_fp16: this kernel exists only in the AMDGCN build. */
#ifdef __AMDGCN__
kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void rmsnorm_f16(global const half *x, global const half *w, global half *y, int cols) {
  local float red[WG];
  global const half *xr = x + (long)get_group_id(0) * cols;
  float ss = 0.0f;
  for (int j = get_local_id(0); j < cols; j += WG) { float v = xr[j]; ss = fma(v, v, ss); }
  ss = block_reduce_sum(red, ss);
  float r = rsqrt(ss / cols + 1e-6f);
  for (int j = get_local_id(0); j < cols; j += WG)
    y[(long)get_group_id(0) * cols + j] = (half)((float)xr[j] * r) * w[j];
}
#endif

kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void attention_scores(global const float *q, global const float *k, global float *p, int seq, int dim, float scale) {
  local float qs[128];
  local float red[WG];
  int t = get_local_id(0), qi = get_group_id(0);
  if (t < dim) qs[t] = q[qi * dim + t] * scale;
  barrier(CLK_LOCAL_MEM_FENCE);
  float m = -INFINITY;
  for (int j = t; j < seq; j += WG) {
    float s = 0;
    if (j <= qi) /* causal mask */
      for (int d = 0; d < dim; ++d) s = fma(qs[d], k[j * dim + d], s);
    else
      s = -INFINITY;
    p[(long)qi * seq + j] = s;
    m = fmax(m, s);
  }
  m = block_reduce_max(red, m);
  float sum = 0;
  for (int j = t; j < seq; j += WG) sum += native_exp(p[(long)qi * seq + j] - m);
  sum = block_reduce_sum(red, sum);
  for (int j = t; j < seq; j += WG) p[(long)qi * seq + j] = native_exp(p[(long)qi * seq + j] - m) / sum;
}
