#include "gcn.h"
/* The atomics gcn.h adds on pocl (float, double, 64-bit, wrapping inc/dec), in global and local
 * memory, with results that do not depend on the order of the atomics. */
kernel void at(global float *f, global double *d, global uint *w, global ulong *u64, global long *s64,
               global const float *v, global uint *ring_slots) {
  uint i = get_global_id(0);
  atomic_add(&f[0], v[i]);
  atomic_max(&f[1], v[i]);
  atomic_min(&f[2], v[i]);
  atomic_add(&d[0], (double)v[i]);
  ring_slots[i] = atomic_inc_wrap(&w[0], 9u);
  atomic_dec_wrap(&w[1], 6u);
  atomic_inc_wrap(&u64[0], (ulong)1000);
  atomic_add(&u64[1], (ulong)i << 33);
  atomic_max(&u64[2], (ulong)i * 0x100000001ul);
  atomic_min(&s64[0], -(long)i * 0x100000000l);
  atomic_cmpxchg(&s64[1], (long)0, (long)i + 1);
  local float lf;
  local uint lw, ld;
  if (get_local_id(0) == 0) { lf = 0; lw = 0; ld = 2; }
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_add(&lf, 1.0f);
  atomic_inc_wrap(&lw, 5u);
  atomic_dec_wrap(&ld, 4u);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    f[3 + get_group_id(0)] = lf;
    w[2 + get_group_id(0)] = lw | (ld << 16);
  }
}
