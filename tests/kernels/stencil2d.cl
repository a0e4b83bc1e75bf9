#include "gcn.h"
/* Jacobi 5-point stencil with an LDS halo, plus a 7-point 3-D stencil marching in z. */
#define BX 16
#define BY 16

kernel __attribute__((reqd_work_group_size(BX, BY, 1)))
void jacobi5(global const float *u, global float *unew, global const float *f, int nx, int ny, float h2,
             global float *residual) {
  local float s[BY + 2][BX + 2];
  int lx = get_local_id(0), ly = get_local_id(1);
  int gx = get_global_id(0), gy = get_global_id(1);
  int cx = min(gx, nx - 1), cy = min(gy, ny - 1);
  s[ly + 1][lx + 1] = u[cy * nx + cx];
  if (lx == 0) s[ly + 1][0] = u[cy * nx + max(cx - 1, 0)];
  if (lx == BX - 1) s[ly + 1][BX + 1] = u[cy * nx + min(cx + 1, nx - 1)];
  if (ly == 0) s[0][lx + 1] = u[max(cy - 1, 0) * nx + cx];
  if (ly == BY - 1) s[BY + 1][lx + 1] = u[min(cy + 1, ny - 1) * nx + cx];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (gx > 0 && gy > 0 && gx < nx - 1 && gy < ny - 1) {
    float v = 0.25f * (s[ly][lx + 1] + s[ly + 2][lx + 1] + s[ly + 1][lx] + s[ly + 1][lx + 2] - h2 * f[gy * nx + gx]);
    unew[gy * nx + gx] = v;
    float r = fabs(v - s[ly + 1][lx + 1]);
    atomic_max(residual, r);
  }
}

kernel void stencil7_3d(global const double *in, global double *out, int nx, int ny, int nz, double c0, double c1) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1)
    return;
  long plane = (long)nx * ny;
  long idx = plane + (long)y * nx + x;
  double below = in[idx - plane], cur = in[idx];
  for (int z = 1; z < nz - 1; ++z) {
    double above = in[idx + plane];
    out[idx] = c0 * cur + c1 * (below + above + in[idx - 1] + in[idx + 1] + in[idx - nx] + in[idx + nx]);
    below = cur;
    cur = above;
    idx += plane;
  }
}
