#include "gcn.h"
/* k-means clustering: assignment with centroids cached in LDS, accumulation with global float
 * atomics, and the centroid update with a convergence flag. */
#define MAXK 32
#define DIM 8

kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void kmeans_assign(global const float *pts, int n, global const float *cent, int k, global int *label,
                   global float *sums, global uint *counts, global int *changed) {
  local float c[MAXK * DIM];
  for (int e = get_local_id(0); e < k * DIM; e += 256)
    c[e] = cent[e];
  barrier(CLK_LOCAL_MEM_FENCE);
  int i = get_global_id(0);
  if (i >= n) return;
  float p[DIM];
  for (int d = 0; d < DIM; ++d)
    p[d] = pts[i * DIM + d];
  int best = 0;
  float bestd = INFINITY;
  for (int j = 0; j < k; ++j) {
    float dist = 0;
#pragma unroll
    for (int d = 0; d < DIM; ++d) {
      float t = p[d] - c[j * DIM + d];
      dist = fma(t, t, dist);
    }
    if (dist < bestd) { bestd = dist; best = j; }
  }
  if (label[i] != best) {
    label[i] = best;
    atomic_xchg(changed, 1);
  }
  for (int d = 0; d < DIM; ++d)
    atomic_add(&sums[best * DIM + d], p[d]);
  atomic_inc(&counts[best]);
}

kernel void kmeans_update(global float *cent, global float *sums, global uint *counts, int k) {
  int j = get_global_id(0), d = get_global_id(1);
  if (j >= k || d >= DIM) return;
  uint c = counts[j];
  if (c)
    cent[j * DIM + d] = sums[j * DIM + d] / (float)c;
  sums[j * DIM + d] = 0.0f;
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (d == 0)
    counts[j] = 0;
}
