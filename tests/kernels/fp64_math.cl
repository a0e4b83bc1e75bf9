#include "gcn.h"
/* Double precision: division, sqrt, fma, Newton iterations, polynomial evaluation,
 * compensated sums, and conversions between double, float, and 64-bit integers. */

kernel void ddiv_sqrt(global const double *a, global const double *b, global double *q, global double *s, uint n) {
  uint i = get_global_id(0);
  if (i < n) {
    q[i] = a[i] / b[i];
    s[i] = sqrt(fabs(a[i])) + 1.0 / sqrt(b[i] * b[i] + 1.0);
  }
}

/* complex division and magnitude, (a+bi)/(c+di), Smith's algorithm */
kernel void zdiv(global const double2 *x, global const double2 *y, global double2 *z, global double *mag) {
  uint i = get_global_id(0);
  double a = x[i].x, b = x[i].y, c = y[i].x, d = y[i].y;
  double2 r;
  if (fabs(c) >= fabs(d)) {
    double t = d / c, den = c + d * t;
    r = (double2)((a + b * t) / den, (b - a * t) / den);
  } else {
    double t = c / d, den = c * t + d;
    r = (double2)((a * t + b) / den, (b * t - a) / den);
  }
  z[i] = r;
  mag[i] = sqrt(fma(r.x, r.x, r.y * r.y));
}

/* Newton-Raphson cube root with a bit-hack initial guess */
kernel void cbrt_newton(global const double *x, global double *y, uint n) {
  uint i = get_global_id(0);
  if (i >= n) return;
  double v = x[i];
  if (v == 0.0) { y[i] = 0.0; return; }
  double a = fabs(v);
  ulong bits = as_ulong(a);
  double r = as_double(bits / 3 + 0x2A9F7893782DA1CEul);
  for (int k = 0; k < 5; ++k)
    r = r - (r * r * r - a) / (3.0 * r * r);
  y[i] = v < 0 ? -r : r;
}

/* exp(x) via range reduction and degree-11 Taylor/Horner in double */
kernel void dexp(global const double *x, global double *y, uint n) {
  uint i = get_global_id(0);
  if (i >= n) return;
  double v = x[i];
  double k = floor(v * 1.4426950408889634 + 0.5);
  double r = fma(k, -6.93147180369123816490e-01, v);
  r = fma(k, -1.90821492927058770002e-10, r);
  double p = 1.0 / 39916800.0;
  p = fma(p, r, 1.0 / 3628800.0);
  p = fma(p, r, 1.0 / 362880.0);
  p = fma(p, r, 1.0 / 40320.0);
  p = fma(p, r, 1.0 / 5040.0);
  p = fma(p, r, 1.0 / 720.0);
  p = fma(p, r, 1.0 / 120.0);
  p = fma(p, r, 1.0 / 24.0);
  p = fma(p, r, 1.0 / 6.0);
  p = fma(p, r, 0.5);
  p = fma(p, r, 1.0);
  p = fma(p, r, 1.0);
  long e = (long)k;
  y[i] = (e > 1023) ? INFINITY : (e < -1022) ? 0.0 : p * as_double((ulong)(e + 1023) << 52);
}

kernel void conversions_f64(global const double *d, global float *f, global long *l, global ulong *u,
                            global double *back, global int *ii) {
  uint i = get_global_id(0);
  double v = d[i];
  f[i] = (float)v;
  l[i] = (long)v;
  u[i] = (ulong)fabs(v);
  ii[i] = (int)trunc(v);
  back[i] = (double)l[i] + (double)(uint)ii[i] + (double)f[i] + (double)u[i];
}

/* dot product with double-double (TwoSum/TwoProd) accumulation */
kernel void dot_dd(global const double *x, global const double *y, uint n, global double2 *partial) {
  double hi = 0.0, lo = 0.0;
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
    double p = x[i] * y[i];
    double pe = fma(x[i], y[i], -p);
    double s = hi + p;
    double bb = s - hi;
    double se = (hi - (s - bb)) + (p - bb);
    hi = s;
    lo += se + pe;
  }
  partial[get_global_id(0)] = (double2)(hi, lo);
}

kernel void dminmax_clamp(global double *x, double lo, double hi, uint n) {
  uint i = get_global_id(0);
  if (i < n) x[i] = fmin(fmax(x[i], lo), hi) + floor(x[i] * 0.5) - trunc(x[i] * 0.25);
}
