#include "gcn.h"
/* Hashing and random numbers: FNV-1a, MurmurHash3 finaliser, xorshift128+, Philox4x32-10,
 * and a GPU hash table insert with linear probing (atomic_cmpxchg). */

inline uint fmix32(uint h) {
  h ^= h >> 16; h *= 0x85ebca6b;
  h ^= h >> 13; h *= 0xc2b2ae35;
  h ^= h >> 16;
  return h;
}
inline ulong fmix64(ulong k) {
  k ^= k >> 33; k *= 0xff51afd7ed558ccdul;
  k ^= k >> 33; k *= 0xc4ceb9fe1a85ec53ul;
  k ^= k >> 33;
  return k;
}

kernel void fnv1a_strings(global const uchar *buf, global const uint *offs, global uint *hash, uint n) {
  uint i = get_global_id(0);
  if (i >= n) return;
  uint h = 2166136261u;
  for (uint p = offs[i]; p < offs[i + 1]; ++p)
    h = (h ^ buf[p]) * 16777619u;
  hash[i] = h;
}

kernel void murmur3_keys(global const uint *k32, global const ulong *k64, global uint *h32, global ulong *h64, uint seed) {
  uint i = get_global_id(0);
  uint k = k32[i] * 0xcc9e2d51u;
  k = rotate(k, 15u) * 0x1b873593u;
  uint h = seed ^ k;
  h = rotate(h, 13u) * 5 + 0xe6546b64u;
  h32[i] = fmix32(h ^ 4u);
  h64[i] = fmix64(k64[i] ^ ((ulong)seed << 32));
}

kernel void xorshift128p(global ulong2 *state, global float *out, int per_item) {
  uint i = get_global_id(0);
  ulong s0 = state[i].x, s1 = state[i].y;
  for (int k = 0; k < per_item; ++k) {
    ulong x = s0, y = s1;
    s0 = y;
    x ^= x << 23;
    s1 = x ^ y ^ (x >> 17) ^ (y >> 26);
    ulong r = s1 + y;
    out[i * per_item + k] = (r >> 40) * 0x1.0p-24f;
  }
  state[i] = (ulong2)(s0, s1);
}

kernel void philox4x32_10(global uint4 *out, uint key0, uint key1, uint ctr_hi) {
  uint i = get_global_id(0);
  uint4 c = (uint4)(i, 0, ctr_hi, 0x5eed);
  uint2 k = (uint2)(key0, key1);
  for (int r = 0; r < 10; ++r) {
    uint hi0 = mul_hi(0xD2511F53u, c.x), lo0 = 0xD2511F53u * c.x;
    uint hi1 = mul_hi(0xCD9E8D57u, c.z), lo1 = 0xCD9E8D57u * c.z;
    c = (uint4)(hi1 ^ c.y ^ k.x, lo1, hi0 ^ c.w ^ k.y, lo0);
    k += (uint2)(0x9E3779B9u, 0xBB67AE85u);
  }
  out[i] = c;
}

#define EMPTY 0xffffffffu
kernel void hash_insert(global const uint *keys, global const uint *vals, uint n, global uint *tkeys,
                        global uint *tvals, uint cap_mask, global uint *overflow) {
  uint i = get_global_id(0);
  if (i >= n) return;
  uint key = keys[i];
  uint slot = fmix32(key) & cap_mask;
  for (uint probe = 0; probe <= cap_mask; ++probe) {
    uint prev = atomic_cmpxchg(&tkeys[slot], EMPTY, key);
    if (prev == EMPTY || prev == key) {
      tvals[slot] = vals[i];
      return;
    }
    slot = (slot + 1) & cap_mask;
  }
  atomic_inc(overflow);
}

kernel void hash_lookup(global const uint *q, uint n, global const uint *tkeys, global const uint *tvals,
                        uint cap_mask, global uint *res) {
  uint i = get_global_id(0);
  if (i >= n) return;
  uint key = q[i], slot = fmix32(key) & cap_mask, r = EMPTY;
  for (uint probe = 0; probe <= cap_mask; ++probe) {
    uint k = tkeys[slot];
    if (k == key) { r = tvals[slot]; break; }
    if (k == EMPTY) break;
    slot = (slot + 1) & cap_mask;
  }
  res[i] = r;
}
