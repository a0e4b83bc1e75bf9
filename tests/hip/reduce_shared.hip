// reduce_shared: two-pass sum reduction through __shared__ memory.
//
// Pass 1: each block sums a grid-stride slice of the input into a statically
// sized __shared__ array and halves it with __syncthreads() between steps;
// thread 0 writes the block's partial sum. Pass 2: a single block sums the
// partials the same way. Integer data makes the result exact (the per-block
// partials are checked too); a float variant checks the same code path with a
// tolerance.
#include <hip/hip_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define TEST_NAME "reduce_shared"

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

#define CHECK_LAUNCH() CHECK(hipGetLastError())

constexpr int kBlock = 256;  // threads per block; the shared arrays match it

// Sums in[0..n) with a grid-stride loop; block b writes partial[b].
template <typename T>
__global__ void __launch_bounds__(kBlock) block_sum(const T* in, T* partial, int n) {
    __shared__ T s[kBlock];
    const int tid = threadIdx.x;
    T acc = 0;
    for (int i = blockIdx.x * kBlock + tid; i < n; i += gridDim.x * kBlock) {
        acc += in[i];
    }
    s[tid] = acc;
    __syncthreads();
    for (int stride = kBlock / 2; stride > 0; stride >>= 1) {
        if (tid < stride) {
            s[tid] += s[tid + stride];
        }
        __syncthreads();
    }
    if (tid == 0) {
        partial[blockIdx.x] = s[0];
    }
}

// One block folds `count` partial sums (count may exceed the block size).
template <typename T>
__global__ void __launch_bounds__(kBlock) final_sum(const T* partial, T* out, int count) {
    __shared__ T s[kBlock];
    const int tid = threadIdx.x;
    T acc = 0;
    for (int i = tid; i < count; i += kBlock) {
        acc += partial[i];
    }
    s[tid] = acc;
    __syncthreads();
    for (int stride = kBlock / 2; stride > 0; stride >>= 1) {
        if (tid < stride) {
            s[tid] += s[tid + stride];
        }
        __syncthreads();
    }
    if (tid == 0) {
        *out = s[0];
    }
}

// Runs both passes; returns the device total and fills `partials`.
template <typename T>
static T reduce_on_device(const std::vector<T>& in, int grid, std::vector<T>& partials) {
    const int n = (int)in.size();
    T *d_in = nullptr, *d_partial = nullptr, *d_out = nullptr;
    CHECK(hipMalloc(&d_in, n * sizeof(T)));
    CHECK(hipMalloc(&d_partial, grid * sizeof(T)));
    CHECK(hipMalloc(&d_out, sizeof(T)));
    CHECK(hipMemcpy(d_in, in.data(), n * sizeof(T), hipMemcpyHostToDevice));
    block_sum<T><<<grid, kBlock>>>(d_in, d_partial, n);
    CHECK_LAUNCH();
    final_sum<T><<<1, kBlock>>>(d_partial, d_out, grid);
    CHECK_LAUNCH();
    CHECK(hipDeviceSynchronize());
    T total = 0;
    partials.assign(grid, 0);
    CHECK(hipMemcpy(partials.data(), d_partial, grid * sizeof(T), hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(&total, d_out, sizeof(T), hipMemcpyDeviceToHost));
    CHECK(hipFree(d_in));
    CHECK(hipFree(d_partial));
    CHECK(hipFree(d_out));
    return total;
}

int main() {
    // n is not a multiple of kBlock. 300 blocks of 256 threads give each thread
    // two or three elements in pass 1, and pass 2 has more partials (300) than
    // threads, so both grid-stride loops iterate.
    const int n = 3 * 65536 + 123;
    const int grid = 300;

    // --- int: exact ---
    std::vector<int> xi(n);
    for (int i = 0; i < n; ++i) {
        xi[i] = (int)((uint32_t)i * 2654435761u % 2001u) - 1000;  // in [-1000, 1000]
    }
    std::vector<int> parts_i;
    int got_i = reduce_on_device(xi, grid, parts_i);

    // Host model of the grid-stride partition: block b owns elements
    // i with (i / kBlock) % grid == b.
    std::vector<long long> want_parts(grid, 0);
    long long want_i = 0;
    for (int i = 0; i < n; ++i) {
        want_parts[(i / kBlock) % grid] += xi[i];
        want_i += xi[i];
    }
    for (int b = 0; b < grid; ++b) {
        if ((long long)parts_i[b] != want_parts[b]) {
            printf("FAIL " TEST_NAME ": int partial[%d] got %d, want %lld\n", b, parts_i[b],
                   want_parts[b]);
            return 1;
        }
    }
    if ((long long)got_i != want_i) {
        printf("FAIL " TEST_NAME ": int total got %d, want %lld\n", got_i, want_i);
        return 1;
    }

    // --- float: tolerance ---
    std::vector<float> xf(n);
    for (int i = 0; i < n; ++i) {
        xf[i] = (float)((i * 37) % 1000) / 997.0f + 0.001f * (float)(i % 7);
    }
    std::vector<float> parts_f;
    float got_f = reduce_on_device(xf, grid, parts_f);
    double want_f = 0.0;
    for (int i = 0; i < n; ++i) {
        want_f += (double)xf[i];
    }
    // The device adds in a different order than the host (per-thread strided
    // sums, then two trees) and in float, while the host sums in double. With
    // all terms positive the relative error of a float summation is bounded by
    // about (additions along the longest path) * 2^-24: 3 + 8 + 2 + 8 = 21
    // additions, ~1.3e-6. 2e-5 leaves margin while still catching a lost or
    // doubled block (1/300 of the total, 3.3e-3).
    const double rel_tol = 2e-5;
    double rel_err = std::fabs((double)got_f - want_f) / want_f;
    if (!(rel_err <= rel_tol)) {
        printf("FAIL " TEST_NAME ": float total got %.9g, want %.9g (relative error %.3g > %.1g)\n",
               got_f, want_f, rel_err, rel_tol);
        return 1;
    }

    printf("PASS " TEST_NAME ": int sum of %d elements exact (%d, %d partials exact), "
           "float sum within %.0e (relative error %.2e)\n",
           n, got_i, grid, rel_tol, rel_err);
    return 0;
}
