#include "gcn.h"
/* Bit manipulation: popcount, clz/ctz, rotate, bit reverse, bitfield extract/insert, CRC32. */

kernel void bit_stats(global const uint *x, global uint4 *out, uint n) {
  uint i = get_global_id(0);
  if (i < n) {
    uint v = x[i];
    out[i] = (uint4)(popcount(v), clz(v), ctz(v), bitreverse(v));
  }
}

kernel void bit_stats64(global const ulong *x, global ulong *out, uint n) {
  uint i = get_global_id(0);
  if (i < n) {
    ulong v = x[i];
    out[i] = popcount(v) | (clz(v) << 8) | (ctz(v) << 16) | (rotate(v, (ulong)13) & 0xffffffff00000000ul);
  }
}

/* count set bits in a large bitmap (e.g. a visited set in BFS) */
kernel void bitmap_popcount(global const uint4 *bm, uint n4, global uint *total) {
  uint c = 0;
  for (uint i = get_global_id(0); i < n4; i += get_global_size(0)) {
    uint4 w = bm[i];
    c += popcount(w.x) + popcount(w.y) + popcount(w.z) + popcount(w.w);
  }
  atomic_add(total, c);
}

/* Morton (Z-order) encode/decode via bit interleaving */
inline uint part1by1(uint x) {
  x &= 0x0000ffff;
  x = (x ^ (x << 8)) & 0x00ff00ff;
  x = (x ^ (x << 4)) & 0x0f0f0f0f;
  x = (x ^ (x << 2)) & 0x33333333;
  x = (x ^ (x << 1)) & 0x55555555;
  return x;
}
inline uint compact1by1(uint x) {
  x &= 0x55555555;
  x = (x ^ (x >> 1)) & 0x33333333;
  x = (x ^ (x >> 2)) & 0x0f0f0f0f;
  x = (x ^ (x >> 4)) & 0x00ff00ff;
  x = (x ^ (x >> 8)) & 0x0000ffff;
  return x;
}
kernel void morton2d(global const uint2 *xy, global uint *code, global uint2 *back) {
  uint i = get_global_id(0);
  uint c = part1by1(xy[i].x) | (part1by1(xy[i].y) << 1);
  code[i] = c;
  back[i] = (uint2)(compact1by1(c), compact1by1(c >> 1));
}

/* bitfield extract/insert (v_bfe/v_bfi patterns) */
kernel void bitfields(global const uint *a, global const uint *b, global uint *out, uint off, uint width) {
  uint i = get_global_id(0);
  uint mask = width >= 32 ? ~0u : ((1u << width) - 1);
  uint field = (a[i] >> off) & mask;
  uint ins = (b[i] & ~(mask << off)) | (field << off);
  int sfield = ((int)(a[i] << (32 - off - width))) >> (32 - width);
  out[2 * i] = ins ^ (a[i] & 0xff00ff00) ^ ((b[i] >> 8) & 0x00ff00ff);
  out[2 * i + 1] = (uint)sfield + mul_hi(a[i], b[i]);
}

/* table-less CRC32 (reflected, poly 0xEDB88320) over 64-byte records */
kernel void crc32_records(global const uchar *data, global uint *crc) {
  uint i = get_global_id(0);
  global const uchar *p = data + i * 64;
  uint c = ~0u;
  for (int k = 0; k < 64; ++k) {
    c ^= p[k];
    for (int b = 0; b < 8; ++b)
      c = (c >> 1) ^ (0xEDB88320u & -(c & 1));
  }
  crc[i] = ~c;
}
