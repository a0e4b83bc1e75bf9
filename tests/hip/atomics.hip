// atomics: device atomic operations on global and __shared__ memory.
//
//  - histogram of 256 bins over 64k keys (bin = a hash of each 32-bit value):
//    atomicAdd(unsigned) into a per-block __shared__ histogram, merged with
//    atomicAdd into global bins;
//  - atomicAdd(int) with positive and negative operands (a signed counter);
//  - atomicAdd(float) of small integers into 32 bins (exact in any order, see
//    below; on gfx900-gfx90a this is a compiler-generated CAS loop, on gfx940
//    a native float atomic);
//  - atomicAdd(unsigned long long) of values whose total exceeds 2^32;
//  - atomicMax/atomicMin on int and unsigned;
//  - atomicOr/atomicAnd/atomicXor on one word;
//  - a ticket counter: each thread takes atomicAdd(&next, 1) and writes its
//    index into that slot, so the returned old values must be a permutation;
//  - atomicCAS loops: a float maximum per bin (int-punned, 64 bins so the
//    lanes of a wave hit different words) and a 64-bit wrapping accumulate on
//    a single word (every lane of a wave contends), both independent of the
//    order of the updates.
// Every result is compared exactly with a host computation.
#include <hip/hip_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define TEST_NAME "atomics"

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

constexpr int kBins = 256;
constexpr int kCasBins = 64;
constexpr int kFloatBins = 32;

struct Scalars {
    int sum_i;                   // atomicAdd(int)
    unsigned sum_u;              // atomicAdd(unsigned)
    unsigned long long sum_u64;  // atomicAdd(unsigned long long)
    int max_i;                   // atomicMax(int)
    int min_i;                   // atomicMin(int)
    unsigned max_u;              // atomicMax(unsigned)
    unsigned min_u;              // atomicMin(unsigned)
    unsigned or_u;               // atomicOr
    unsigned and_u;              // atomicAnd
    unsigned xor_u;              // atomicXor
    unsigned next_ticket;        // ticket counter
    unsigned long long cas_mac;  // atomicCAS(unsigned long long) loop
    float sum_f[kFloatBins];     // atomicAdd(float), bin i % kFloatBins
};

__device__ inline unsigned key_of(unsigned v) { return (v ^ (v >> 9)) & (kBins - 1); }

__global__ void histogram(const unsigned* data, int n, unsigned* bins) {
    __shared__ unsigned local[kBins];
    for (int b = threadIdx.x; b < kBins; b += blockDim.x) {
        local[b] = 0;
    }
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        atomicAdd(&local[key_of(data[i])], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < kBins; b += blockDim.x) {
        if (local[b] != 0) {
            atomicAdd(&bins[b], local[b]);
        }
    }
}

__global__ void scalar_atomics(const unsigned* data, const int* sdata, int n, Scalars* s,
                               unsigned* slots) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    unsigned v = data[i];
    int sv = sdata[i];
    atomicAdd(&s->sum_i, sv);
    atomicAdd(&s->sum_u, v);
    atomicAdd(&s->sum_f[i % kFloatBins], (float)(v & 7u));
    atomicAdd(&s->sum_u64, (unsigned long long)v << 20);
    atomicMax(&s->max_i, sv);
    atomicMin(&s->min_i, sv);
    atomicMax(&s->max_u, v);
    atomicMin(&s->min_u, v);
    atomicOr(&s->or_u, 1u << (v % 29u));
    atomicAnd(&s->and_u, ~(1u << (v % 31u)) | 0x80000000u);
    atomicXor(&s->xor_u, v);
    unsigned ticket = atomicAdd(&s->next_ticket, 1u);
    if (ticket < (unsigned)n) {
        slots[ticket] = (unsigned)i;
    }
}

// Float maximum through a CAS loop on the bit pattern.
__device__ void atomic_max_float(float* addr, float value) {
    unsigned* p = reinterpret_cast<unsigned*>(addr);
    unsigned old = *p;
    while (__uint_as_float(old) < value) {
        unsigned assumed = old;
        old = atomicCAS(p, assumed, __float_as_uint(value));
        if (old == assumed) {
            break;
        }
    }
}

