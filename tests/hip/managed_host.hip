// managed_host: memory the host and the device share, and memory queries.
//
//  - hipMallocManaged: written on the host, updated in place by a kernel (a
//    2-D grid over a matrix), read on the host after hipDeviceSynchronize, then
//    written on the host again and read by a second kernel;
//  - hipHostMalloc(hipHostMallocDefault) + hipHostGetDevicePointer: a kernel
//    reads and writes pinned host memory through the device pointer;
//  - hipMemcpy with hipMemcpyDefault (direction inferred from the pointers):
//    host->device, device->device, device->host, device->managed;
//  - hipMemGetInfo: 0 < total, free <= total;
//  - hipPointerGetAttributes: a hipMalloc pointer is device memory
//    (memoryType hipMemoryTypeDevice, device 0, devicePointer == pointer); a
//    hipHostMalloc pointer is host memory whose hostPointer is itself.
#include <hip/hip_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define TEST_NAME "managed_host"

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

// m[r][c] = 2 * m[r][c] + r - c over a rows x cols matrix (row pitch = cols).
__global__ void update_matrix(int* m, int rows, int cols) {
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    const int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) {
        int* p = m + (size_t)r * cols + c;
        *p = 2 * *p + r - c;
    }
}

// dst[i] = src[i] ^ key, dst and src may both be host-mapped memory.
__global__ void xor_copy(const unsigned* src, unsigned* dst, int n, unsigned key) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        dst[i] = src[i] ^ key;
    }
}

