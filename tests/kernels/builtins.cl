#include "gcn.h"
/* OpenCL's integer built-ins and conversions with rounding modes and saturation, each over
 * edge values: on AMDGPU from gcn.h (built on clang's generic operations, so LLVM picks the
 * instructions), on pocl from its own library. Every result is an int, so one kernel can
 * write one row of results per work-item. */

#define ROW_INT 26
kernel void int_builtins(global const int *a, global const int *b, global const int *c, global int *out) {
  int i = get_global_id(0);
  int x = a[i], y = b[i], z = c[i];
  uint ux = (uint)x, uy = (uint)y, uz = (uint)z;
  global int *o = out + i * ROW_INT;
  o[0] = mul_hi(x, y);
  o[1] = (int)mul_hi(ux, uy);
  o[2] = mad_hi(x, y, z);
  o[3] = (int)mad_hi(ux, uy, uz);
  /* mul24/mad24 are implementation-defined outside 24 bits: give them 24-bit operands. */
  int x24 = (x << 8) >> 8, y24 = (y << 8) >> 8;
  o[4] = mul24(x24, y24);
  o[5] = (int)mul24(ux & 0xffffff, uy & 0xffffff);
  o[6] = mad24(x24, y24, z);
  o[7] = add_sat(x, y);
  o[8] = sub_sat(x, y);
  o[9] = (int)add_sat(ux, uy);
  o[10] = (int)sub_sat(ux, uy);
  o[11] = hadd(x, y);
  o[12] = rhadd(x, y);
  o[13] = (int)hadd(ux, uy);
  o[14] = (int)rhadd(ux, uy);
  o[15] = (int)abs_diff(x, y);
  o[16] = (int)abs_diff(ux, uy);
  o[17] = (int)bitselect(ux, uy, uz);
  o[18] = select(x, y, z & 1);
  o[19] = upsample((short)x, (ushort)y);
  o[20] = mad_sat(x, y, z);
  o[21] = (int)mad_sat(ux, uy, uz);
  o[22] = (int)rotate(ux, uy);
  o[23] = (int)clamp(ux, min(uy, uz), max(uy, uz));
  o[24] = (int)clz(ux) + 100 * (int)ctz(uy) + 10000 * (int)popcount(uz);
  o[25] = (int)abs(x);
}

#define ROW_LONG 8
kernel void long_builtins(global const long *a, global const long *b, global long *out) {
  int i = get_global_id(0);
  long x = a[i], y = b[i];
  global long *o = out + i * ROW_LONG;
  o[0] = mul_hi(x, y);
  o[1] = (long)mul_hi((ulong)x, (ulong)y);
  o[2] = add_sat(x, y);
  o[3] = (long)abs_diff(x, y);
  o[4] = (long)rotate((ulong)x, (ulong)y);
  o[5] = (long)clz((ulong)x) + 1000 * (long)popcount((ulong)y);
  o[6] = convert_int_sat(x);
  /* A positive divisor: LONG_MIN % -1 is undefined in C. */
  o[7] = (long)((ulong)x / ((ulong)y | 1)) ^ (x % ((y & 0x7fffffffffffl) | 1));
}

#define ROW_CONV 20
kernel void conversions(global const float *f, global const double *d, global const int *n, global int *out) {
  int i = get_global_id(0);
  float x = f[i];
  double y = d[i];
  int k = n[i];
  /* Conversions without _sat are defined only for values in range: clamp them first. */
  float xr = fmin(fmax(x, -2.0e9f), 2.0e9f);
  double yr = fmin(fmax(y, -2.0e9), 2.0e9);
  if (isnan(xr)) xr = 0.5f;
  if (isnan(yr)) yr = -0.5;
  global int *o = out + i * ROW_CONV;
  o[0] = convert_int_rte(xr);
  o[1] = convert_int_rtz(xr);
  o[2] = convert_int_rtp(xr);
  o[3] = convert_int_rtn(xr);
  o[4] = convert_int_sat(x);
  o[5] = convert_int_sat_rte(x);
  o[6] = (int)convert_uint_sat(x);
  o[7] = convert_int_rte(yr);
  o[8] = convert_int_rtp(yr);
  o[9] = convert_int_rtn(yr);
  o[10] = convert_int_sat(y);
  o[11] = convert_uchar_sat(k);
  o[12] = convert_char_sat(k);
  o[13] = convert_short_sat(k);
  o[14] = convert_ushort_sat(k);
  o[15] = (int)convert_uint_sat(k);
  o[16] = as_int((float)k);
  o[17] = as_int((float)(uint)k);
  o[18] = as_int((float)y);
  o[19] = as_int((float)(long)(yr * 1.0e9));
}
