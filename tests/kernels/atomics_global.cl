#include "gcn.h"
/* Global atomics in realistic patterns: counters, lock-free lists, ring buffers, spin locks. */

kernel void atomic_counters(global const int *v, uint n, global int *stats /* sum,min,max,count */) {
  uint i = get_global_id(0);
  if (i >= n)
    return;
  int x = v[i];
  atomic_add(&stats[0], x);
  atomic_min(&stats[1], x);
  atomic_max(&stats[2], x);
  if (x & 1)
    atomic_inc(&stats[3]);
}

kernel void atomic_bitsets(global const uint *keys, uint n, global uint *set_bits, global uint *parity) {
  uint i = get_global_id(0);
  if (i < n) {
    uint k = keys[i];
    atomic_or(&set_bits[k >> 5], 1u << (k & 31));
    atomic_xor(&parity[(k >> 10) & 255], k);
    atomic_and(&set_bits[(k >> 5) ^ 1], ~(1u << ((k + 7) & 31)));
  }
}

/* push onto a lock-free singly linked list: head holds index+1, next[] links */
kernel void list_push(global int *head, global int *next, uint n) {
  int me = get_global_id(0);
  if (me >= (int)n)
    return;
  int old = *head;
  for (;;) {
    next[me] = old;
    int seen = atomic_cmpxchg(head, old, me + 1);
    if (seen == old)
      break;
    old = seen;
  }
}

/* ring buffer producer with wrapping increment, consumer with wrapping decrement */
kernel void ring_buffer(global uint *wr, global uint *rd, global float *ring, uint cap, global const float *src) {
  uint i = get_global_id(0);
  uint slot = atomic_inc_wrap(wr, cap - 1);
  ring[slot] = src[i];
  if (i % 3 == 0)
    atomic_dec_wrap(rd, cap - 1);
}

/* a test-and-set spin lock guarding a 64-bit update; one lane per wave takes the lock */
kernel void spinlock_update(global int *lock, global ulong *acc, global const ulong *vals) {
  uint i = get_global_id(0);
  ulong v = vals[i];
  if (gcn_lane_id() == 0) {
    while (atomic_xchg(lock, 1) != 0)
      __builtin_amdgcn_s_sleep(2);
    *acc = *acc * 31 + v;
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "agent");
    atomic_xchg(lock, 0);
  }
}

kernel void atomic_u64(global ulong *hi_water, global ulong *sum, global long *signed_min, global const long *v) {
  uint i = get_global_id(0);
  long x = v[i];
  atomic_max(hi_water, (ulong)x);
  atomic_add(sum, (ulong)x);
  atomic_min(signed_min, x);
  atomic_inc_wrap(hi_water + 1, (ulong)1000);
  atomic_cmpxchg(sum + 1, (ulong)0, (ulong)x);
}