int main() {
    // --- hipMemGetInfo ---
    size_t free_bytes = 0, total_bytes = 0;
    CHECK(hipMemGetInfo(&free_bytes, &total_bytes));
    if (total_bytes == 0 || free_bytes > total_bytes) {
        printf("FAIL " TEST_NAME ": hipMemGetInfo got free=%zu total=%zu, want 0 < total and "
               "free <= total\n", free_bytes, total_bytes);
        return 1;
    }

    // --- managed memory ---
    const int rows = 97, cols = 211;
    const int mn = rows * cols;
    int* m = nullptr;
    CHECK(hipMallocManaged(&m, mn * sizeof(int)));
    for (int i = 0; i < mn; ++i) {
        m[i] = (i * 13) % 1000 - 500;  // host writes managed memory directly
    }
    dim3 block(32, 8);
    dim3 grid((cols + block.x - 1) / block.x, (rows + block.y - 1) / block.y);
    update_matrix<<<grid, block>>>(m, rows, cols);
    CHECK_LAUNCH();
    CHECK(hipDeviceSynchronize());
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
            const int i = r * cols + c;
            const int want = 2 * ((i * 13) % 1000 - 500) + r - c;
            if (m[i] != want) {
                printf("FAIL " TEST_NAME ": managed m[%d][%d] after kernel got %d, want %d\n", r,
                       c, m[i], want);
                return 1;
            }
        }
    }
    // Host writes again; a second launch must see the new values.
    for (int i = 0; i < mn; ++i) {
        m[i] = i;
    }
    update_matrix<<<grid, block>>>(m, rows, cols);
    CHECK_LAUNCH();
    CHECK(hipDeviceSynchronize());
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
            const int i = r * cols + c;
            const int want = 2 * i + r - c;
            if (m[i] != want) {
                printf("FAIL " TEST_NAME ": managed m[%d][%d] after second kernel got %d, want "
                       "%d\n", r, c, m[i], want);
                return 1;
            }
        }
    }

    // --- pinned host memory used by a kernel through its device pointer ---
    const int hn = 30000;
    unsigned* h_src = nullptr;
    unsigned* h_dst = nullptr;
    CHECK(hipHostMalloc(&h_src, hn * sizeof(unsigned), hipHostMallocDefault));
    CHECK(hipHostMalloc(&h_dst, hn * sizeof(unsigned), hipHostMallocDefault));
    for (int i = 0; i < hn; ++i) {
        h_src[i] = (unsigned)i * 2654435761u;
        h_dst[i] = 0;
    }
    unsigned* dp_src = nullptr;
    unsigned* dp_dst = nullptr;
    CHECK(hipHostGetDevicePointer(reinterpret_cast<void**>(&dp_src), h_src, 0));
    CHECK(hipHostGetDevicePointer(reinterpret_cast<void**>(&dp_dst), h_dst, 0));
    const unsigned key = 0xC3A5F00Fu;
    xor_copy<<<16, 256>>>(dp_src, dp_dst, hn, key);
    CHECK_LAUNCH();
    CHECK(hipDeviceSynchronize());
    for (int i = 0; i < hn; ++i) {
        const unsigned want = ((unsigned)i * 2654435761u) ^ key;
        if (h_dst[i] != want) {
            printf("FAIL " TEST_NAME ": pinned h_dst[%d] got 0x%08x, want 0x%08x\n", i, h_dst[i],
                   want);
            return 1;
        }
    }

    // --- hipMemcpy with hipMemcpyDefault ---
    unsigned *d_a = nullptr, *d_b = nullptr;
    CHECK(hipMalloc(&d_a, hn * sizeof(unsigned)));
    CHECK(hipMalloc(&d_b, hn * sizeof(unsigned)));
    std::vector<unsigned> host(hn), back(hn, 0);
    for (int i = 0; i < hn; ++i) {
        host[i] = 0x10000000u + (unsigned)i * 7u;
    }
    CHECK(hipMemcpy(d_a, host.data(), hn * sizeof(unsigned), hipMemcpyDefault));  // H->D
    CHECK(hipMemcpy(d_b, d_a, hn * sizeof(unsigned), hipMemcpyDefault));           // D->D
    xor_copy<<<16, 256>>>(d_b, d_a, hn, key);                                      // d_a = d_b ^ key
    CHECK_LAUNCH();
    CHECK(hipMemcpy(back.data(), d_a, hn * sizeof(unsigned), hipMemcpyDefault));   // D->H
    for (int i = 0; i < hn; ++i) {
        const unsigned want = host[i] ^ key;
        if (back[i] != want) {
            printf("FAIL " TEST_NAME ": hipMemcpyDefault round trip [%d] got 0x%08x, want "
                   "0x%08x\n", i, back[i], want);
            return 1;
        }
    }
    // D->managed, then read on the host.
    CHECK(hipMemcpy(m, d_b, (size_t)(hn < mn ? hn : mn) * sizeof(int), hipMemcpyDefault));
    CHECK(hipDeviceSynchronize());
    for (int i = 0; i < (hn < mn ? hn : mn); ++i) {
        if ((unsigned)m[i] != host[i]) {
            printf("FAIL " TEST_NAME ": hipMemcpyDefault device->managed [%d] got 0x%08x, want "
                   "0x%08x\n", i, (unsigned)m[i], host[i]);
            return 1;
        }
    }

    // --- pointer attributes ---
    hipPointerAttribute_t attr;
    CHECK(hipPointerGetAttributes(&attr, d_a));
    if (attr.memoryType != hipMemoryTypeDevice || attr.device != 0 || attr.devicePointer != d_a) {
        printf("FAIL " TEST_NAME ": hipPointerGetAttributes(hipMalloc pointer) got memoryType=%d "
               "device=%d devicePointer=%p, want memoryType=%d (hipMemoryTypeDevice) device=0 "
               "devicePointer=%p\n", (int)attr.memoryType, attr.device, attr.devicePointer,
               (int)hipMemoryTypeDevice, (void*)d_a);
        return 1;
    }
    CHECK(hipPointerGetAttributes(&attr, h_src));
    if (attr.memoryType != hipMemoryTypeHost || attr.hostPointer != h_src) {
        printf("FAIL " TEST_NAME ": hipPointerGetAttributes(hipHostMalloc pointer) got "
               "memoryType=%d hostPointer=%p, want memoryType=%d (hipMemoryTypeHost) "
               "hostPointer=%p\n", (int)attr.memoryType, attr.hostPointer,
               (int)hipMemoryTypeHost, (void*)h_src);
        return 1;
    }

    CHECK(hipFree(m));
    CHECK(hipFree(d_a));
    CHECK(hipFree(d_b));
    CHECK(hipHostFree(h_src));
    CHECK(hipHostFree(h_dst));

    printf("PASS " TEST_NAME ": managed %dx%d matrix (2-D grid, two host/device rounds), %d "
           "pinned words via hipHostGetDevicePointer, hipMemcpyDefault H2D/D2D/D2H/D2managed, "
           "hipMemGetInfo free=%zu total=%zu, pointer attributes device/host\n",
           rows, cols, hn, free_bytes, total_bytes);
    return 0;
}
