#include "gcn.h"
/* The AMDGCN intrinsics without lanes that gcn.h gives a meaning on pocl. */
kernel void sad(global const uint *a, global const uint *b, global const uint *c, global uint *out) {
  uint i = get_global_id(0);
  __builtin_amdgcn_s_sleep(1);
  out[i] = __builtin_amdgcn_sad_u8(a[i], b[i], c[i]);
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "agent");
}

/* A struct by value (the proposed "struct" argument kind): a at 0, b at 4, c at 8, d at 16,
 * 24 bytes in all. */
typedef struct { float a; int b; double c; ushort2 d; } s_t;
kernel void st(s_t s, global double *out) {
  out[0] = s.a; out[1] = s.b; out[2] = s.c; out[3] = s.d.x; out[4] = s.d.y;
}
