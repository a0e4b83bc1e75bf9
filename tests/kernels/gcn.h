/* gcn.h - the little bit of OpenCL runtime our test kernels need, built directly on
 * __builtin_amdgcn_* intrinsics because the corpus is compiled with -nogpulib (no
 * ROCm device libraries, no libclc).  Everything here is static inline, so a kernel
 * never references an external symbol.
 *
 * Assumptions: code object v5 (LLVM 19 default) for the implicit kernel arguments,
 * uniform work-groups, wave64 (every GCN/CDNA target we build for).
 *
 * The same kernels also run on pocl (the OpenCL CPU implementation) as the reference for the
 * emulator (tools/pocl-ref).  There __AMDGCN__ is not defined and the second branch below
 * applies: pocl's standard built-ins, plus what standard OpenCL lacks, with the semantics of
 * the AMDGCN branch.
 */
#ifndef GCNKIT_GCN_H
#define GCNKIT_GCN_H

#ifdef __AMDGCN__

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define GCN_INLINE static inline __attribute__((always_inline))
#define GCN_OVL static inline __attribute__((overloadable, always_inline))

/* ---- target feature macros ------------------------------------------------ */
#if defined(__gfx600__) || defined(__gfx700__)
#define GCN_GEN 6
#elif defined(__gfx803__)
#define GCN_GEN 8
#else
#define GCN_GEN 9
#endif
/* DPP, ds_bpermute and 16-bit instructions arrived with GFX8. */
#define GCN_HAS_DPP (GCN_GEN >= 8)
#if defined(__gfx908__) || defined(__gfx90a__) || defined(__gfx940__) || \
    defined(__gfx941__) || defined(__gfx942__)
#define GCN_HAS_MFMA 1
#else
#define GCN_HAS_MFMA 0
#endif
#define GCN_WAVE 64

/* ---- work-item functions -------------------------------------------------- */
/* hsa_kernel_dispatch_packet_t: workgroup_size_{x,y,z} u16 at 4,6,8; grid_size_{x,y,z} u32 at 12,16,20 */
GCN_INLINE __constant unsigned short *gcn_dispatch16(void) {
  return (__constant unsigned short *)__builtin_amdgcn_dispatch_ptr();
}
GCN_INLINE __constant unsigned int *gcn_dispatch32(void) {
  return (__constant unsigned int *)__builtin_amdgcn_dispatch_ptr();
}
/* code object v5 implicit arguments: hidden_global_offset_{x,y,z} i64 at 40,48,56 */
GCN_INLINE __constant long *gcn_implicit64(void) {
  return (__constant long *)__builtin_amdgcn_implicitarg_ptr();
}

GCN_OVL size_t get_local_id(uint d) {
  switch (d) {
  case 0: return __builtin_amdgcn_workitem_id_x();
  case 1: return __builtin_amdgcn_workitem_id_y();
  case 2: return __builtin_amdgcn_workitem_id_z();
  default: return 0;
  }
}
GCN_OVL size_t get_group_id(uint d) {
  switch (d) {
  case 0: return __builtin_amdgcn_workgroup_id_x();
  case 1: return __builtin_amdgcn_workgroup_id_y();
  case 2: return __builtin_amdgcn_workgroup_id_z();
  default: return 0;
  }
}
GCN_OVL size_t get_local_size(uint d) {
  return d < 3 ? gcn_dispatch16()[2 + d] : 1;
}
GCN_OVL size_t get_global_size(uint d) {
  return d < 3 ? gcn_dispatch32()[3 + d] : 1;
}
GCN_OVL size_t get_num_groups(uint d) {
  size_t l = get_local_size(d);
  return (get_global_size(d) + l - 1) / l;
}
GCN_OVL size_t get_global_offset(uint d) {
  return d < 3 ? (size_t)gcn_implicit64()[5 + d] : 0;
}
GCN_OVL size_t get_global_id(uint d) {
  return get_group_id(d) * get_local_size(d) + get_local_id(d) + get_global_offset(d);
}
GCN_OVL uint get_work_dim(void) { return 1 + (get_global_size(1) > 1) + (get_global_size(2) > 1); }

