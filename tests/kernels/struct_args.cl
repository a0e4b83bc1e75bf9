#include "gcn.h"
/* Structs: passed by value as kernel arguments, arrays of structs in global memory, AoS <-> SoA
 * conversion, and nested structs with padding. */

typedef struct {
  float x0, y0, dx, dy;
  int nx, ny;
} grid_t;

typedef struct {
  float3 pos;
  float mass;
  int id;
  short flags;
  char type;
} particle_t;

typedef struct {
  grid_t grid;
  double t;
  uint step;
  float2 wind;
} sim_params_t;

kernel void grid_eval(grid_t g, global float *out) {
  int i = get_global_id(0), j = get_global_id(1);
  if (i < g.nx && j < g.ny) {
    float x = g.x0 + i * g.dx, y = g.y0 + j * g.dy;
    out[j * g.nx + i] = x * x - y * y;
  }
}

kernel void advect_particles(sim_params_t p, global particle_t *parts, int n, global float *grid_mass) {
  int i = get_global_id(0);
  if (i >= n) return;
  particle_t q = parts[i];
  if (q.flags & 1) return; /* frozen */
  float dt = (float)(p.t * 1e-3);
  q.pos.xy += p.wind * dt / q.mass;
  q.pos.z -= 9.81f * dt * dt;
  int cx = (int)((q.pos.x - p.grid.x0) / p.grid.dx), cy = (int)((q.pos.y - p.grid.y0) / p.grid.dy);
  if (cx >= 0 && cy >= 0 && cx < p.grid.nx && cy < p.grid.ny)
    atomic_add(&grid_mass[cy * p.grid.nx + cx], q.mass);
  else
    q.flags |= 2;
  q.type = (char)(p.step & 7);
  parts[i] = q;
}

kernel void aos_to_soa(global const particle_t *in, global float *x, global float *y, global float *z,
                       global float *m, global int *id, int n) {
  int i = get_global_id(0);
  if (i < n) {
    particle_t q = in[i];
    x[i] = q.pos.x; y[i] = q.pos.y; z[i] = q.pos.z; m[i] = q.mass; id[i] = q.id;
  }
}

typedef struct { double re, im; } zcomplex;
typedef struct { zcomplex a, b, c, d; } mobius_t;

kernel void mobius_apply(mobius_t T, global zcomplex *zs, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  zcomplex z = zs[i];
  zcomplex num = {T.a.re * z.re - T.a.im * z.im + T.b.re, T.a.re * z.im + T.a.im * z.re + T.b.im};
  zcomplex den = {T.c.re * z.re - T.c.im * z.im + T.d.re, T.c.re * z.im + T.c.im * z.re + T.d.im};
  double dd = den.re * den.re + den.im * den.im;
  zcomplex r = {(num.re * den.re + num.im * den.im) / dd, (num.im * den.re - num.re * den.im) / dd};
  zs[i] = r;
}
