#include "gcn.h"
/* All-pairs N-body gravity with LDS tiles of float4 (xyz + mass), leapfrog integration. */
#define TILE 128

kernel __attribute__((reqd_work_group_size(TILE, 1, 1)))
void nbody_step(global const float4 *pos, global float4 *vel, global float4 *newpos, int n, float dt, float eps2) {
  local float4 sh[TILE];
  int i = get_global_id(0), tid = get_local_id(0);
  float4 p = i < n ? pos[i] : (float4)(0.0f);
  float3 a = (float3)(0.0f);
  for (int t = 0; t < n; t += TILE) {
    sh[tid] = t + tid < n ? pos[t + tid] : (float4)(0.0f);
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll 8
    for (int j = 0; j < TILE; ++j) {
      float4 q = sh[j];
      float3 d = q.xyz - p.xyz;
      float r2 = dot(d, d) + eps2;
      float inv = rsqrt(r2);
      float s = q.w * inv * inv * inv;
      a += d * s;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (i < n) {
    float4 v = vel[i];
    v.xyz += a * dt;
    vel[i] = v;
    newpos[i] = (float4)(p.xyz + v.xyz * dt, p.w);
  }
}

kernel void kinetic_energy(global const float4 *vel, global const float4 *pos, int n, global float *energy) {
  int i = get_global_id(0);
  if (i < n) {
    float3 v = vel[i].xyz;
    atomic_add(energy, 0.5f * pos[i].w * dot(v, v));
  }
}
