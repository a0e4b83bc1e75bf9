// fault: a kernel fault is an error the program sees, and the runtime goes on working.
//
// A kernel stores through a pointer to memory that is not allocated; the launch
// (or the synchronisation after it) must return hipErrorIllegalAddress, which
// hipGetLastError then also reports. Then an out-of-range launch configuration
// (a block of 2,048 threads) must be refused with hipErrorInvalidConfiguration,
// an unknown stream handle with an error, and an ordinary kernel must still run
// and give the right result.
#include <hip/hip_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define TEST_NAME "fault"

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

__global__ void store_to(int* p, int v) {
    p[threadIdx.x] = v;
}

__global__ void square(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * in[i];
}

int main() {
    // 1. A store to an address no allocation covers.
    int* wild = reinterpret_cast<int*>(uintptr_t{0x7000000000});
    store_to<<<1, 64>>>(wild, 1);
    hipError_t launch = hipGetLastError();
    hipError_t sync = hipDeviceSynchronize();
    hipError_t seen = launch != hipSuccess ? launch : sync;
    if (seen != hipErrorIllegalAddress) {
        printf("FAIL " TEST_NAME ": a store to %p gave %s/%s, want hipErrorIllegalAddress\n",
               (void*)wild, hipGetErrorName(launch), hipGetErrorName(sync));
        return 1;
    }

    // 2. A block larger than any device allows.
    int* buf;
    CHECK(hipMalloc(&buf, 4096 * sizeof(int)));
    store_to<<<1, 2048>>>(buf, 2);
    hipError_t big = hipGetLastError();
    if (big != hipErrorInvalidConfiguration) {
        printf("FAIL " TEST_NAME ": a 2048-thread block gave %s, want hipErrorInvalidConfiguration\n",
               hipGetErrorName(big));
        return 1;
    }

    // 3. An unknown stream.
    hipError_t bad_stream = hipStreamSynchronize(reinterpret_cast<hipStream_t>(uintptr_t{0x12345678}));
    if (bad_stream == hipSuccess) {
        printf("FAIL " TEST_NAME ": synchronising an unknown stream succeeded\n");
        return 1;
    }

    // 4. The runtime still works.
    const int n = 5000;
    std::vector<int> in(n), out(n);
    for (int i = 0; i < n; ++i) in[i] = i - 2500;
    int *d_in, *d_out;
    CHECK(hipMalloc(&d_in, n * sizeof(int)));
    CHECK(hipMalloc(&d_out, n * sizeof(int)));
    CHECK(hipMemcpy(d_in, in.data(), n * sizeof(int), hipMemcpyHostToDevice));
    square<<<(n + 127) / 128, 128>>>(d_in, d_out, n);
    CHECK(hipGetLastError());
    CHECK(hipDeviceSynchronize());
    CHECK(hipMemcpy(out.data(), d_out, n * sizeof(int), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
        if (out[i] != in[i] * in[i]) {
            printf("FAIL " TEST_NAME ": square[%d] got %d, want %d\n", i, out[i], in[i] * in[i]);
            return 1;
        }
    }
    CHECK(hipFree(buf));
    CHECK(hipFree(d_in));
    CHECK(hipFree(d_out));
    printf("PASS " TEST_NAME ": wild store -> %s, 2048-thread block -> %s, unknown stream -> %s; "
           "then %d squares right\n",
           hipGetErrorName(seen), hipGetErrorName(big), hipGetErrorName(bad_stream), n);
    return 0;
}
