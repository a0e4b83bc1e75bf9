#include "gcn.h"
/* Real function calls (noinline): the AMDGPU calling convention, s_swappc/s_setpc, stack
 * frames in scratch, callee-saved registers, and recursion turned into an explicit stack. */

__attribute__((noinline)) float poly_eval(global const float *c, int deg, float x) {
  float r = c[deg];
  for (int k = deg - 1; k >= 0; --k)
    r = fma(r, x, c[k]);
  return r;
}

__attribute__((noinline)) float4 quat_mul(float4 a, float4 b) {
  return (float4)(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                  a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                  a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
                  a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
}

__attribute__((noinline)) void sort3(private float *v) {
  float a = v[0], b = v[1], c = v[2];
  if (a > b) { float t = a; a = b; b = t; }
  if (b > c) { float t = b; b = c; c = t; }
  if (a > b) { float t = a; a = b; b = t; }
  v[0] = a; v[1] = b; v[2] = c;
}

__attribute__((noinline)) double accumulate(double acc, double x, int mode) {
  switch (mode) {
  case 0: return acc + x;
  case 1: return acc * x;
  case 2: return fmax(acc, x);
  default: return fma(acc, 0.5, x);
  }
}

kernel void eval_polys(global const float *coef, int deg, global const float *x, global float *y) {
  int i = get_global_id(0);
  y[i] = poly_eval(coef, deg, x[i]) + poly_eval(coef + deg + 1, deg, -x[i]);
}

kernel void compose_rotations(global const float4 *q, global float4 *out, int chain) {
  int i = get_global_id(0);
  float4 r = (float4)(0, 0, 0, 1);
  for (int k = 0; k < chain; ++k)
    r = quat_mul(r, q[i * chain + k]);
  out[i] = r;
}

kernel void median3_filter(global const float *x, global float *y, int n) {
  int i = get_global_id(0);
  if (i > 0 && i < n - 1) {
    float v[3] = {x[i - 1], x[i], x[i + 1]};
    sort3(v);
    y[i] = v[1];
  }
}

kernel void fold(global const double *x, int n, int mode, global double *out) {
  int i = get_global_id(0);
  double acc = mode == 1 ? 1.0 : 0.0;
  for (int k = 0; k < n; ++k)
    acc = accumulate(acc, x[i * n + k], mode);
  out[i] = acc;
}

/* quicksort with an explicit private stack, calling a partition function */
__attribute__((noinline)) int partition(global int *a, int lo, int hi) {
  int p = a[(lo + hi) / 2], i = lo - 1, j = hi + 1;
  for (;;) {
    do ++i; while (a[i] < p);
    do --j; while (a[j] > p);
    if (i >= j) return j;
    int t = a[i]; a[i] = a[j]; a[j] = t;
  }
}
kernel void quicksort_segments(global int *data, int seg) {
  global int *a = data + get_global_id(0) * seg;
  int stack[64], sp = 0;
  stack[sp++] = 0;
  stack[sp++] = seg - 1;
  while (sp > 0) {
    int hi = stack[--sp], lo = stack[--sp];
    if (lo >= hi) continue;
    int p = partition(a, lo, hi);
    if (sp < 60) {
      stack[sp++] = lo; stack[sp++] = p;
      stack[sp++] = p + 1; stack[sp++] = hi;
    }
  }
}
