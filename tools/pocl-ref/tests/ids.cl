#include "gcn.h"
/* Every work-item writes what the work-item functions tell it, so that the runner's test can
 * check them against the launch, also when the grid has partial work-groups (split enqueues). */
kernel void ids(global uint *out, uint2 v, local uint *scratch) {
  size_t x = get_global_id(0) - get_global_offset(0);
  size_t y = get_global_id(1) - get_global_offset(1);
  size_t z = get_global_id(2) - get_global_offset(2);
  size_t idx = ((z * get_global_size(1) + y) * get_global_size(0) + x) * 8;
  /* local memory of the enqueued group size: the partial group must fit in it too */
  size_t lid = (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0) + get_local_id(0);
  scratch[lid] = (uint)lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[idx + 0] = get_group_id(0) | (get_group_id(1) << 10) | (get_group_id(2) << 20);
  out[idx + 1] = get_num_groups(0) | (get_num_groups(1) << 10) | (get_num_groups(2) << 20);
  out[idx + 2] = get_global_size(0) | (get_global_size(1) << 10) | (get_global_size(2) << 20);
  out[idx + 3] = get_local_size(0) | (get_local_size(1) << 10) | (get_local_size(2) << 20);
  out[idx + 4] = get_global_offset(0) | (get_global_offset(1) << 10) | (get_global_offset(2) << 20);
  out[idx + 5] = get_local_id(0) | (get_local_id(1) << 10) | (get_local_id(2) << 20);
  out[idx + 6] = v.x * 1000 + v.y + scratch[lid] - (uint)lid;
  out[idx + 7] = gcn_lane_id() | (get_work_dim() << 16);
}
