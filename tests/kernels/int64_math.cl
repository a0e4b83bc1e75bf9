#include "gcn.h"
/* 64-bit integer arithmetic: multiplication, 128-bit products by parts, shifts by variable
 * amounts, Montgomery modular multiplication, and modular exponentiation. */

inline ulong mulhi64(ulong a, ulong b) {
  ulong a0 = (uint)a, a1 = a >> 32, b0 = (uint)b, b1 = b >> 32;
  ulong p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  ulong mid = (p00 >> 32) + (uint)p01 + (uint)p10;
  return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/* Montgomery multiplication mod an odd 64-bit n with R = 2^64 */
inline ulong mont_mul(ulong a, ulong b, ulong n, ulong ninv /* -n^-1 mod 2^64 */) {
  ulong tlo = a * b, thi = mulhi64(a, b);
  ulong m = tlo * ninv;
  ulong mlo = m * n, mhi = mulhi64(m, n);
  ulong carry = (tlo + mlo) < tlo;
  ulong r = thi + mhi + carry;
  return (r >= n || r < thi) ? r - n : r;
}

kernel void modexp_mont(global const ulong *base, global const ulong *expo, ulong n, ulong ninv, ulong r2,
                        global ulong *out) {
  int i = get_global_id(0);
  ulong b = mont_mul(base[i] % n, r2, n, ninv);
  ulong x = mont_mul(1, r2, n, ninv);
  ulong e = expo[i];
  while (e) {
    if (e & 1) x = mont_mul(x, b, n, ninv);
    b = mont_mul(b, b, n, ninv);
    e >>= 1;
  }
  out[i] = mont_mul(x, 1, n, ninv);
}

kernel void i64_ops(global const long *a, global const long *b, global long *out) {
  int i = get_global_id(0);
  long x = a[i], y = b[i];
  int s = (int)(y & 63);
  out[6 * i + 0] = x * y;
  out[6 * i + 1] = x << s;
  out[6 * i + 2] = x >> s;
  out[6 * i + 3] = (long)((ulong)x >> s);
  out[6 * i + 4] = (long)mulhi64((ulong)x, (ulong)y);
  out[6 * i + 5] = x < y ? y - x : x ^ y;
}

/* 128-bit accumulate of 64x64 products (sum of squares without overflow) */
kernel void sumsq_u128(global const ulong *x, int n, global ulong2 *out) {
  int g = get_global_id(0);
  ulong lo = 0, hi = 0;
  for (int i = g; i < n; i += get_global_size(0)) {
    ulong plo = x[i] * x[i], phi = mulhi64(x[i], x[i]);
    lo += plo;
    hi += phi + (lo < plo);
  }
  out[g] = (ulong2)(lo, hi);
}

/* Fibonacci mod 2^64 via fast doubling */
kernel void fib_doubling(global const uint *ns, global ulong *out) {
  int i = get_global_id(0);
  uint n = ns[i];
  ulong a = 0, b = 1;
  for (int bit = 31 - (int)clz(n | 1); bit >= 0; --bit) {
    ulong c = a * (2 * b - a), d = a * a + b * b;
    if ((n >> bit) & 1) { a = d; b = c + d; } else { a = c; b = d; }
  }
  out[i] = a;
}
