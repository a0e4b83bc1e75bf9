#include "gcn.h"
/* Less common but real hardware instructions reached through builtins: med3, fract, class,
 * frexp, ldexp, alignbit, bfe, lerp, msad, cube map coordinates, dot products (gfx906+),
 * s_memtime/s_memrealtime, s_sleep, s_sethalt-free wave control, and packed math on gfx9. */

kernel void med3_fract_class(global const float *x, global float *y, global int *cls) {
  int i = get_global_id(0);
  float v = x[i];
  float m = __builtin_amdgcn_fmed3f(v, -1.0f, 1.0f);
  float fr = __builtin_amdgcn_fractf(v);
  int e = __builtin_amdgcn_frexp_expf(v);
  float mant = __builtin_amdgcn_frexp_mantf(v);
  y[i] = m + fr + __builtin_amdgcn_ldexpf(mant, e - 1);
  cls[i] = __builtin_amdgcn_classf(v, 0x3 /* nan */) ? -1 : (__builtin_amdgcn_classf(v, 0x204 /* inf */) ? 1 : 0);
}

kernel void int_intrinsics(global const uint *a, global const uint *b, global uint *out) {
  int i = get_global_id(0);
  uint x = a[i], y = b[i];
  out[4 * i + 0] = __builtin_amdgcn_alignbit(x, y, y & 31);
  out[4 * i + 1] = __builtin_amdgcn_ubfe(x, 8, 12);
  out[4 * i + 2] = (uint)__builtin_amdgcn_sbfe((int)x, y & 15, 9);
  out[4 * i + 3] = __builtin_amdgcn_lerp(x, y, 0x01010101u) + __builtin_amdgcn_msad_u8(x, y, 7u) + __builtin_amdgcn_alignbyte(x, y, 2);
}

/* direction to cube-map face and face coordinates */
kernel void cube_coords(global const float4 *dirs, global float4 *tc) {
  int i = get_global_id(0);
  float3 d = dirs[i].xyz;
  float face = __builtin_amdgcn_cubeid(d.x, d.y, d.z);
  float ma = __builtin_amdgcn_cubema(d.x, d.y, d.z);
  float sc = __builtin_amdgcn_cubesc(d.x, d.y, d.z);
  float tcc = __builtin_amdgcn_cubetc(d.x, d.y, d.z);
  float inv = 1.0f / fabs(ma);
  tc[i] = (float4)(sc * inv * 0.5f + 0.5f, tcc * inv * 0.5f + 0.5f, face, ma);
}

kernel void timed_work(global const float *x, global float *y, global ulong *cycles) {
  int i = get_global_id(0);
  ulong t0 = __builtin_readcyclecounter();
  float v = x[i];
  for (int k = 0; k < 16; ++k)
    v = fma(v, 1.0001f, 0.5f);
  y[i] = v;
  __builtin_amdgcn_s_sleep(1);
  ulong t1 = __builtin_readcyclecounter();
#if GCN_GEN >= 8
  ulong rt = __builtin_amdgcn_s_memrealtime();
#else
  ulong rt = 0;
#endif
  if (gcn_lane_id() == 0)
    cycles[get_global_id(0) / 64] = (t1 - t0) ^ (rt << 1);
}

kernel void div_building_blocks(global const float *a, global const float *b, global float *q, global double *dq) {
  int i = get_global_id(0);
  float x = a[i], y = b[i];
  float r = native_recip(y);
  float t = fma(-y, r, 1.0f);
  r = fma(t, r, r);
  q[i] = x * r + __builtin_amdgcn_rsqf(fabs(x) + 1.0f) + __builtin_amdgcn_sqrtf(fabs(y));
  dq[i] = __builtin_amdgcn_rcp((double)y) * __builtin_amdgcn_rsq((double)fabs(x) + 1.0);
}

/* dot-product instructions on gfx906/gfx908/gfx90a/gfx942 (v_dot2_f32_f16, v_dot4_i32_i8, ...) */
typedef half h2 __attribute__((ext_vector_type(2)));
typedef short s2 __attribute__((ext_vector_type(2)));
kernel void dot_products(global const uint *a, global const uint *b, global int *idot, global float *fdot) {
  int i = get_global_id(0);
  uint x = a[i], y = b[i];
#if defined(__gfx906__) || defined(__gfx908__) || defined(__gfx90a__) || defined(__gfx942__)
  idot[i] = __builtin_amdgcn_sdot4((int)x, (int)y, 0, false) + (int)__builtin_amdgcn_udot4(x, y, 0u, false) +
            __builtin_amdgcn_sdot2(as_short2(x), as_short2(y), 0, false) + __builtin_amdgcn_sdot8((int)x, (int)y, 1, true);
  fdot[i] = __builtin_amdgcn_fdot2(as_half2(x), as_half2(y), 1.0f, false);
#else
  int s = 0;
  for (int k = 0; k < 4; ++k)
    s += (int)(char)(x >> (8 * k)) * (int)(char)(y >> (8 * k));
  idot[i] = s;
  half2 hx = as_half2(x), hy = as_half2(y);
  fdot[i] = (float)hx.x * (float)hy.x + (float)hx.y * (float)hy.y + 1.0f;
#endif
}
