// dynamic_shared: `extern __shared__` memory sized at launch time.
//
//  - block_reverse: each block reverses its segment in dynamic shared memory;
//    run for several block sizes (64 .. 1024), the last block partial;
//  - tile_reverse: 256 threads reverse a tile much larger than the block (32
//    elements per thread); the tile size is chosen at run time from
//    hipDeviceAttributeMaxSharedMemoryPerBlock (capped at 32 KiB);
//  - block_scan: Hillis-Steele inclusive scan with two dynamic buffers
//    (2 * blockDim ints), launched with hipLaunchKernelGGL's sharedMemBytes;
//  - mixed_shared: a static __shared__ counter next to a dynamic buffer carved
//    into doubles and ints, launched with the hipLaunchKernel API (argument
//    pointer array + sharedMemBytes), so dynamic memory must start after the
//    kernel's static allocation.
#include <hip/hip_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define TEST_NAME "dynamic_shared"

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

__global__ void block_reverse(const int* in, int* out, int n) {
    extern __shared__ int rev_buf[];
    const int base = blockIdx.x * blockDim.x;
    const int t = threadIdx.x;
    const int count = min((int)blockDim.x, n - base);  // valid elements in this block
    if (t < count) {
        rev_buf[t] = in[base + t];
    }
    __syncthreads();
    if (t < count) {
        out[base + t] = rev_buf[count - 1 - t];
    }
}

// Each block reverses one tile of `tile` elements (the last tile may be short).
__global__ void tile_reverse(const int* in, int* out, int n, int tile) {
    extern __shared__ int tile_buf[];
    const int base = blockIdx.x * tile;
    const int count = min(tile, n - base);
    for (int k = threadIdx.x; k < count; k += blockDim.x) {
        tile_buf[k] = in[base + k];
    }
    __syncthreads();
    for (int k = threadIdx.x; k < count; k += blockDim.x) {
        out[base + k] = tile_buf[count - 1 - k];
    }
}

// Inclusive scan of each block's segment; 2 * blockDim.x ints of dynamic memory.
__global__ void block_scan(const int* in, int* out, int n) {
    extern __shared__ int scan_buf[];
    int* cur = scan_buf;
    int* nxt = scan_buf + blockDim.x;
    const int t = threadIdx.x;
    const int i = blockIdx.x * blockDim.x + t;
    cur[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int offset = 1; offset < (int)blockDim.x; offset <<= 1) {
        nxt[t] = t >= offset ? cur[t] + cur[t - offset] : cur[t];
        __syncthreads();
        int* tmp = cur;
        cur = nxt;
        nxt = tmp;
    }
    if (i < n) {
        out[i] = cur[t];
    }
}

// Dynamic layout: blockDim.x doubles, then blockDim.x ints.
__global__ void mixed_shared(const int* in, double* out, int* positives, int n) {
    __shared__ int s_positive;  // static allocation, placed before the dynamic one
    extern __shared__ double dyn[];
    double* dbuf = dyn;
    int* ibuf = reinterpret_cast<int*>(dyn + blockDim.x);
    const int t = threadIdx.x;
    const int i = blockIdx.x * blockDim.x + t;
    if (t == 0) {
        s_positive = 0;
    }
    const int v = i < n ? in[i] : 0;
    dbuf[t] = (double)v * 0.25;
    ibuf[t] = v * 3;
    __syncthreads();
    if (v > 0) {
        atomicAdd(&s_positive, 1);
    }
    if (i < n) {
        const int r = blockDim.x - 1 - t;
        out[i] = dbuf[r] + (double)ibuf[(t + 1) % blockDim.x];
    }
    __syncthreads();
    if (t == 0) {
        positives[blockIdx.x] = s_positive;
    }
}

static int value_at(int i) { return (int)(((unsigned)i * 2246822519u) >> 20) % 2001 - 1000; }

