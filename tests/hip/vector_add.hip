// vector_add: the basic HIP runtime path.
//
// Device queries (hipGetDeviceCount, hipSetDevice, hipGetDevice,
// hipGetDeviceProperties, hipRuntimeGetVersion, hipDriverGetVersion), then
// c = a + b over n elements where n is not a multiple of the block size, so
// the last block has threads that must fail the bounds check. The output
// buffer is allocated with a guard tail filled with a sentinel; the guard
// must be untouched afterwards. A second kernel writes the processor name the
// code object was compiled for (__amdgcn_processor__) and warpSize, which must
// agree with what hipGetDeviceProperties reports.
#include <hip/hip_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define TEST_NAME "vector_add"

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

// A kernel launch reports configuration errors through hipGetLastError.
#define CHECK_LAUNCH() CHECK(hipGetLastError())

__global__ void vector_add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}

// One thread writes the compile-time processor name and the wavefront size.
__global__ void report_target(char* name, int* wave) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
#if defined(__HIP_DEVICE_COMPILE__)
        const char* p = __amdgcn_processor__;  // e.g. "gfx90a"
#else
        const char* p = "";  // the host pass never runs this body
#endif
        int k = 0;
        for (; p[k] != '\0' && k < 31; ++k) {
            name[k] = p[k];
        }
        name[k] = '\0';
        *wave = warpSize;
    }
}

int main() {
    int count = 0;
    CHECK(hipGetDeviceCount(&count));
    if (count < 1) {
        printf("FAIL " TEST_NAME ": hipGetDeviceCount got %d, want >= 1\n", count);
        return 1;
    }
    CHECK(hipSetDevice(0));
    int dev = -1;
    CHECK(hipGetDevice(&dev));
    if (dev != 0) {
        printf("FAIL " TEST_NAME ": hipGetDevice got %d, want 0\n", dev);
        return 1;
    }

    hipDeviceProp_t prop;
    memset(&prop, 0, sizeof(prop));
    CHECK(hipGetDeviceProperties(&prop, 0));
    int runtime_version = 0, driver_version = 0;
    CHECK(hipRuntimeGetVersion(&runtime_version));
    CHECK(hipDriverGetVersion(&driver_version));
    printf("device 0: name=\"%s\" gcnArchName=\"%s\" warpSize=%d sharedMemPerBlock=%zu "
           "multiProcessorCount=%d maxThreadsPerBlock=%d totalGlobalMem=%zu\n",
           prop.name, prop.gcnArchName, prop.warpSize, prop.sharedMemPerBlock,
           prop.multiProcessorCount, prop.maxThreadsPerBlock, prop.totalGlobalMem);
    printf("runtime version %d, driver version %d, devices %d\n", runtime_version,
           driver_version, count);

    if (prop.warpSize != 64) {
        printf("FAIL " TEST_NAME ": prop.warpSize got %d, want 64\n", prop.warpSize);
        return 1;
    }
    if (prop.sharedMemPerBlock == 0 || prop.multiProcessorCount <= 0 ||
        prop.maxThreadsPerBlock < 256 || prop.totalGlobalMem == 0) {
        printf("FAIL " TEST_NAME ": implausible properties: sharedMemPerBlock=%zu "
               "multiProcessorCount=%d maxThreadsPerBlock=%d totalGlobalMem=%zu\n",
               prop.sharedMemPerBlock, prop.multiProcessorCount, prop.maxThreadsPerBlock,
               prop.totalGlobalMem);
        return 1;
    }
    if (runtime_version <= 0 || driver_version <= 0) {
        printf("FAIL " TEST_NAME ": versions got runtime=%d driver=%d, want > 0\n",
               runtime_version, driver_version);
        return 1;
    }

    // The code object's processor must be the one the device reports
    // (gcnArchName may carry feature suffixes such as ":sramecc+:xnack-").
    char* d_name = nullptr;
    int* d_wave = nullptr;
    CHECK(hipMalloc(&d_name, 32));
    CHECK(hipMalloc(&d_wave, sizeof(int)));
    CHECK(hipMemset(d_name, 0, 32));
    report_target<<<1, 64>>>(d_name, d_wave);
    CHECK_LAUNCH();
    char name[32] = {0};
    int wave = 0;
    CHECK(hipMemcpy(name, d_name, 32, hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(&wave, d_wave, sizeof(int), hipMemcpyDeviceToHost));
    name[31] = '\0';
    size_t name_len = strlen(name);
    if (name_len == 0 || strncmp(prop.gcnArchName, name, name_len) != 0 ||
        (prop.gcnArchName[name_len] != '\0' && prop.gcnArchName[name_len] != ':')) {
        printf("FAIL " TEST_NAME ": code object processor \"%s\" does not match "
               "gcnArchName \"%s\"\n", name, prop.gcnArchName);
        return 1;
    }
    if (wave != 64) {
        printf("FAIL " TEST_NAME ": device warpSize got %d, want 64\n", wave);
        return 1;
    }

    // n is deliberately not a multiple of the block size.
    const int n = 100003;
    const int block = 256;
    const int grid = (n + block - 1) / block;
    const int guard = 1024;  // elements past n that no thread may write
    const float sentinel = -12345.5f;

    std::vector<float> a(n), b(n), c(n + guard, 0.0f);
    for (int i = 0; i < n; ++i) {
        a[i] = (float)(i % 1000) * 0.5f;
        b[i] = (float)((i * 7) % 333) - 100.25f;
    }
    std::vector<float> init(n + guard, sentinel);

    float *d_a = nullptr, *d_b = nullptr, *d_c = nullptr;
    CHECK(hipMalloc(&d_a, n * sizeof(float)));
    CHECK(hipMalloc(&d_b, n * sizeof(float)));
    CHECK(hipMalloc(&d_c, (n + guard) * sizeof(float)));
    CHECK(hipMemcpy(d_a, a.data(), n * sizeof(float), hipMemcpyHostToDevice));
    CHECK(hipMemcpy(d_b, b.data(), n * sizeof(float), hipMemcpyHostToDevice));
    CHECK(hipMemcpy(d_c, init.data(), (n + guard) * sizeof(float), hipMemcpyHostToDevice));

    vector_add<<<grid, block>>>(d_a, d_b, d_c, n);
    CHECK_LAUNCH();
    CHECK(hipDeviceSynchronize());
    CHECK(hipMemcpy(c.data(), d_c, (n + guard) * sizeof(float), hipMemcpyDeviceToHost));

    // A single IEEE-754 addition is correctly rounded on host and device alike,
    // so the comparison is exact.
    for (int i = 0; i < n; ++i) {
        float want = a[i] + b[i];
        if (c[i] != want) {
            printf("FAIL " TEST_NAME ": c[%d] got %.9g, want %.9g\n", i, c[i], want);
            return 1;
        }
    }
    for (int i = n; i < n + guard; ++i) {
        if (c[i] != sentinel) {
            printf("FAIL " TEST_NAME ": guard c[%d] got %.9g, want %.9g (out-of-bounds write)\n",
                   i, c[i], sentinel);
            return 1;
        }
    }

    CHECK(hipFree(d_a));
    CHECK(hipFree(d_b));
    CHECK(hipFree(d_c));
    CHECK(hipFree(d_name));
    CHECK(hipFree(d_wave));

    printf("PASS " TEST_NAME ": %d sums (grid %d x block %d), %d guard elements untouched, "
           "target %s, warpSize %d\n", n, grid, block, guard, name, wave);
    return 0;
}
