// streams_events: streams, asynchronous copies and memsets, and events.
//
// A producer/consumer pipeline over four chunks:
//   stream A (hipStreamCreate): H2D copy of chunk k, kernel produce (y = 3x + 1),
//     event ready[k] recorded;
//   stream B (hipStreamCreateWithFlags(hipStreamNonBlocking)): waits for ready[k]
//     (hipStreamWaitEvent), kernel consume (z = y * y - chunk offset, reading what
//     A wrote), D2H copy of chunk k.
// Timing events bracket the whole pipeline (start on A, stop on B) and a single
// kernel on A; hipEventElapsedTime must be >= 0. hipStreamQuery/hipEventQuery
// must answer hipSuccess or hipErrorNotReady while work may be pending and
// hipSuccess after synchronization. hipMemsetAsync on a stream and hipMemset on
// the null stream are checked byte for byte, including a kernel on the null
// stream ordered after them.
#include <hip/hip_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define TEST_NAME "streams_events"

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

// For queries on work that may still be running: hipSuccess or hipErrorNotReady.
#define CHECK_QUERY(call)                                                             \
    do {                                                                              \
        hipError_t check_err_ = (call);                                               \
        if (check_err_ != hipSuccess && check_err_ != hipErrorNotReady) {             \
            printf("FAIL " TEST_NAME ": %s:%d: %s returned %s (%s), want hipSuccess or " \
                   "hipErrorNotReady\n", __FILE__, __LINE__, #call,                    \
                   hipGetErrorName(check_err_), hipGetErrorString(check_err_));       \
            exit(1);                                                                  \
        }                                                                             \
    } while (0)

__global__ void produce(const int* x, int* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = 3 * x[i] + 1;
    }
}

__global__ void consume(const int* y, int* z, int n, int offset) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        z[i] = y[i] * y[i] - offset;
    }
}

// A few hundred iterations per thread so the timed kernel does measurable work.
__global__ void spin(unsigned* out, int n, int iters) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned h = (unsigned)i;
        for (int k = 0; k < iters; ++k) {
            h = h * 1664525u + 1013904223u;
            h ^= h >> 13;
        }
        out[i] = h;
    }
}

// Adds 1 to each byte-filled word; runs on the null stream after hipMemset.
__global__ void bump(unsigned* p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        p[i] += 1u;
    }
}