/* ---- synchronisation ------------------------------------------------------ */
GCN_OVL void mem_fence(cl_mem_fence_flags f) {
  (void)f;
  __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "workgroup");
}
GCN_OVL void barrier(cl_mem_fence_flags f) {
  if (f)
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  if (f)
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
GCN_OVL void work_group_barrier(cl_mem_fence_flags f) { barrier(f); }

/* ---- atomics (OpenCL 1.x style, relaxed) ----------------------------------- */
/* Global atomics are agent ("device") scope, local atomics work-group scope, so the backend
 * emits the native instruction rather than a system-scope compare-and-swap loop. */
#define GCN_SCOPE___global __MEMORY_SCOPE_DEVICE
#define GCN_SCOPE___local __MEMORY_SCOPE_WRKGRP
#define GCN_SCOPE(AS) GCN_SCOPE_##AS
#define GCN_ATOMIC_RMW(NAME, BUILTIN, T, AS)                                   \
  GCN_OVL T NAME(volatile AS T *p, T v) {                                      \
    return BUILTIN((AS T *)p, v, __ATOMIC_RELAXED, GCN_SCOPE(AS));             \
  }
#define GCN_ATOMIC_FAMILY(NAME, BUILTIN)                                       \
  GCN_ATOMIC_RMW(NAME, BUILTIN, int, __global)                                 \
  GCN_ATOMIC_RMW(NAME, BUILTIN, uint, __global)                                \
  GCN_ATOMIC_RMW(NAME, BUILTIN, int, __local)                                  \
  GCN_ATOMIC_RMW(NAME, BUILTIN, uint, __local)                                 \
  GCN_ATOMIC_RMW(NAME, BUILTIN, long, __global)                                \
  GCN_ATOMIC_RMW(NAME, BUILTIN, ulong, __global)                               \
  GCN_ATOMIC_RMW(NAME, BUILTIN, long, __local)                                 \
  GCN_ATOMIC_RMW(NAME, BUILTIN, ulong, __local)
GCN_ATOMIC_FAMILY(atomic_add, __scoped_atomic_fetch_add)
GCN_ATOMIC_FAMILY(atomic_sub, __scoped_atomic_fetch_sub)
GCN_ATOMIC_FAMILY(atomic_and, __scoped_atomic_fetch_and)
GCN_ATOMIC_FAMILY(atomic_or, __scoped_atomic_fetch_or)
GCN_ATOMIC_FAMILY(atomic_xor, __scoped_atomic_fetch_xor)
GCN_ATOMIC_FAMILY(atomic_min, __scoped_atomic_fetch_min)
GCN_ATOMIC_FAMILY(atomic_max, __scoped_atomic_fetch_max)
GCN_ATOMIC_FAMILY(atomic_xchg, __scoped_atomic_exchange_n)

#define GCN_ATOMIC_CMPXCHG(T, AS)                                              \
  GCN_OVL T atomic_cmpxchg(volatile AS T *p, T cmp, T v) {                     \
    __scoped_atomic_compare_exchange_n((AS T *)p, &cmp, v, 0, __ATOMIC_RELAXED, \
                                       __ATOMIC_RELAXED, GCN_SCOPE(AS));       \
    return cmp;                                                                \
  }
GCN_ATOMIC_CMPXCHG(int, __global)
GCN_ATOMIC_CMPXCHG(uint, __global)
GCN_ATOMIC_CMPXCHG(int, __local)
GCN_ATOMIC_CMPXCHG(uint, __local)
GCN_ATOMIC_CMPXCHG(long, __global)
GCN_ATOMIC_CMPXCHG(ulong, __global)

/* Wrapping increment/decrement (buffer_atomic_inc/dec semantics):
 * inc: new = old >= lim ? 0 : old + 1;  dec: new = (old == 0 || old > lim) ? lim : old - 1. */
GCN_OVL uint atomic_inc_wrap(volatile __global uint *p, uint lim) {
  return __builtin_amdgcn_atomic_inc32((__global uint *)p, lim, __ATOMIC_RELAXED, "agent");
}
GCN_OVL uint atomic_dec_wrap(volatile __global uint *p, uint lim) {
  return __builtin_amdgcn_atomic_dec32((__global uint *)p, lim, __ATOMIC_RELAXED, "agent");
}
GCN_OVL uint atomic_inc_wrap(volatile __local uint *p, uint lim) {
  return __builtin_amdgcn_atomic_inc32((__local uint *)p, lim, __ATOMIC_RELAXED, "workgroup");
}
GCN_OVL uint atomic_dec_wrap(volatile __local uint *p, uint lim) {
  return __builtin_amdgcn_atomic_dec32((__local uint *)p, lim, __ATOMIC_RELAXED, "workgroup");
}
GCN_OVL ulong atomic_inc_wrap(volatile __global ulong *p, ulong lim) {
  return __builtin_amdgcn_atomic_inc64((__global ulong *)p, lim, __ATOMIC_RELAXED, "agent");
}
GCN_OVL uint atomic_inc(volatile __global uint *p) { return atomic_add(p, 1u); }
GCN_OVL uint atomic_dec(volatile __global uint *p) { return atomic_sub(p, 1u); }
GCN_OVL int atomic_inc(volatile __global int *p) { return atomic_add(p, 1); }
GCN_OVL int atomic_inc(volatile __local int *p) { return atomic_add(p, 1); }
GCN_OVL uint atomic_inc(volatile __local uint *p) { return atomic_add(p, 1u); }
GCN_OVL uint atomic_dec(volatile __local uint *p) { return atomic_sub(p, 1u); }

/* Float atomics: the backend picks native instructions where the target has them and
 * compare-and-swap loops elsewhere. */
GCN_OVL float atomic_add(volatile __global float *p, float v) {
  return __scoped_atomic_fetch_add((__global float *)p, v, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
}
GCN_OVL float atomic_add(volatile __local float *p, float v) {
  return __scoped_atomic_fetch_add((__local float *)p, v, __ATOMIC_RELAXED, __MEMORY_SCOPE_WRKGRP);
}
GCN_OVL double atomic_add(volatile __global double *p, double v) {
  return __scoped_atomic_fetch_add((__global double *)p, v, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
}
GCN_OVL float atomic_max(volatile __global float *p, float v) {
  return __scoped_atomic_fetch_max((__global float *)p, v, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
}
GCN_OVL float atomic_min(volatile __global float *p, float v) {
  return __scoped_atomic_fetch_min((__global float *)p, v, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
}
/* Explicitly native float add (global_atomic_add_f32 / _f64 with return) on gfx90a/gfx942. */
#if defined(__gfx90a__) || defined(__gfx940__) || defined(__gfx941__) || defined(__gfx942__)
#define GCN_HAS_NATIVE_FADD 1
GCN_INLINE float gcn_atomic_fadd_native(__global float *p, float v) {
  return __builtin_amdgcn_global_atomic_fadd_f32(p, v);
}
GCN_INLINE double gcn_atomic_fadd_native_f64(__global double *p, double v) {
  return __builtin_amdgcn_global_atomic_fadd_f64(p, v);
}
#else
#define GCN_HAS_NATIVE_FADD 0
#endif

/* ---- integer functions ---------------------------------------------------- */
GCN_OVL uint popcount(uint x) { return __builtin_popcount(x); }
GCN_OVL int popcount(int x) { return __builtin_popcount((uint)x); }
GCN_OVL ulong popcount(ulong x) { return __builtin_popcountl(x); }
GCN_OVL uint clz(uint x) { return x ? __builtin_clz(x) : 32; }
GCN_OVL int clz(int x) { return x ? __builtin_clz((uint)x) : 32; }
GCN_OVL ulong clz(ulong x) { return x ? __builtin_clzl(x) : 64; }
GCN_OVL uint ctz(uint x) { return x ? __builtin_ctz(x) : 32; }
GCN_OVL ulong ctz(ulong x) { return x ? __builtin_ctzl(x) : 64; }
GCN_OVL uint rotate(uint x, uint n) { return __builtin_rotateleft32(x, n); }
GCN_OVL ulong rotate(ulong x, ulong n) { return __builtin_rotateleft64(x, n); }
GCN_OVL uint mul_hi(uint a, uint b) { return (uint)(((ulong)a * b) >> 32); }
GCN_OVL int mul_hi(int a, int b) { return (int)(((long)a * b) >> 32); }
GCN_OVL uint mad24(uint a, uint b, uint c) { return (a & 0xffffff) * (b & 0xffffff) + c; }
GCN_OVL uint bitreverse(uint x) { return __builtin_bitreverse32(x); }
GCN_OVL int min(int a, int b) { return a < b ? a : b; }
GCN_OVL int max(int a, int b) { return a > b ? a : b; }
GCN_OVL uint min(uint a, uint b) { return a < b ? a : b; }
GCN_OVL uint max(uint a, uint b) { return a > b ? a : b; }
GCN_OVL long min(long a, long b) { return a < b ? a : b; }
GCN_OVL long max(long a, long b) { return a > b ? a : b; }
GCN_OVL ulong min(ulong a, ulong b) { return a < b ? a : b; }
GCN_OVL ulong max(ulong a, ulong b) { return a > b ? a : b; }
GCN_OVL int clamp(int x, int lo, int hi) { return min(max(x, lo), hi); }
GCN_OVL int abs_diff(int a, int b) { return a > b ? a - b : b - a; }
GCN_OVL uint abs(int a) { return a < 0 ? -(uint)a : (uint)a; }

/* ---- more OpenCL integer built-ins and conversions (checked against pocl's own) ---- */
GCN_OVL int mul24(int a, int b) { return ((a << 8) >> 8) * ((b << 8) >> 8); }
GCN_OVL uint mul24(uint a, uint b) { return (a & 0xffffff) * (b & 0xffffff); }
GCN_OVL int mad24(int a, int b, int c) { return mul24(a, b) + c; }
GCN_OVL int mad_hi(int a, int b, int c) { return mul_hi(a, b) + c; }
GCN_OVL uint mad_hi(uint a, uint b, uint c) { return mul_hi(a, b) + c; }
GCN_OVL long mul_hi(long a, long b) { return (long)(((__int128)a * b) >> 64); }
GCN_OVL ulong mul_hi(ulong a, ulong b) { return (ulong)(((unsigned __int128)a * b) >> 64); }
GCN_OVL int add_sat(int a, int b) {
  int r;
  return __builtin_add_overflow(a, b, &r) ? (a < 0 ? (int)0x80000000 : 0x7fffffff) : r;
}
GCN_OVL int sub_sat(int a, int b) {
  int r;
  return __builtin_sub_overflow(a, b, &r) ? (a < 0 ? (int)0x80000000 : 0x7fffffff) : r;
}
GCN_OVL uint add_sat(uint a, uint b) { uint r = a + b; return r < a ? 0xffffffffu : r; }
GCN_OVL uint sub_sat(uint a, uint b) { return a < b ? 0 : a - b; }
GCN_OVL long add_sat(long a, long b) {
  long r;
  return __builtin_add_overflow(a, b, &r) ? (a < 0 ? (long)0x8000000000000000ul : 0x7fffffffffffffffl) : r;
}
GCN_OVL int hadd(int a, int b) { return (a >> 1) + (b >> 1) + (a & b & 1); }
GCN_OVL int rhadd(int a, int b) { return (a >> 1) + (b >> 1) + ((a | b) & 1); }
GCN_OVL uint hadd(uint a, uint b) { return (a >> 1) + (b >> 1) + (a & b & 1); }
GCN_OVL uint rhadd(uint a, uint b) { return (a >> 1) + (b >> 1) + ((a | b) & 1); }
GCN_OVL uint abs_diff(uint a, uint b) { return a > b ? a - b : b - a; }
GCN_OVL ulong abs_diff(long a, long b) { return a > b ? (ulong)a - (ulong)b : (ulong)b - (ulong)a; }
GCN_OVL uint bitselect(uint a, uint b, uint c) { return (a & ~c) | (b & c); }
GCN_OVL int select(int a, int b, int c) { return c ? b : a; }
GCN_OVL int upsample(short hi, ushort lo) { return (int)((uint)(int)hi << 16 | lo); }
GCN_OVL int mad_sat(int a, int b, int c) {
  long r = (long)a * b + c;
  return r > 0x7fffffffl ? 0x7fffffff : r < -0x80000000l ? (int)0x80000000 : (int)r;
}
GCN_OVL uint mad_sat(uint a, uint b, uint c) {
  ulong r = (ulong)a * b + c;
  return r > 0xffffffffu ? 0xffffffffu : (uint)r;
}
GCN_OVL uint clamp(uint x, uint lo, uint hi) { return min(max(x, lo), hi); }
GCN_OVL int convert_int_rte(float x) { return (int)__builtin_rintf(x); }
GCN_OVL int convert_int_rtz(float x) { return (int)x; }
GCN_OVL int convert_int_rtp(float x) { return (int)__builtin_ceilf(x); }
GCN_OVL int convert_int_rtn(float x) { return (int)__builtin_floorf(x); }
GCN_OVL int convert_int_rte(double x) { return (int)__builtin_rint(x); }
GCN_OVL int convert_int_rtp(double x) { return (int)__builtin_ceil(x); }
GCN_OVL int convert_int_rtn(double x) { return (int)__builtin_floor(x); }
GCN_OVL int convert_int_sat(float x) {
  return __builtin_isnan(x) ? 0 : x >= 2147483648.0f ? 0x7fffffff : x < -2147483648.0f ? (int)0x80000000 : (int)x;
}
GCN_OVL int convert_int_sat_rte(float x) { return convert_int_sat(__builtin_rintf(x)); }
GCN_OVL uint convert_uint_sat(float x) {
  return __builtin_isnan(x) ? 0 : x >= 4294967296.0f ? 0xffffffffu : x <= -1.0f ? 0 : (uint)x;
}
GCN_OVL int convert_int_sat(double x) {
  return __builtin_isnan(x) ? 0 : x >= 2147483647.0 ? 0x7fffffff : x <= -2147483648.0 ? (int)0x80000000 : (int)x;
}
GCN_OVL int convert_int_sat(long x) {
  return x > 0x7fffffffl ? 0x7fffffff : x < -0x80000000l ? (int)0x80000000 : (int)x;
}
GCN_OVL uchar convert_uchar_sat(int x) { return (uchar)(x < 0 ? 0 : x > 255 ? 255 : x); }
GCN_OVL char convert_char_sat(int x) { return (char)(x < -128 ? -128 : x > 127 ? 127 : x); }
GCN_OVL short convert_short_sat(int x) { return (short)(x < -32768 ? -32768 : x > 32767 ? 32767 : x); }
GCN_OVL ushort convert_ushort_sat(int x) { return (ushort)(x < 0 ? 0 : x > 65535 ? 65535 : x); }
GCN_OVL uint convert_uint_sat(int x) { return x < 0 ? 0 : (uint)x; }

/* ---- float functions ------------------------------------------------------ */
GCN_OVL float fabs(float x) { return __builtin_fabsf(x); }
GCN_OVL double fabs(double x) { return __builtin_fabs(x); }
GCN_OVL float sqrt(float x) { return __builtin_sqrtf(x); }
GCN_OVL double sqrt(double x) { return __builtin_sqrt(x); }
GCN_OVL float rsqrt(float x) { return __builtin_amdgcn_rsqf(x); }
GCN_OVL float native_recip(float x) { return __builtin_amdgcn_rcpf(x); }
GCN_OVL float fma(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
GCN_OVL double fma(double a, double b, double c) { return __builtin_fma(a, b, c); }
GCN_OVL float mad(float a, float b, float c) { return a * b + c; }
GCN_OVL float fmin(float a, float b) { return __builtin_fminf(a, b); }
GCN_OVL float fmax(float a, float b) { return __builtin_fmaxf(a, b); }
GCN_OVL double fmin(double a, double b) { return __builtin_fmin(a, b); }
GCN_OVL double fmax(double a, double b) { return __builtin_fmax(a, b); }
GCN_OVL float floor(float x) { return __builtin_floorf(x); }
GCN_OVL float ceil(float x) { return __builtin_ceilf(x); }
GCN_OVL float trunc(float x) { return __builtin_truncf(x); }
GCN_OVL float rint(float x) { return __builtin_rintf(x); }
GCN_OVL double floor(double x) { return __builtin_floor(x); }
GCN_OVL double trunc(double x) { return __builtin_trunc(x); }
GCN_OVL int isnan(float x) { return __builtin_isnan(x); }
GCN_OVL int isinf(float x) { return __builtin_isinf(x); }
GCN_OVL int isfinite(float x) { return __builtin_isfinite(x); }
GCN_OVL int isnan(double x) { return __builtin_isnan(x); }
GCN_OVL float copysign(float a, float b) { return __builtin_copysignf(a, b); }
GCN_OVL float clamp(float x, float lo, float hi) { return fmin(fmax(x, lo), hi); }
GCN_OVL float native_exp2(float x) { return __builtin_amdgcn_exp2f(x); }
GCN_OVL float native_log2(float x) { return __builtin_amdgcn_logf(x); }
GCN_OVL float native_exp(float x) { return native_exp2(x * 1.4426950408889634f); }
GCN_OVL float native_log(float x) { return native_log2(x) * 0.6931471805599453f; }
GCN_OVL float ldexp(float x, int e) { return __builtin_amdgcn_ldexpf(x, e); }
GCN_OVL float4 fabs(float4 v) { return (float4)(fabs(v.x), fabs(v.y), fabs(v.z), fabs(v.w)); }
GCN_OVL float3 rint(float3 v) { return (float3)(rint(v.x), rint(v.y), rint(v.z)); }
GCN_OVL float dot(float4 a, float4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
GCN_OVL float dot(float3 a, float3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
GCN_OVL float3 cross(float3 a, float3 b) {
  return (float3)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
GCN_OVL float length(float3 v) { return sqrt(dot(v, v)); }
GCN_OVL float3 normalize(float3 v) { return v * rsqrt(dot(v, v)); }
GCN_OVL half fabs(half x) { return __builtin_fabsf16(x); }
GCN_OVL half fma(half a, half b, half c) { return __builtin_fmaf16(a, b, c); }
GCN_OVL half fmax(half a, half b) { return __builtin_fmaxf16(a, b); }

/* sin/cos without libm: Cody-Waite reduction to [-pi/4, pi/4] then minimax polynomials. */
GCN_INLINE float gcn_sin_poly(float x) {
  float x2 = x * x;
  return x + x * x2 * (-1.6666654611e-1f + x2 * (8.3321608736e-3f + x2 * -1.9515295891e-4f));
}
GCN_INLINE float gcn_cos_poly(float x) {
  float x2 = x * x;
  return 1.0f - 0.5f * x2 + x2 * x2 * (4.166664568298827e-2f + x2 * (-1.388731625493765e-3f + x2 * 2.443315711809948e-5f));
}
GCN_INLINE float gcn_sincos(float x, float *c) {
  float q = rint(x * 0.63661977236758134f); /* 2/pi */
  int n = (int)q;
  float r = fma(q, -1.5707962513e+00f, x);
  r = fma(q, -7.5497894159e-08f, r);
  float s = gcn_sin_poly(r), k = gcn_cos_poly(r);
  float sn = (n & 1) ? k : s;
  float cs = (n & 1) ? s : k;
  *c = ((n + 1) & 2) ? -cs : cs;
  return (n & 2) ? -sn : sn;
}
GCN_OVL float sin(float x) { float c; return gcn_sincos(x, &c); }
GCN_OVL float cos(float x) { float c; gcn_sincos(x, &c); return c; }
GCN_OVL float native_sin(float x) { return __builtin_amdgcn_sinf(x * 0.15915494309189535f); }
GCN_OVL float native_cos(float x) { return __builtin_amdgcn_cosf(x * 0.15915494309189535f); }

/* ---- cross-lane helpers ------------------------------------------------------ */
GCN_INLINE uint gcn_lane_id(void) {
  return __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
}
GCN_INLINE int gcn_readlane(int v, uint lane) { return __builtin_amdgcn_readlane(v, lane); }
GCN_INLINE int gcn_readfirstlane(int v) { return __builtin_amdgcn_readfirstlane(v); }
GCN_INLINE float gcn_readlane_f(float v, uint lane) {
  return __builtin_astype(__builtin_amdgcn_readlane(__builtin_astype(v, int), lane), float);
}
/* ds_swizzle in bit-mask mode: lane' = ((lane & and) | or) ^ xor within groups of 32 */
#define GCN_SWZ_XOR(m) (0x1f | ((m) << 10))
#define gcn_swizzle_f(v, pattern) \
  __builtin_astype(__builtin_amdgcn_ds_swizzle(__builtin_astype((float)(v), int), (pattern)), float)

#else /* !__AMDGCN__: pocl */

/* pocl provides the standard OpenCL C library (work-item functions, int/uint atomics, math,
 * native_*, fma, ...), so this branch defines only what the kernels use beyond it, with the
 * semantics of the AMDGCN branch above.  pocl's CPU device has no cl_khr_fp16: the half
 * helpers are left out, and kernels that compute in half do not build here.
 *
 * The wave64 cross-lane helpers (gcn_readlane*, gcn_readfirstlane, gcn_swizzle_f) and the
 * __builtin_amdgcn_* intrinsics have no equivalent on a CPU and are deliberately left
 * undefined, so that a kernel using them fails to build on pocl instead of silently computing
 * something else; only three intrinsics that involve no other lane are given their meaning
 * (sad_u8, s_sleep, fence, below). */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

#define GCN_INLINE static inline __attribute__((always_inline))
#define GCN_OVL static inline __attribute__((overloadable, always_inline))

/* ---- target feature macros ------------------------------------------------ */
/* Not a GCN target: every "has hardware feature X" macro is 0, so kernels with a portable
 * fallback compile it. */
#define GCN_POCL 1
#define GCN_GEN 0
#define GCN_HAS_DPP 0
#define GCN_HAS_MFMA 0
#define GCN_HAS_NATIVE_FADD 0
#define GCN_WAVE 64

/* ---- work-item functions -------------------------------------------------- */
/* pocl has no non-uniform work-groups.  tools/pocl-ref/pocl_run.py runs a launch whose global
 * size is not a multiple of its local size as separate enqueues (the full groups, then the
 * partial last group per dimension, each with the global offset where it starts) and builds
 * the program with the real launch in GCN_POCL_*_{0,1,2}.  get_global_id and get_local_id are
 * right as pocl computes them; the grid-wide values are rebuilt here.  get_local_size is the
 * enqueued size, as in the AMDGCN branch (it reads the dispatch packet's workgroup_size). */
#ifdef GCN_POCL_SPLIT
GCN_INLINE size_t gcn_pocl_pick(uint d, size_t a, size_t b, size_t c, size_t other) {
  return d == 0 ? a : d == 1 ? b : d == 2 ? c : other;
}
GCN_INLINE size_t gcn_pocl_global_size(uint d) {
  return gcn_pocl_pick(d, GCN_POCL_GLOBAL_SIZE_0, GCN_POCL_GLOBAL_SIZE_1, GCN_POCL_GLOBAL_SIZE_2, 1);
}
GCN_INLINE size_t gcn_pocl_local_size(uint d) {
  return gcn_pocl_pick(d, GCN_POCL_LOCAL_SIZE_0, GCN_POCL_LOCAL_SIZE_1, GCN_POCL_LOCAL_SIZE_2, 1);
}
GCN_INLINE size_t gcn_pocl_global_offset(uint d) {
  return gcn_pocl_pick(d, GCN_POCL_GLOBAL_OFFSET_0, GCN_POCL_GLOBAL_OFFSET_1,
                       GCN_POCL_GLOBAL_OFFSET_2, 0);
}
GCN_INLINE size_t gcn_pocl_group_id(uint d) {
  return d < 3 ? (get_global_id(d) - get_local_id(d) - gcn_pocl_global_offset(d)) /
                     gcn_pocl_local_size(d)
               : 0;
}
GCN_INLINE size_t gcn_pocl_num_groups(uint d) {
  size_t l = gcn_pocl_local_size(d);
  return (gcn_pocl_global_size(d) + l - 1) / l;
}
#define get_global_size(d) gcn_pocl_global_size(d)
#define get_local_size(d) gcn_pocl_local_size(d)
#define get_global_offset(d) gcn_pocl_global_offset(d)
#define get_group_id(d) gcn_pocl_group_id(d)
#define get_num_groups(d) gcn_pocl_num_groups(d)
#endif /* GCN_POCL_SPLIT */

/* ---- atomics ---------------------------------------------------------------- */
/* 64-bit integer atomics: the AMDGCN branch overloads the OpenCL 1.x names for long/ulong;
 * pocl has them as atom_* (cl_khr_int64_base_atomics / _extended_atomics). */
#define GCN_ATOM64(NAME, ATOM, T, AS)                                          \
  GCN_OVL T NAME(volatile AS T *p, T v) { return ATOM(p, v); }
#define GCN_ATOM64_FAMILY(NAME, ATOM)                                          \
  GCN_ATOM64(NAME, ATOM, long, __global)                                       \
  GCN_ATOM64(NAME, ATOM, ulong, __global)                                      \
  GCN_ATOM64(NAME, ATOM, long, __local)                                        \
  GCN_ATOM64(NAME, ATOM, ulong, __local)
GCN_ATOM64_FAMILY(atomic_add, atom_add)
GCN_ATOM64_FAMILY(atomic_sub, atom_sub)
GCN_ATOM64_FAMILY(atomic_and, atom_and)
GCN_ATOM64_FAMILY(atomic_or, atom_or)
GCN_ATOM64_FAMILY(atomic_xor, atom_xor)
GCN_ATOM64_FAMILY(atomic_min, atom_min)
GCN_ATOM64_FAMILY(atomic_max, atom_max)
GCN_ATOM64_FAMILY(atomic_xchg, atom_xchg)
GCN_OVL long atomic_cmpxchg(volatile __global long *p, long cmp, long v) {
  return atom_cmpxchg(p, cmp, v);
}
GCN_OVL ulong atomic_cmpxchg(volatile __global ulong *p, ulong cmp, ulong v) {
  return atom_cmpxchg(p, cmp, v);
}

/* Read-modify-write through compare-and-swap on the bit pattern: the loop ends when the word
 * still held what the new value was computed from (comparing bits, not values, so NaNs and
 * -0 cannot make it spin or skip).  OP computes the new value `n` from the old `o`. */
#define GCN_CAS_RMW(NAME, T, AS, U, CAS, OP)                                   \
  GCN_OVL T NAME(volatile AS T *p, T v) {                                      \
    volatile AS U *u = (volatile AS U *)p;                                     \
    U seen = *u, want;                                                         \
    do {                                                                       \
      want = seen;                                                             \
      T o = __builtin_astype(want, T);                                         \
      T n = OP;                                                                \
      seen = CAS(u, want, __builtin_astype(n, U));                             \
    } while (seen != want);                                                    \
    return __builtin_astype(seen, T);                                          \
  }

/* Wrapping increment/decrement (buffer_atomic_inc/dec semantics, as in the AMDGCN branch):
 * inc: new = old >= lim ? 0 : old + 1;  dec: new = (old == 0 || old > lim) ? lim : old - 1. */
#define GCN_INC_WRAP (o >= v ? 0 : o + 1)
#define GCN_DEC_WRAP ((o == 0 || o > v) ? v : o - 1)
GCN_CAS_RMW(atomic_inc_wrap, uint, __global, uint, atomic_cmpxchg, GCN_INC_WRAP)
GCN_CAS_RMW(atomic_dec_wrap, uint, __global, uint, atomic_cmpxchg, GCN_DEC_WRAP)
GCN_CAS_RMW(atomic_inc_wrap, uint, __local, uint, atomic_cmpxchg, GCN_INC_WRAP)
GCN_CAS_RMW(atomic_dec_wrap, uint, __local, uint, atomic_cmpxchg, GCN_DEC_WRAP)
GCN_CAS_RMW(atomic_inc_wrap, ulong, __global, ulong, atom_cmpxchg, GCN_INC_WRAP)

/* Float atomics (the AMDGCN branch's set): add, and min/max with fmin/fmax (IEEE minNum /
 * maxNum, the LLVM atomicrmw fmin/fmax semantics). */
GCN_CAS_RMW(atomic_add, float, __global, uint, atomic_cmpxchg, o + v)
GCN_CAS_RMW(atomic_add, float, __local, uint, atomic_cmpxchg, o + v)
GCN_CAS_RMW(atomic_add, double, __global, ulong, atom_cmpxchg, o + v)
GCN_CAS_RMW(atomic_max, float, __global, uint, atomic_cmpxchg, fmax(o, v))
GCN_CAS_RMW(atomic_min, float, __global, uint, atomic_cmpxchg, fmin(o, v))
/* The explicitly native float add of gfx90a/gfx942 is an ordinary atomic add here
 * (GCN_HAS_NATIVE_FADD stays 0, so kernels normally take their portable path). */
GCN_INLINE float gcn_atomic_fadd_native(__global float *p, float v) { return atomic_add(p, v); }
GCN_INLINE double gcn_atomic_fadd_native_f64(__global double *p, double v) {
  return atomic_add(p, v);
}

/* ---- integer functions ---------------------------------------------------- */
/* Not in OpenCL C 1.2 (bit_reverse needs cl_khr_extended_bit_ops). */
GCN_OVL uint bitreverse(uint x) { return __builtin_bitreverse32(x); }

/* ---- float functions ------------------------------------------------------ */
/* sin/cos without libm, as in the AMDGCN branch (kernels call gcn_sincos directly; sin and
 * cos themselves are pocl's). */
GCN_INLINE float gcn_sin_poly(float x) {
  float x2 = x * x;
  return x + x * x2 * (-1.6666654611e-1f + x2 * (8.3321608736e-3f + x2 * -1.9515295891e-4f));
}
GCN_INLINE float gcn_cos_poly(float x) {
  float x2 = x * x;
  return 1.0f - 0.5f * x2 + x2 * x2 * (4.166664568298827e-2f + x2 * (-1.388731625493765e-3f + x2 * 2.443315711809948e-5f));
}
GCN_INLINE float gcn_sincos(float x, float *c) {
  float q = rint(x * 0.63661977236758134f); /* 2/pi */
  int n = (int)q;
  float r = fma(q, -1.5707962513e+00f, x);
  r = fma(q, -7.5497894159e-08f, r);
  float s = gcn_sin_poly(r), k = gcn_cos_poly(r);
  float sn = (n & 1) ? k : s;
  float cs = (n & 1) ? s : k;
  *c = ((n + 1) & 2) ? -cs : cs;
  return (n & 2) ? -sn : sn;
}

/* ---- AMDGCN builtins without lanes -------------------------------------------- */
/* A few kernels call these directly.  Their meaning involves no other lane, so pocl can have
 * it, and the other kernels of those files get a reference. */
/* v_sad_u8: the sum of the absolute differences of the four byte pairs, plus c (mod 2^32). */
GCN_INLINE uint gcn_pocl_sad_u8(uint a, uint b, uint c) {
  uint s = c;
  for (uint k = 0; k < 32; k += 8)
    s += abs_diff((a >> k) & 0xffu, (b >> k) & 0xffu);
  return s;
}
#define __builtin_amdgcn_sad_u8(a, b, c) gcn_pocl_sad_u8((a), (b), (c))
/* s_sleep only tells the wave scheduler to wait a while. */
#define __builtin_amdgcn_s_sleep(n) ((void)(n))
/* A fence with the given order; the scope ("agent", "workgroup", ...) does not matter on a
 * CPU, where every thread shares one coherent memory. */
#define __builtin_amdgcn_fence(order, scope) __atomic_thread_fence(order)

/* ---- cross-lane helpers ------------------------------------------------------ */
/* The lane of a work-item in its wave64: waves are cut from the flattened local id, x fastest
 * (gcn_lane_id is mbcnt on AMDGCN, but its value is defined without lanes). */
GCN_INLINE uint gcn_lane_id(void) { return (uint)get_local_linear_id() & (GCN_WAVE - 1); }

#endif /* __AMDGCN__ */

#endif /* GCNKIT_GCN_H */
