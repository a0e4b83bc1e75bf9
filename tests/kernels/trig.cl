#include "gcn.h"
/* Trigonometry without libm: our polynomial sin/cos (gcn.h), hardware v_sin/v_cos,
 * an atan2 approximation, and rotation of point clouds. */

kernel void sincos_table(global float2 *out, int n, float scale) {
  int i = get_global_id(0);
  if (i < n) {
    float c, s = gcn_sincos(i * scale, &c);
    out[i] = (float2)(c, s);
  }
}

kernel void sin_error(global const float *x, global float *err, int n) {
  int i = get_global_id(0);
  if (i < n)
    err[i] = fabs(sin(x[i]) - native_sin(x[i])) + fabs(cos(x[i]) - native_cos(x[i]));
}

inline float atan_approx(float z) { /* |z| <= 1 */
  float z2 = z * z;
  return z * (0.99997726f + z2 * (-0.33262347f + z2 * (0.19354346f + z2 * (-0.11643287f + z2 * (0.05265332f + z2 * -0.01172120f)))));
}
inline float atan2_approx(float y, float x) {
  float ax = fabs(x), ay = fabs(y);
  float a = atan_approx(fmin(ax, ay) / fmax(fmax(ax, ay), 1e-30f));
  if (ay > ax) a = 1.57079637f - a;
  if (x < 0) a = 3.14159274f - a;
  return copysign(a, y);
}

kernel void cart_to_polar(global const float2 *p, global float2 *polar, int n) {
  int i = get_global_id(0);
  if (i < n) {
    float2 v = p[i];
    polar[i] = (float2)(sqrt(v.x * v.x + v.y * v.y), atan2_approx(v.y, v.x));
  }
}

kernel void rotate_points(global float4 *pts, int n, float yaw, float pitch, float roll) {
  int i = get_global_id(0);
  if (i >= n) return;
  float cy, sy = gcn_sincos(yaw, &cy);
  float cp, sp = gcn_sincos(pitch, &cp);
  float cr, sr = gcn_sincos(roll, &cr);
  float4 v = pts[i];
  float x = v.x, y = v.y, z = v.z;
  float x1 = cy * x - sy * y, y1 = sy * x + cy * y;
  float x2 = cp * x1 + sp * z, z2 = -sp * x1 + cp * z;
  float y3 = cr * y1 - sr * z2, z3 = sr * y1 + cr * z2;
  pts[i] = (float4)(x2, y3, z3, v.w);
}

/* naive DFT of a 256-point signal per work-group */
kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void dft256(global const float2 *x, global float2 *X) {
  local float2 s[256];
  int k = get_local_id(0), base = get_group_id(0) * 256;
  s[k] = x[base + k];
  barrier(CLK_LOCAL_MEM_FENCE);
  float2 acc = (float2)(0.0f);
  for (int j = 0; j < 256; ++j) {
    float c, sn = gcn_sincos(-6.2831853f * (float)((k * j) & 255) / 256.0f, &c);
    float2 v = s[j];
    acc += (float2)(v.x * c - v.y * sn, v.x * sn + v.y * c);
  }
  X[base + k] = acc;
}
