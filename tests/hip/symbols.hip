// symbols: device variables reached through their host shadows.
//
// A __constant__ table written with hipMemcpyToSymbol and read by a kernel; a
// __device__ accumulator written by a kernel and read back with
// hipMemcpyFromSymbol (whole, and from an offset); hipGetSymbolAddress and
// hipGetSymbolSize on both, the address then used with plain hipMemcpy and as
// a kernel argument; the async forms; a __managed__ variable initialised on the
// host, updated by a kernel and read on the host after hipDeviceSynchronize.
// Every expected value is computed here on the host.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define TEST_NAME "symbols"

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

constexpr int TABLE = 64;
constexpr int BINS = 32;

__constant__ int coefficients[TABLE];
__device__ unsigned int bins[BINS];
__managed__ int managed_total = 1000;

// out[i] = in[i] * coefficients[i % TABLE]; bins count i % BINS.
__global__ void apply(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i] * coefficients[i % TABLE];
        atomicAdd(&bins[i % BINS], 1u);
        atomicAdd(&managed_total, 1);
    }
}

// Adds `add` to every bin through a pointer (the symbol's address as an argument).
__global__ void bump(unsigned int* b, unsigned int add) {
    if (threadIdx.x < BINS) {
        b[threadIdx.x] += add;
    }
}

static int fail(const char* what, long index, long long got, long long want) {
    printf("FAIL " TEST_NAME ": %s [%ld] got %lld, want %lld\n", what, index, got, want);
    return 1;
}

int main() {
    const int n = 10007;
    std::vector<int> coef(TABLE), in(n), out(n);
    for (int i = 0; i < TABLE; ++i) coef[i] = (i * 37) % 101 - 50;
    for (int i = 0; i < n; ++i) in[i] = (i * 7919) % 2003 - 1000;
    CHECK(hipMemcpyToSymbol(HIP_SYMBOL(coefficients), coef.data(), sizeof(int) * TABLE, 0,
                            hipMemcpyHostToDevice));
    std::vector<unsigned int> zero(BINS, 0);
    CHECK(hipMemcpyToSymbolAsync(HIP_SYMBOL(bins), zero.data(), sizeof(unsigned int) * BINS, 0,
                                 hipMemcpyHostToDevice, 0));

    size_t coef_size = 0, bins_size = 0;
    CHECK(hipGetSymbolSize(&coef_size, HIP_SYMBOL(coefficients)));
    CHECK(hipGetSymbolSize(&bins_size, HIP_SYMBOL(bins)));
    if (coef_size != sizeof(int) * TABLE) return fail("hipGetSymbolSize(coefficients)", 0, coef_size, sizeof(int) * TABLE);
    if (bins_size != sizeof(unsigned int) * BINS) return fail("hipGetSymbolSize(bins)", 0, bins_size, sizeof(unsigned int) * BINS);

    int *d_in, *d_out;
    CHECK(hipMalloc(&d_in, sizeof(int) * n));
    CHECK(hipMalloc(&d_out, sizeof(int) * n));
    CHECK(hipMemcpy(d_in, in.data(), sizeof(int) * n, hipMemcpyHostToDevice));
    apply<<<(n + 255) / 256, 256>>>(d_in, d_out, n);
    CHECK(hipGetLastError());
    CHECK(hipDeviceSynchronize());
    CHECK(hipMemcpy(out.data(), d_out, sizeof(int) * n, hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
        int want = in[i] * coef[i % TABLE];
        if (out[i] != want) return fail("out", i, out[i], want);
    }

    // The accumulator, read whole and from an offset.
    std::vector<unsigned int> counts(BINS);
    CHECK(hipMemcpyFromSymbol(counts.data(), HIP_SYMBOL(bins), sizeof(unsigned int) * BINS, 0,
                              hipMemcpyDeviceToHost));
    for (int b = 0; b < BINS; ++b) {
        unsigned int want = n / BINS + (b < n % BINS ? 1 : 0);
        if (counts[b] != want) return fail("bins", b, counts[b], want);
    }
    unsigned int tail[4];
    CHECK(hipMemcpyFromSymbolAsync(tail, HIP_SYMBOL(bins), sizeof(tail), sizeof(unsigned int) * (BINS - 4),
                                   hipMemcpyDeviceToHost, 0));
    CHECK(hipStreamSynchronize(0));
    for (int k = 0; k < 4; ++k)
        if (tail[k] != counts[BINS - 4 + k]) return fail("bins tail", k, tail[k], counts[BINS - 4 + k]);

    // The symbol's address: a plain copy and a kernel argument.
    unsigned int* bins_ptr = nullptr;
    CHECK(hipGetSymbolAddress((void**)&bins_ptr, HIP_SYMBOL(bins)));
    bump<<<1, 64>>>(bins_ptr, 5);
    CHECK(hipGetLastError());
    CHECK(hipDeviceSynchronize());
    std::vector<unsigned int> bumped(BINS);
    CHECK(hipMemcpy(bumped.data(), bins_ptr, sizeof(unsigned int) * BINS, hipMemcpyDeviceToHost));
    for (int b = 0; b < BINS; ++b)
        if (bumped[b] != counts[b] + 5) return fail("bumped bins", b, bumped[b], counts[b] + 5);

    // The managed variable: initialised to 1000, one increment per element.
    if (managed_total != 1000 + n) return fail("managed_total", 0, managed_total, 1000 + n);
    managed_total = 7;
    apply<<<(n + 255) / 256, 256>>>(d_in, d_out, n);
    CHECK(hipGetLastError());
    CHECK(hipDeviceSynchronize());
    if (managed_total != 7 + n) return fail("managed_total after host write", 0, managed_total, 7 + n);

    CHECK(hipFree(d_in));
    CHECK(hipFree(d_out));
    printf("PASS " TEST_NAME ": %d products with a __constant__ table of %d, %d __device__ bins "
           "(whole, offset and async reads, address as argument), __managed__ counter %d\n",
           n, TABLE, BINS, managed_total);
    return 0;
}
