#include "gcn.h"
/* Escape-time fractals: divergent loop exits, smooth colouring, double precision zoom. */

kernel void mandelbrot_f32(global uchar4 *img, int w, int h, float x0, float y0, float dx, float dy, int maxit) {
  int px = get_global_id(0), py = get_global_id(1);
  if (px >= w || py >= h)
    return;
  float cr = x0 + px * dx, ci = y0 + py * dy;
  float zr = 0.0f, zi = 0.0f;
  int it = 0;
  while (it < maxit && zr * zr + zi * zi < 256.0f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    ++it;
  }
  uchar4 c = (uchar4)(0, 0, 0, 255);
  if (it < maxit) {
    float nu = it + 1.0f - native_log2(native_log2(zr * zr + zi * zi) * 0.5f);
    float t = nu / maxit;
    c.x = (uchar)(255.0f * clamp(9.0f * (1 - t) * t * t * t, 0.0f, 1.0f));
    c.y = (uchar)(255.0f * clamp(15.0f * (1 - t) * (1 - t) * t * t, 0.0f, 1.0f));
    c.z = (uchar)(255.0f * clamp(8.5f * (1 - t) * (1 - t) * (1 - t) * t, 0.0f, 1.0f));
  }
  img[py * w + px] = c;
}

kernel void mandelbrot_f64(global ushort *iters, int w, int h, double x0, double y0, double step, int maxit) {
  int px = get_global_id(0), py = get_global_id(1);
  if (px >= w || py >= h)
    return;
  double cr = x0 + px * step, ci = y0 + py * step;
  /* skip main cardioid and period-2 bulb */
  double q = (cr - 0.25) * (cr - 0.25) + ci * ci;
  if (q * (q + (cr - 0.25)) <= 0.25 * ci * ci || (cr + 1) * (cr + 1) + ci * ci <= 0.0625) {
    iters[py * w + px] = maxit;
    return;
  }
  double zr = 0, zi = 0;
  int it;
  for (it = 0; it < maxit; ++it) {
    double zr2 = zr * zr, zi2 = zi * zi;
    if (zr2 + zi2 > 4.0)
      break;
    zi = fma(2.0 * zr, zi, ci);
    zr = zr2 - zi2 + cr;
  }
  iters[py * w + px] = it;
}

kernel void julia_count(global uint *escaped, int w, int h, float cr, float ci) {
  int px = get_global_id(0), py = get_global_id(1);
  float zr = -1.5f + 3.0f * px / w, zi = -1.5f + 3.0f * py / h;
  for (int it = 0; it < 200; ++it) {
    float t = zr * zr - zi * zi + cr;
    zi = 2 * zr * zi + ci;
    zr = t;
    if (zr * zr + zi * zi > 4.0f) {
      atomic_inc(&escaped[min(it / 10, 19)]);
      return;
    }
  }
}
