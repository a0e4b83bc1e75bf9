#include "gcn.h"
/* The AMDGCN intrinsics without lanes that gcn.h gives a meaning on pocl. */
kernel void sad(global const uint *a, global const uint *b, global const uint *c, global uint *out) {
  uint i = get_global_id(0);
  __builtin_amdgcn_s_sleep(1);
  out[i] = __builtin_amdgcn_sad_u8(a[i], b[i], c[i]);
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "agent");
}
