#include "gcn.h"
/* Floating-point atomics: scatter-add (SpMV transpose, particle-to-grid deposition). */

kernel void scatter_add_f32(global const int *idx, global const float *val, uint n, global float *out) {
  uint i = get_global_id(0);
  if (i < n)
    atomic_add(&out[idx[i]], val[i]);
}

kernel void scatter_add_f64(global const int *idx, global const double *val, uint n, global double *out) {
  uint i = get_global_id(0);
  if (i < n)
    atomic_add(&out[idx[i]], val[i]);
}

/* cloud-in-cell deposit of particle mass onto a 2-D grid */
kernel void cic_deposit(global const float2 *pos, global const float *mass, uint np, int nx, int ny,
                        global float *grid) {
  uint p = get_global_id(0);
  if (p >= np)
    return;
  float2 x = pos[p];
  float fx = floor(x.x), fy = floor(x.y);
  float dx = x.x - fx, dy = x.y - fy;
  int ix = (int)fx, iy = (int)fy;
  int ix1 = (ix + 1) % nx, iy1 = (iy + 1) % ny;
  float m = mass[p];
  atomic_add(&grid[iy * nx + ix], m * (1 - dx) * (1 - dy));
  atomic_add(&grid[iy * nx + ix1], m * dx * (1 - dy));
  atomic_add(&grid[iy1 * nx + ix], m * (1 - dx) * dy);
  atomic_add(&grid[iy1 * nx + ix1], m * dx * dy);
}

kernel void float_extrema(global const float *x, uint n, global float *mx, global float *mn) {
  uint i = get_global_id(0);
  if (i < n) {
    atomic_max(mx, x[i]);
    atomic_min(mn, x[i]);
  }
}

/* a CAS-loop float multiply (no hardware instruction anywhere) */
kernel void atomic_mul_f32(global float *p, global const float *f) {
  volatile global uint *u = (volatile global uint *)p;
  float m = f[get_global_id(0)];
  uint old = *u, assumed;
  do {
    assumed = old;
    old = atomic_cmpxchg(u, assumed, as_uint(as_float(assumed) * m));
  } while (old != assumed);
}

kernel void native_fadd(global float *acc, global double *dacc, global const float *v, global float *ret) {
  uint i = get_global_id(0);
#if GCN_HAS_NATIVE_FADD
  ret[i] = gcn_atomic_fadd_native(acc + (i & 7), v[i]);
  gcn_atomic_fadd_native_f64(dacc + (i & 3), (double)v[i]);
#else
  ret[i] = atomic_add(acc + (i & 7), v[i]);
  atomic_add(dacc + (i & 3), (double)v[i]);
#endif
}
