#include "gcn.h"
/* Molecular dynamics: Lennard-Jones forces over a neighbour list with periodic boundaries,
 * a cell-list build with atomics, and velocity-Verlet integration in double. */

kernel void lj_forces(global const float4 *pos, global const int *nbr, global const int *nnbr, int maxn,
                      float4 box, float rc2, float eps, float sigma2, global float4 *force, global float *epot) {
  int i = get_global_id(0);
  float4 pi = pos[i];
  float3 f = (float3)(0.0f);
  float e = 0.0f;
  int cnt = nnbr[i];
  for (int k = 0; k < cnt; ++k) {
    int j = nbr[k * get_global_size(0) + i];
    float3 d = pi.xyz - pos[j].xyz;
    d -= box.xyz * rint(d / box.xyz); /* minimum image */
    float r2 = dot(d, d);
    if (r2 < rc2 && r2 > 0.0f) {
      float sr2 = sigma2 / r2, sr6 = sr2 * sr2 * sr2;
      float fr = 24.0f * eps * sr6 * (2.0f * sr6 - 1.0f) / r2;
      f += d * fr;
      e += 4.0f * eps * sr6 * (sr6 - 1.0f);
    }
  }
  force[i] = (float4)(f, 0.0f);
  atomic_add(epot, 0.5f * e);
}

kernel void build_cells(global const float4 *pos, int n, float cell, int ncx, int ncy, int ncz,
                        global uint *cell_count, global int *cell_atoms, int max_per_cell, global uint *overflow) {
  int i = get_global_id(0);
  if (i >= n) return;
  float4 p = pos[i];
  int cx = clamp((int)(p.x / cell), 0, ncx - 1);
  int cy = clamp((int)(p.y / cell), 0, ncy - 1);
  int cz = clamp((int)(p.z / cell), 0, ncz - 1);
  int c = (cz * ncy + cy) * ncx + cx;
  uint slot = atomic_inc(&cell_count[c]);
  if (slot < (uint)max_per_cell)
    cell_atoms[c * max_per_cell + slot] = i;
  else
    atomic_inc(overflow);
}

kernel void verlet_f64(global double4 *x, global double4 *v, global const float4 *f, global const double *inv_mass,
                       double dt, int half_step) {
  int i = get_global_id(0);
  double4 a = (double4)((double)f[i].x, (double)f[i].y, (double)f[i].z, 0.0) * inv_mass[i];
  double4 vv = v[i] + 0.5 * dt * a;
  v[i] = vv;
  if (!half_step)
    x[i] += dt * vv;
}