int main() {
    const int kChunks = 4;
    const int chunk = 10000 + 37;  // not a multiple of the block size
    const int n = kChunks * chunk;
    const int block = 128;
    const int grid = (chunk + block - 1) / block;

    hipStream_t sa = nullptr, sb = nullptr;
    CHECK(hipStreamCreate(&sa));
    CHECK(hipStreamCreateWithFlags(&sb, hipStreamNonBlocking));

    hipEvent_t ev_start, ev_stop, ev_k0, ev_k1;
    hipEvent_t ready[kChunks];
    CHECK(hipEventCreate(&ev_start));
    CHECK(hipEventCreate(&ev_stop));
    CHECK(hipEventCreate(&ev_k0));
    CHECK(hipEventCreate(&ev_k1));
    for (int k = 0; k < kChunks; ++k) {
        CHECK(hipEventCreate(&ready[k]));
    }

    // Pinned host buffers, as asynchronous copies normally use.
    int *h_x = nullptr, *h_z = nullptr;
    CHECK(hipHostMalloc(&h_x, n * sizeof(int), hipHostMallocDefault));
    CHECK(hipHostMalloc(&h_z, n * sizeof(int), hipHostMallocDefault));
    for (int i = 0; i < n; ++i) {
        h_x[i] = (i % 2000) - 1000;
        h_z[i] = 0x5A5A5A5A;
    }

    int *d_x = nullptr, *d_y = nullptr, *d_z = nullptr;
    CHECK(hipMalloc(&d_x, n * sizeof(int)));
    CHECK(hipMalloc(&d_y, n * sizeof(int)));
    CHECK(hipMalloc(&d_z, n * sizeof(int)));

    // --- pipeline ---
    CHECK(hipEventRecord(ev_start, sa));
    for (int k = 0; k < kChunks; ++k) {
        const int off = k * chunk;
        CHECK(hipMemcpyAsync(d_x + off, h_x + off, chunk * sizeof(int), hipMemcpyHostToDevice,
                             sa));
        produce<<<grid, block, 0, sa>>>(d_x + off, d_y + off, chunk);
        CHECK_LAUNCH();
        CHECK(hipEventRecord(ready[k], sa));
        CHECK(hipStreamWaitEvent(sb, ready[k], 0));
        consume<<<grid, block, 0, sb>>>(d_y + off, d_z + off, chunk, off);
        CHECK_LAUNCH();
        CHECK(hipMemcpyAsync(h_z + off, d_z + off, chunk * sizeof(int), hipMemcpyDeviceToHost,
                             sb));
    }
    CHECK(hipEventRecord(ev_stop, sb));
    // Work may or may not have finished yet.
    CHECK_QUERY(hipStreamQuery(sb));
    CHECK_QUERY(hipEventQuery(ev_stop));
    CHECK(hipEventSynchronize(ev_stop));
    CHECK(hipEventQuery(ev_stop));
    for (int k = 0; k < kChunks; ++k) {
        CHECK(hipEventQuery(ready[k]));  // recorded before ev_stop's wait chain
    }
    CHECK(hipStreamSynchronize(sb));
    CHECK(hipStreamQuery(sb));
    CHECK(hipStreamSynchronize(sa));
    CHECK(hipStreamQuery(sa));
    float pipeline_ms = -1.0f;
    CHECK(hipEventElapsedTime(&pipeline_ms, ev_start, ev_stop));
    if (!(pipeline_ms >= 0.0f)) {
        printf("FAIL " TEST_NAME ": pipeline elapsed time got %g ms, want >= 0\n", pipeline_ms);
        return 1;
    }
    for (int i = 0; i < n; ++i) {
        int y = 3 * h_x[i] + 1;
        int want = y * y - (i / chunk) * chunk;
        if (h_z[i] != want) {
            printf("FAIL " TEST_NAME ": pipeline z[%d] (chunk %d) got %d, want %d\n", i,
                   i / chunk, h_z[i], want);
            return 1;
        }
    }

    // --- timing a single kernel on one stream ---
    const int spin_n = 4096, spin_iters = 200;
    unsigned* d_spin = nullptr;
    CHECK(hipMalloc(&d_spin, spin_n * sizeof(unsigned)));
    CHECK(hipEventRecord(ev_k0, sa));
    spin<<<spin_n / 256, 256, 0, sa>>>(d_spin, spin_n, spin_iters);
    CHECK_LAUNCH();
    CHECK(hipEventRecord(ev_k1, sa));
    CHECK_QUERY(hipEventQuery(ev_k1));
    CHECK(hipEventSynchronize(ev_k1));
    float kernel_ms = -1.0f;
    CHECK(hipEventElapsedTime(&kernel_ms, ev_k0, ev_k1));
    if (!(kernel_ms >= 0.0f)) {
        printf("FAIL " TEST_NAME ": kernel elapsed time got %g ms, want >= 0\n", kernel_ms);
        return 1;
    }
    std::vector<unsigned> spin_out(spin_n);
    CHECK(hipMemcpy(spin_out.data(), d_spin, spin_n * sizeof(unsigned), hipMemcpyDeviceToHost));
    for (int i = 0; i < spin_n; ++i) {
        unsigned h = (unsigned)i;
        for (int k = 0; k < spin_iters; ++k) {
            h = h * 1664525u + 1013904223u;
            h ^= h >> 13;
        }
        if (spin_out[i] != h) {
            printf("FAIL " TEST_NAME ": spin[%d] got 0x%08x, want 0x%08x\n", i, spin_out[i], h);
            return 1;
        }
    }

    // --- memsets ---
    // hipMemsetAsync on stream B over an odd byte range inside d_z (which holds
    // pipeline results): bytes [5, 5 + 4001) become 0xAB, the rest is unchanged.
    const size_t ms_off = 5, ms_len = 4001;
    CHECK(hipMemsetAsync(reinterpret_cast<unsigned char*>(d_z) + ms_off, 0xAB, ms_len, sb));
    CHECK(hipStreamSynchronize(sb));
    std::vector<unsigned char> zbytes(n * sizeof(int));
    CHECK(hipMemcpy(zbytes.data(), d_z, zbytes.size(), hipMemcpyDeviceToHost));
    const unsigned char* zref = reinterpret_cast<const unsigned char*>(h_z);
    for (size_t b = 0; b < zbytes.size(); ++b) {
        unsigned char want = (b >= ms_off && b < ms_off + ms_len) ? 0xAB : zref[b];
        if (zbytes[b] != want) {
            printf("FAIL " TEST_NAME ": after hipMemsetAsync byte[%zu] got 0x%02x, want 0x%02x\n",
                   b, zbytes[b], want);
            return 1;
        }
    }
    // hipMemset (null stream) of d_y to 0x01 bytes, then a kernel on the null
    // stream adds 1 to every word: 0x01010101 + 1.
    CHECK(hipMemset(d_y, 0x01, n * sizeof(int)));
    bump<<<(n + 255) / 256, 256>>>(reinterpret_cast<unsigned*>(d_y), n);
    CHECK_LAUNCH();
    std::vector<unsigned> ybuf(n);
    CHECK(hipMemcpy(ybuf.data(), d_y, n * sizeof(unsigned), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
        if (ybuf[i] != 0x01010102u) {
            printf("FAIL " TEST_NAME ": after hipMemset + kernel y[%d] got 0x%08x, want 0x%08x\n",
                   i, ybuf[i], 0x01010102u);
            return 1;
        }
    }

    CHECK(hipDeviceSynchronize());
    CHECK(hipStreamDestroy(sa));
    CHECK(hipStreamDestroy(sb));
    CHECK(hipEventDestroy(ev_start));
    CHECK(hipEventDestroy(ev_stop));
    CHECK(hipEventDestroy(ev_k0));
    CHECK(hipEventDestroy(ev_k1));
    for (int k = 0; k < kChunks; ++k) {
        CHECK(hipEventDestroy(ready[k]));
    }
    CHECK(hipFree(d_x));
    CHECK(hipFree(d_y));
    CHECK(hipFree(d_z));
    CHECK(hipFree(d_spin));
    CHECK(hipHostFree(h_x));
    CHECK(hipHostFree(h_z));

    printf("PASS " TEST_NAME ": %d chunks x %d elements produced on stream A and consumed on "
           "non-blocking stream B (%.3f ms), %d timed kernel results (%.3f ms), "
           "hipMemsetAsync %zu bytes, hipMemset %zu bytes\n",
           kChunks, chunk, pipeline_ms, spin_n, kernel_ms, ms_len, n * sizeof(int));
    return 0;
}