// acc += x * x * 0x9E3779B97F4A7C15 (mod 2^64) through a CAS loop: any
// interleaving of the updates gives the same total, a lost update changes it.
__device__ void atomic_mac_u64(unsigned long long* addr, unsigned long long x) {
    unsigned long long old = *addr;
    for (;;) {
        unsigned long long assumed = old;
        unsigned long long next = assumed + x * x * 0x9E3779B97F4A7C15ull;
        old = atomicCAS(addr, assumed, next);
        if (old == assumed) {
            break;
        }
    }
}

__global__ void cas_loops(const unsigned* data, int n, int mac_n, float* fmax_bins,
                          Scalars* s) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    unsigned v = data[i];
    float f = (float)(v % 100000u) * 0.125f - 3000.0f;
    atomic_max_float(&fmax_bins[i % kCasBins], f);
    if (i < mac_n) {
        atomic_mac_u64(&s->cas_mac, (unsigned long long)v);
    }
}

int main() {
    const int n = 65536;
    // A CAS loop on one word retries once per lane of a wave (64 rounds), so
    // the single-word loop runs over fewer threads than the rest.
    const int cas_n = 16384;
    const int mac_n = 2048;
    std::vector<unsigned> data(n);
    std::vector<int> sdata(n);
    uint32_t state = 12345u;
    for (int i = 0; i < n; ++i) {
        state = state * 1664525u + 1013904223u;  // LCG
        data[i] = state;
        sdata[i] = (int)(state >> 8) % 20001 - 10000;  // in [-10000, 10000]
    }

    unsigned *d_data = nullptr, *d_bins = nullptr, *d_slots = nullptr;
    int* d_sdata = nullptr;
    float* d_fmax = nullptr;
    Scalars* d_s = nullptr;
    CHECK(hipMalloc(&d_data, n * sizeof(unsigned)));
    CHECK(hipMalloc(&d_sdata, n * sizeof(int)));
    CHECK(hipMalloc(&d_bins, kBins * sizeof(unsigned)));
    CHECK(hipMalloc(&d_slots, n * sizeof(unsigned)));
    CHECK(hipMalloc(&d_fmax, kCasBins * sizeof(float)));
    CHECK(hipMalloc(&d_s, sizeof(Scalars)));
    CHECK(hipMemcpy(d_data, data.data(), n * sizeof(unsigned), hipMemcpyHostToDevice));
    CHECK(hipMemcpy(d_sdata, sdata.data(), n * sizeof(int), hipMemcpyHostToDevice));
    CHECK(hipMemset(d_bins, 0, kBins * sizeof(unsigned)));
    CHECK(hipMemset(d_slots, 0xFF, n * sizeof(unsigned)));

    Scalars init;
    memset(&init, 0, sizeof(init));
    init.max_i = INT32_MIN;
    init.min_i = INT32_MAX;
    init.max_u = 0;
    init.min_u = UINT32_MAX;
    init.and_u = 0xFFFFFFFFu;
    init.cas_mac = 0x0123456789ABCDEFull;
    CHECK(hipMemcpy(d_s, &init, sizeof(init), hipMemcpyHostToDevice));
    std::vector<float> fmax_init(kCasBins, -1.0e30f);
    CHECK(hipMemcpy(d_fmax, fmax_init.data(), kCasBins * sizeof(float), hipMemcpyHostToDevice));

    const int block = 256;
    histogram<<<32, block>>>(d_data, n, d_bins);  // 8 elements per thread
    CHECK_LAUNCH();
    scalar_atomics<<<(n + block - 1) / block, block>>>(d_data, d_sdata, n, d_s, d_slots);
    CHECK_LAUNCH();
    cas_loops<<<(cas_n + block - 1) / block, block>>>(d_data, cas_n, mac_n, d_fmax, d_s);
    CHECK_LAUNCH();
    CHECK(hipDeviceSynchronize());

    std::vector<unsigned> bins(kBins), slots(n);
    std::vector<float> fmax(kCasBins);
    Scalars got;
    CHECK(hipMemcpy(bins.data(), d_bins, kBins * sizeof(unsigned), hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(slots.data(), d_slots, n * sizeof(unsigned), hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(fmax.data(), d_fmax, kCasBins * sizeof(float), hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(&got, d_s, sizeof(got), hipMemcpyDeviceToHost));

    // Host reference.
    std::vector<unsigned> want_bins(kBins, 0);
    Scalars want = init;
    for (int i = 0; i < n; ++i) {
        unsigned v = data[i];
        int sv = sdata[i];
        want_bins[(v ^ (v >> 9)) & (kBins - 1)]++;
        want.sum_i += sv;
        want.sum_u += v;
        want.sum_f[i % kFloatBins] += (float)(v & 7u);
        want.sum_u64 += (unsigned long long)v << 20;
        if (sv > want.max_i) want.max_i = sv;
        if (sv < want.min_i) want.min_i = sv;
        if (v > want.max_u) want.max_u = v;
        if (v < want.min_u) want.min_u = v;
        want.or_u |= 1u << (v % 29u);
        want.and_u &= ~(1u << (v % 31u)) | 0x80000000u;
        want.xor_u ^= v;
    }
    // Every partial sum of values in [0, 7] stays below 2^24 (at most
    // 7 * 65536 = 458752), so each float addition is exact and the device
    // bins equal the exact sums whatever the order of the atomic updates.
    want.next_ticket = (unsigned)n;
    std::vector<float> want_fmax(fmax_init);
    for (int i = 0; i < cas_n; ++i) {
        unsigned v = data[i];
        float f = (float)(v % 100000u) * 0.125f - 3000.0f;
        if (f > want_fmax[i % kCasBins]) want_fmax[i % kCasBins] = f;
        if (i < mac_n) {
            want.cas_mac += (unsigned long long)v * (unsigned long long)v * 0x9E3779B97F4A7C15ull;
        }
    }

    for (int b = 0; b < kBins; ++b) {
        if (bins[b] != want_bins[b]) {
            printf("FAIL " TEST_NAME ": histogram bin[%d] got %u, want %u\n", b, bins[b],
                   want_bins[b]);
            return 1;
        }
    }
#define EXPECT_EQ(field, fmt)                                                           \
    if (got.field != want.field) {                                                    \
        printf("FAIL " TEST_NAME ": " #field " got " fmt ", want " fmt "\n", got.field, \
               want.field);                                                           \
        return 1;                                                                     \
    }
    EXPECT_EQ(sum_i, "%d")
    EXPECT_EQ(sum_u, "%u")
    EXPECT_EQ(sum_u64, "%llu")
    EXPECT_EQ(max_i, "%d")
    EXPECT_EQ(min_i, "%d")
    EXPECT_EQ(max_u, "%u")
    EXPECT_EQ(min_u, "%u")
    EXPECT_EQ(or_u, "0x%08x")
    EXPECT_EQ(and_u, "0x%08x")
    EXPECT_EQ(xor_u, "0x%08x")
    EXPECT_EQ(next_ticket, "%u")
    EXPECT_EQ(cas_mac, "0x%016llx")
#undef EXPECT_EQ
    for (int b = 0; b < kFloatBins; ++b) {
        if (got.sum_f[b] != want.sum_f[b]) {
            printf("FAIL " TEST_NAME ": float atomicAdd bin[%d] got %.9g, want %.9g\n", b,
                   got.sum_f[b], want.sum_f[b]);
            return 1;
        }
    }

    // The tickets handed out must be 0..n-1, each exactly once.
    std::vector<unsigned char> seen(n, 0);
    for (int t = 0; t < n; ++t) {
        unsigned idx = slots[t];
        if (idx >= (unsigned)n || seen[idx]) {
            printf("FAIL " TEST_NAME ": ticket slot[%d] got %u, want a thread index in [0, %d) "
                   "not seen before\n", t, idx, n);
            return 1;
        }
        seen[idx] = 1;
    }
    for (int b = 0; b < kCasBins; ++b) {
        if (fmax[b] != want_fmax[b]) {
            printf("FAIL " TEST_NAME ": CAS float max bin[%d] got %.9g, want %.9g\n", b, fmax[b],
                   want_fmax[b]);
            return 1;
        }
    }

    CHECK(hipFree(d_data));
    CHECK(hipFree(d_sdata));
    CHECK(hipFree(d_bins));
    CHECK(hipFree(d_slots));
    CHECK(hipFree(d_fmax));
    CHECK(hipFree(d_s));

    printf("PASS " TEST_NAME ": %d-bin histogram of %d keys, 12 scalar atomics and %d float "
           "atomicAdd bins over %d threads, %d unique tickets, CAS loops (%d float-max bins over "
           "%d threads, one 64-bit word over %d threads)\n",
           kBins, n, kFloatBins, n, n, kCasBins, cas_n, mac_n);
    return 0;
}
