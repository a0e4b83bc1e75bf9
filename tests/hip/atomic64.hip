// atomic64: aligned 64-bit loads and stores are single-copy atomic.
//
// Work-groups alternate between a writer, whose lane 0 stores k << 32 | k with
// relaxed 64-bit atomic stores (global_store_dwordx2), and a reader, whose lane 0
// loads the same word with relaxed 64-bit atomic loads (global_load_dwordx2) and
// counts values whose halves differ. The GPU never tears an aligned 64-bit access,
// and code relies on it: rocPRIM's decoupled look-back publishes a block's status
// flag and prefix in one 64-bit word. Expected: no torn value, and the final value
// is the last one a writer stored.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>

#define TEST_NAME "atomic64"

#define CHECK(call)                                                                   \
    do {                                                                              \
        hipError_t check_err_ = (call);                                               \
        if (check_err_ != hipSuccess) {                                               \
            printf("FAIL " TEST_NAME ": %s:%d: %s returned %s (%s)\n", __FILE__,        \
                   __LINE__, #call, hipGetErrorName(check_err_),                      \
                   hipGetErrorString(check_err_));                                    \
            exit(1);                                                                  \
        }                                                                             \
    } while (0)

__global__ void tear(unsigned long long* p, unsigned* torn, unsigned* loads, int iters) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x % 2 == 0) {
        for (unsigned k = 1; k <= (unsigned)iters; ++k)
            __hip_atomic_store(p, (unsigned long long)k << 32 | k, __ATOMIC_RELAXED,
                               __HIP_MEMORY_SCOPE_AGENT);
    } else {
        unsigned n = 0;
        for (int k = 0; k < iters; ++k) {
            unsigned long long v =
                __hip_atomic_load(p, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
            n += (unsigned)v != (unsigned)(v >> 32);
        }
        atomicAdd(torn, n);
        atomicAdd(loads, (unsigned)iters);
    }
}

int main() {
    const int groups = 8, iters = 200000;
    unsigned long long* p;
    unsigned *torn, *loads;
    CHECK(hipMalloc(&p, 8));
    CHECK(hipMalloc(&torn, 4));
    CHECK(hipMalloc(&loads, 4));
    CHECK(hipMemset(p, 0, 8));
    CHECK(hipMemset(torn, 0, 4));
    CHECK(hipMemset(loads, 0, 4));
    tear<<<groups, 64>>>(p, torn, loads, iters);
    CHECK(hipGetLastError());
    CHECK(hipDeviceSynchronize());
    unsigned long long last = 0;
    unsigned h_torn = 0, h_loads = 0;
    CHECK(hipMemcpy(&last, p, 8, hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(&h_torn, torn, 4, hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(&h_loads, loads, 4, hipMemcpyDeviceToHost));
    const unsigned long long want = (unsigned long long)iters << 32 | (unsigned)iters;
    if (h_torn != 0) {
        printf("FAIL " TEST_NAME ": %u of %u 64-bit loads saw halves of different stores\n",
               h_torn, h_loads);
        return 1;
    }
    if (last != want) {
        printf("FAIL " TEST_NAME ": final value %#llx, want %#llx\n", last, want);
        return 1;
    }
    printf("PASS " TEST_NAME ": %u 64-bit loads racing %d writers' %d stores each, none torn\n",
           h_loads, groups / 2, iters);
    return 0;
}