int main() {
    const int n = 50000 + 13;
    std::vector<int> in(n), out(n);
    for (int i = 0; i < n; ++i) {
        in[i] = value_at(i);
    }
    int *d_in = nullptr, *d_out = nullptr;
    CHECK(hipMalloc(&d_in, n * sizeof(int)));
    CHECK(hipMalloc(&d_out, n * sizeof(int)));
    CHECK(hipMemcpy(d_in, in.data(), n * sizeof(int), hipMemcpyHostToDevice));
    int launches = 0;

    // --- block_reverse for several block sizes ---
    const int sizes[] = {64, 192, 448, 1024};
    for (int block : sizes) {
        const int grid = (n + block - 1) / block;
        CHECK(hipMemset(d_out, 0, n * sizeof(int)));
        block_reverse<<<grid, block, block * sizeof(int)>>>(d_in, d_out, n);
        CHECK_LAUNCH();
        ++launches;
        CHECK(hipMemcpy(out.data(), d_out, n * sizeof(int), hipMemcpyDeviceToHost));
        for (int i = 0; i < n; ++i) {
            const int base = i / block * block;
            const int count = n - base < block ? n - base : block;
            const int want = in[base + count - 1 - (i - base)];
            if (out[i] != want) {
                printf("FAIL " TEST_NAME ": block_reverse (block %d, %zu bytes) out[%d] got %d, "
                       "want %d\n", block, block * sizeof(int), i, out[i], want);
                return 1;
            }
        }
    }

    // --- tile_reverse with a run-time tile size ---
    int max_shared = 0;
    CHECK(hipDeviceGetAttribute(&max_shared, hipDeviceAttributeMaxSharedMemoryPerBlock, 0));
    if (max_shared < 16 * 1024) {
        printf("FAIL " TEST_NAME ": hipDeviceAttributeMaxSharedMemoryPerBlock got %d, want >= "
               "16384\n", max_shared);
        return 1;
    }
    const int tile = (max_shared < 32 * 1024 ? max_shared : 32 * 1024) / (int)sizeof(int);
    {
        const int grid = (n + tile - 1) / tile;
        CHECK(hipMemset(d_out, 0, n * sizeof(int)));
        hipLaunchKernelGGL(tile_reverse, dim3(grid), dim3(256), tile * sizeof(int), 0, d_in,
                           d_out, n, tile);
        CHECK_LAUNCH();
        ++launches;
        CHECK(hipMemcpy(out.data(), d_out, n * sizeof(int), hipMemcpyDeviceToHost));
        for (int i = 0; i < n; ++i) {
            const int base = i / tile * tile;
            const int count = n - base < tile ? n - base : tile;
            const int want = in[base + count - 1 - (i - base)];
            if (out[i] != want) {
                printf("FAIL " TEST_NAME ": tile_reverse (tile %d ints) out[%d] got %d, want %d\n",
                       tile, i, out[i], want);
                return 1;
            }
        }
    }

    // --- block_scan through hipLaunchKernelGGL with sharedMemBytes ---
    const int scan_sizes[] = {256, 1024};
    for (int block : scan_sizes) {
        const int grid = (n + block - 1) / block;
        const size_t shmem = 2 * block * sizeof(int);
        CHECK(hipMemset(d_out, 0, n * sizeof(int)));
        hipLaunchKernelGGL(block_scan, dim3(grid), dim3(block), shmem, 0, d_in, d_out, n);
        CHECK_LAUNCH();
        ++launches;
        CHECK(hipMemcpy(out.data(), d_out, n * sizeof(int), hipMemcpyDeviceToHost));
        int run = 0;
        for (int i = 0; i < n; ++i) {
            run = (i % block == 0) ? in[i] : run + in[i];
            if (out[i] != run) {
                printf("FAIL " TEST_NAME ": block_scan (block %d, %zu bytes) out[%d] got %d, "
                       "want %d\n", block, shmem, i, out[i], run);
                return 1;
            }
        }
    }

    // --- mixed static + dynamic through the hipLaunchKernel API ---
    {
        const int block = 320;  // five waves
        const int grid = (n + block - 1) / block;
        const size_t shmem = block * (sizeof(double) + sizeof(int));
        double* d_dout = nullptr;
        int* d_pos = nullptr;
        CHECK(hipMalloc(&d_dout, n * sizeof(double)));
        CHECK(hipMalloc(&d_pos, grid * sizeof(int)));
        int n_arg = n;
        void* args[] = {&d_in, &d_dout, &d_pos, &n_arg};
        CHECK(hipLaunchKernel(reinterpret_cast<const void*>(&mixed_shared), dim3(grid),
                              dim3(block), args, shmem, nullptr));
        ++launches;
        CHECK(hipDeviceSynchronize());
        std::vector<double> dout(n);
        std::vector<int> pos(grid);
        CHECK(hipMemcpy(dout.data(), d_dout, n * sizeof(double), hipMemcpyDeviceToHost));
        CHECK(hipMemcpy(pos.data(), d_pos, grid * sizeof(int), hipMemcpyDeviceToHost));
        for (int b = 0; b < grid; ++b) {
            int want_pos = 0;
            for (int t = 0; t < block; ++t) {
                const int i = b * block + t;
                if (i < n && in[i] > 0) ++want_pos;
            }
            if (pos[b] != want_pos) {
                printf("FAIL " TEST_NAME ": mixed_shared positives[%d] got %d, want %d\n", b,
                       pos[b], want_pos);
                return 1;
            }
            for (int t = 0; t < block; ++t) {
                const int i = b * block + t;
                if (i >= n) break;
                // Lanes past n loaded 0; quarters of small integers are exact.
                const int ir = b * block + (block - 1 - t);
                const int in1 = b * block + (t + 1) % block;
                const double want = (ir < n ? in[ir] : 0) * 0.25 + (double)((in1 < n ? in[in1] : 0) * 3);
                if (dout[i] != want) {
                    printf("FAIL " TEST_NAME ": mixed_shared out[%d] got %.17g, want %.17g\n", i,
                           dout[i], want);
                    return 1;
                }
            }
        }
        CHECK(hipFree(d_dout));
        CHECK(hipFree(d_pos));
    }

    CHECK(hipFree(d_in));
    CHECK(hipFree(d_out));
    printf("PASS " TEST_NAME ": %d launches over %d elements: block_reverse (blocks 64-1024), "
           "tile_reverse (%d-int tile), block_scan (blocks 256, 1024), static + dynamic "
           "shared via hipLaunchKernel\n", launches, n, tile);
    return 0;
}
