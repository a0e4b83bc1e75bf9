#include "gcn.h"
/* Divergent control flow: nested ifs, loops with break/continue, early exits, loops whose trip
 * counts differ per lane, and selects that should stay branch-free. */

kernel void collatz_steps(global const uint *start, global uint *steps, global uint *peak, uint n) {
  uint i = get_global_id(0);
  if (i >= n)
    return;
  ulong x = start[i];
  uint s = 0;
  ulong hi = x;
  while (x != 1 && s < 1000) {
    x = (x & 1) ? 3 * x + 1 : x >> 1;
    hi = x > hi ? x : hi;
    ++s;
  }
  steps[i] = s;
  atomic_max(peak, (uint)min(hi, (ulong)0xffffffff));
}

kernel void classify(global const float *x, global int *cls, global float *y, uint n) {
  uint i = get_global_id(0);
  if (i >= n)
    return;
  float v = x[i];
  int c;
  if (isnan(v)) {
    c = -1;
    y[i] = 0.0f;
  } else if (v < 0.0f) {
    if (v < -100.0f) {
      c = 0;
      y[i] = -100.0f;
    } else {
      c = 1;
      y[i] = v * v;
    }
  } else if (v < 1.0f) {
    c = 2;
    y[i] = sqrt(v);
  } else {
    c = 3;
    float t = v;
    int k = 0;
    while (t > 2.0f) { t *= 0.5f; ++k; }
    y[i] = t + k;
  }
  cls[i] = c;
}

/* find first match in a row, with continue/break and a per-lane trip count */
kernel void find_in_rows(global const int *rows, global const int *lens, int stride, int needle, global int *pos) {
  int r = get_global_id(0);
  int len = lens[r], found = -1;
  for (int j = 0; j < len; ++j) {
    int v = rows[r * stride + j];
    if (v < 0)
      continue;
    if (v == needle) {
      found = j;
      break;
    }
    if (v > 1000000)
      break;
  }
  pos[r] = found;
}

/* selects: branch-free clamping, sign, and abs */
kernel void selects(global const int *a, global const int *b, global int *out, int lo, int hi) {
  int i = get_global_id(0);
  int x = a[i], y = b[i];
  int m = x > y ? x : y;
  int s = (x > 0) - (x < 0);
  int c = x < lo ? lo : (x > hi ? hi : x);
  out[i] = m * s + c + (y & 1 ? x : -x);
}

/* nested loops with data-dependent bounds: triangular solve (lower, unit diagonal) per system */
kernel void trsv_lower_batched(global const float *L, global float *b, int n) {
  int sys = get_global_id(0);
  global const float *Ls = L + (long)sys * n * n;
  global float *bs = b + (long)sys * n;
  for (int i = 0; i < n; ++i) {
    float s = bs[i];
    for (int j = 0; j < i; ++j)
      s -= Ls[i * n + j] * bs[j];
    bs[i] = s;
  }
}

/* irregular loop with goto-style retry */
kernel void rejection_sample(global uint *seed, global float2 *out) {
  uint i = get_global_id(0);
  uint s = seed[i];
  float x, y;
  int tries = 0;
  do {
    s = s * 1664525u + 1013904223u;
    x = (s >> 8) * 0x1.0p-24f * 2.0f - 1.0f;
    s = s * 1664525u + 1013904223u;
    y = (s >> 8) * 0x1.0p-24f * 2.0f - 1.0f;
  } while (x * x + y * y > 1.0f && ++tries < 64);
  seed[i] = s;
  out[i] = (float2)(x, y);
}
