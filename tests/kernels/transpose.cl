#include "gcn.h"
/* Matrix transpose: naive, LDS tiled with padding against bank conflicts, and in-place square. */
#define TILE 32
#define ROWS 8

kernel void transpose_naive(global const float *in, global float *out, int w, int h) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x < w && y < h)
    out[x * h + y] = in[y * w + x];
}

kernel __attribute__((reqd_work_group_size(TILE, ROWS, 1)))
void transpose_tiled(global const float *in, global float *out, int w, int h) {
  local float tile[TILE][TILE + 1];
  int bx = get_group_id(0) * TILE, by = get_group_id(1) * TILE;
  int tx = get_local_id(0), ty = get_local_id(1);
  for (int j = 0; j < TILE; j += ROWS) {
    int x = bx + tx, y = by + ty + j;
    if (x < w && y < h)
      tile[ty + j][tx] = in[y * w + x];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int j = 0; j < TILE; j += ROWS) {
    int x = by + tx, y = bx + ty + j;
    if (x < h && y < w)
      out[y * h + x] = tile[tx][ty + j];
  }
}

kernel void transpose_inplace_square(global double *a, int n) {
  int i = get_global_id(1), j = get_global_id(0);
  if (i < n && j < i) {
    double t = a[i * n + j];
    a[i * n + j] = a[j * n + i];
    a[j * n + i] = t;
  }
}

/* complex (float2) conjugate transpose with 64-bit indexing */
kernel void conj_transpose_c64(global const float2 *in, global float2 *out, long rows, long cols) {
  long c = get_global_id(0), r = get_global_id(1);
  if (r < rows && c < cols) {
    float2 v = in[r * cols + c];
    out[c * rows + r] = (float2)(v.x, -v.y);
  }
}
