// wave_intrinsics: cross-lane operations of a 64-wide wavefront.
//
// Per thread: __lane_id(); a broadcast and a rotation with __shfl; a reversal
// of a double with __shfl (64-bit values travel as two dwords); an inclusive
// scan with __shfl_up; a butterfly maximum with __shfl_xor (every lane gets the
// wave maximum); __shfl and a __shfl_down reduction with width 16 (segments).
// Per wave: a __shfl_down sum reduction, __ballot of a data predicate and its
// __popcll, __any/__all, and __ballot inside divergent branches (only the
// active lanes vote). A second kernel launches 96-thread blocks so the second
// wave of each block is only half populated: __ballot(1), __any and __all
// must see exactly the 32 live lanes.
// The host model assumes a wavefront of 64 lanes; the kernel also reports
// warpSize, and hipDeviceGetAttribute(hipDeviceAttributeWarpSize) is checked.
#include <hip/hip_runtime.h>

#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define TEST_NAME "wave_intrinsics"

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

constexpr int kWave = 64;  // wavefront size of gfx9 / CDNA

// Per-thread output fields.
enum { T_LANE, T_BCAST, T_ROT, T_SCAN, T_XMAX, T_SEG_SHFL, T_SEG_SUM, T_FIELDS };
// Per-wave output fields (64-bit).
enum { W_SUM, W_BALLOT, W_POP, W_ANY, W_ALL, W_DIV_ODD, W_DIV_DATA, W_FIELDS };

__global__ void wave_ops(const int* in, int* tout, double* dout, unsigned long long* wout,
                         int* wave_size) {
    const int gid = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = (int)__lane_id();
    const int wave = gid / warpSize;  // blocks are a multiple of the wave size
    const int v = in[gid];
    int* t = tout + (size_t)gid * T_FIELDS;

    t[T_LANE] = lane;

    // Broadcast from a lane that depends on the wave, and rotate by one.
    t[T_BCAST] = __shfl(v, (wave * 7) % warpSize);
    t[T_ROT] = __shfl(v, (lane + 1) % warpSize);

    // Reverse a double across the wave.
    double d = (double)v * 0.5 + 1.0e10;
    dout[gid] = __shfl(d, warpSize - 1 - lane);

    // Inclusive scan.
    int scan = v;
    for (int delta = 1; delta < warpSize; delta <<= 1) {
        int up = __shfl_up(scan, delta);
        if (lane >= delta) {
            scan += up;
        }
    }
    t[T_SCAN] = scan;

    // Butterfly maximum: every lane ends with the wave maximum.
    int m = v;
    for (int mask = warpSize / 2; mask > 0; mask >>= 1) {
        m = max(m, __shfl_xor(m, mask));
    }
    t[T_XMAX] = m;

    // Width-16 segments: lane 3 of each segment, and a segment sum in lane 0.
    t[T_SEG_SHFL] = __shfl(v, 3, 16);
    int seg = v;
    for (int delta = 8; delta > 0; delta >>= 1) {
        seg += __shfl_down(seg, delta, 16);
    }
    t[T_SEG_SUM] = seg;

    // Wave sum, read from lane 0.
    int sum = v;
    for (int delta = warpSize / 2; delta > 0; delta >>= 1) {
        sum += __shfl_down(sum, delta);
    }

    unsigned long long ballot = __ballot(v % 3 == 0);
    int any777 = __any(v == 777);
    int all_nonneg = __all(v >= 0);

    // Divergent votes: only the lanes inside the branch are active. The first
    // predicate is true for every lane but depends on the data: clang folds
    // __ballot(1) into a read of EXEC and hoists it above the branch, which
    // would make this vote (on hardware too) see the whole wave.
    unsigned long long div_odd = 0, div_data = 0;
    if (lane & 1) {
        div_odd = __ballot(v != INT_MIN);
    }
    if (v % 2 == 0) {
        div_data = __ballot(v % 4 == 0);
    }
    // Pick the values computed inside the branches out of lanes that took them.
    div_odd = __shfl(div_odd, 1);
    unsigned long long even_lanes = __ballot(v % 2 == 0);
    int first_even = even_lanes ? (int)__builtin_ctzll(even_lanes) : 0;
    div_data = __shfl(div_data, first_even);

    if (lane == 0) {
        unsigned long long* w = wout + (size_t)wave * W_FIELDS;
        w[W_SUM] = (unsigned long long)(long long)sum;
        w[W_BALLOT] = ballot;
        w[W_POP] = __popcll(ballot);
        w[W_ANY] = (unsigned long long)any777;
        w[W_ALL] = (unsigned long long)all_nonneg;
        w[W_DIV_ODD] = div_odd;
        w[W_DIV_DATA] = even_lanes ? div_data : 0;
    }
    if (gid == 0) {
        *wave_size = warpSize;
    }
}

// 96-thread blocks: wave 0 has 64 live lanes, wave 1 has 32.
__global__ void partial_wave(unsigned long long* out) {
    const int lane = (int)__lane_id();
    const int wave_in_block = threadIdx.x / warpSize;
    unsigned long long live = __ballot(1);
    int any_high = __any(lane >= 40);
    int all_low = __all(lane < 50);
    unsigned long long pop = __popcll(live);
    if (lane == 0) {
        unsigned long long* o = out + ((size_t)blockIdx.x * 2 + wave_in_block) * 4;
        o[0] = live;
        o[1] = pop;
        o[2] = (unsigned long long)any_high;
        o[3] = (unsigned long long)all_low;
    }
}

static int fail_u64(const char* what, int idx, unsigned long long got, unsigned long long want) {
    printf("FAIL " TEST_NAME ": %s [wave %d] got 0x%016llx, want 0x%016llx\n", what, idx, got,
           want);
    return 1;
}

int main() {
    int attr_wave = 0;
    CHECK(hipDeviceGetAttribute(&attr_wave, hipDeviceAttributeWarpSize, 0));
    if (attr_wave != kWave) {
        printf("FAIL " TEST_NAME ": hipDeviceAttributeWarpSize got %d, want %d\n", attr_wave,
               kWave);
        return 1;
    }

    const int block = 256;
    const int grid = 8;
    const int n = block * grid;
    const int waves = n / kWave;

    // Data: values in [-300, 699]; wave 3 and wave 17 are made all non-negative
    // so __all is true somewhere, 777 is planted in waves 2 and 20 for __any.
    std::vector<int> in(n);
    uint32_t s = 2463534242u;
    for (int i = 0; i < n; ++i) {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;  // xorshift32
        in[i] = (int)(s % 1000u) - 300;
    }
    for (int i = 3 * kWave; i < 4 * kWave; ++i) in[i] = in[i] < 0 ? -in[i] : in[i];
    for (int i = 17 * kWave; i < 18 * kWave; ++i) in[i] = in[i] < 0 ? -in[i] : in[i];
    in[2 * kWave + 41] = 777;
    in[20 * kWave + 0] = 777;

    int *d_in = nullptr, *d_tout = nullptr, *d_wsize = nullptr;
    double* d_dout = nullptr;
    unsigned long long *d_wout = nullptr, *d_pout = nullptr;
    CHECK(hipMalloc(&d_in, n * sizeof(int)));
    CHECK(hipMalloc(&d_tout, (size_t)n * T_FIELDS * sizeof(int)));
    CHECK(hipMalloc(&d_dout, n * sizeof(double)));
    CHECK(hipMalloc(&d_wout, (size_t)waves * W_FIELDS * sizeof(unsigned long long)));
    CHECK(hipMalloc(&d_wsize, sizeof(int)));
    const int pblocks = 5;
    CHECK(hipMalloc(&d_pout, pblocks * 2 * 4 * sizeof(unsigned long long)));
    CHECK(hipMemcpy(d_in, in.data(), n * sizeof(int), hipMemcpyHostToDevice));

    wave_ops<<<grid, block>>>(d_in, d_tout, d_dout, d_wout, d_wsize);
    CHECK_LAUNCH();
    partial_wave<<<pblocks, 96>>>(d_pout);
    CHECK_LAUNCH();
    CHECK(hipDeviceSynchronize());

    std::vector<int> tout((size_t)n * T_FIELDS);
    std::vector<double> dout(n);
    std::vector<unsigned long long> wout((size_t)waves * W_FIELDS), pout(pblocks * 2 * 4);
    int wsize = 0;
    CHECK(hipMemcpy(tout.data(), d_tout, tout.size() * sizeof(int), hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(dout.data(), d_dout, dout.size() * sizeof(double), hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(wout.data(), d_wout, wout.size() * sizeof(unsigned long long),
                    hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(pout.data(), d_pout, pout.size() * sizeof(unsigned long long),
                    hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(&wsize, d_wsize, sizeof(int), hipMemcpyDeviceToHost));

    if (wsize != kWave) {
        printf("FAIL " TEST_NAME ": device warpSize got %d, want %d\n", wsize, kWave);
        return 1;
    }

    static const char* tnames[T_FIELDS] = {"__lane_id", "__shfl broadcast", "__shfl rotate",
                                           "__shfl_up scan", "__shfl_xor max",
                                           "__shfl width 16", "__shfl_down width 16 sum"};
    int any_true = 0, all_true = 0;
    for (int w = 0; w < waves; ++w) {
        const int base = w * kWave;
        int wsum = 0, wmax = in[base];
        unsigned long long ballot = 0, div_data = 0;
        int any777 = 0, all_nonneg = 1;
        for (int l = 0; l < kWave; ++l) {
            int v = in[base + l];
            wsum += v;
            wmax = v > wmax ? v : wmax;
            if (v % 3 == 0) ballot |= 1ull << l;
            if (v == 777) any777 = 1;
            if (v < 0) all_nonneg = 0;
            if (v % 2 == 0 && v % 4 == 0) div_data |= 1ull << l;
        }
        any_true += any777;
        all_true += all_nonneg;
        int scan = 0;
        for (int l = 0; l < kWave; ++l) {
            const int gid = base + l;
            const int v = in[gid];
            scan += v;
            const int seg_base = base + (l & ~15);
            int seg_sum = 0;
            if ((l & 15) == 0) {
                for (int k = 0; k < 16; ++k) seg_sum += in[seg_base + k];
            } else {
                // Lanes other than a segment's first hold partial sums whose
                // value depends on the reduction tree; only lane 0 is checked.
                seg_sum = tout[(size_t)gid * T_FIELDS + T_SEG_SUM];
            }
            const int want[T_FIELDS] = {l,
                                        in[base + (w * 7) % kWave],
                                        in[base + (l + 1) % kWave],
                                        scan,
                                        wmax,
                                        in[seg_base + 3],
                                        seg_sum};
            for (int f = 0; f < T_FIELDS; ++f) {
                int got = tout[(size_t)gid * T_FIELDS + f];
                if (got != want[f]) {
                    printf("FAIL " TEST_NAME ": %s [thread %d, wave %d, lane %d] got %d, want %d\n",
                           tnames[f], gid, w, l, got, want[f]);
                    return 1;
                }
            }
            // (double)v * 0.5 + 1e10 is exact in double.
            double dwant = (double)in[base + kWave - 1 - l] * 0.5 + 1.0e10;
            if (dout[gid] != dwant) {
                printf("FAIL " TEST_NAME ": __shfl(double) reverse [thread %d] got %.17g, want "
                       "%.17g\n", gid, dout[gid], dwant);
                return 1;
            }
        }
        const unsigned long long* g = &wout[(size_t)w * W_FIELDS];
        if (g[W_SUM] != (unsigned long long)(long long)wsum)
            return fail_u64("__shfl_down wave sum", w, g[W_SUM], (unsigned long long)(long long)wsum);
        if (g[W_BALLOT] != ballot) return fail_u64("__ballot(v % 3 == 0)", w, g[W_BALLOT], ballot);
        if (g[W_POP] != (unsigned long long)__builtin_popcountll(ballot))
            return fail_u64("__popcll(ballot)", w, g[W_POP], __builtin_popcountll(ballot));
        if (g[W_ANY] != (unsigned long long)any777)
            return fail_u64("__any(v == 777)", w, g[W_ANY], any777);
        if (g[W_ALL] != (unsigned long long)all_nonneg)
            return fail_u64("__all(v >= 0)", w, g[W_ALL], all_nonneg);
        if (g[W_DIV_ODD] != 0xAAAAAAAAAAAAAAAAull)
            return fail_u64("__ballot(true) in odd lanes", w, g[W_DIV_ODD], 0xAAAAAAAAAAAAAAAAull);
        if (g[W_DIV_DATA] != div_data)
            return fail_u64("__ballot(v % 4 == 0) among even v", w, g[W_DIV_DATA], div_data);
    }
    if (any_true != 2 || all_true < 2) {
        printf("FAIL " TEST_NAME ": test data: __any true in %d waves (want 2), __all true in %d "
               "waves (want >= 2)\n", any_true, all_true);
        return 1;
    }

    for (int b = 0; b < pblocks; ++b) {
        for (int w = 0; w < 2; ++w) {
            const unsigned long long* o = &pout[((size_t)b * 2 + w) * 4];
            const int lanes = w == 0 ? 64 : 32;
            const unsigned long long live = w == 0 ? ~0ull : 0xFFFFFFFFull;
            const int idx = b * 2 + w;
            if (o[0] != live) return fail_u64("partial wave __ballot(1)", idx, o[0], live);
            if (o[1] != (unsigned long long)lanes)
                return fail_u64("partial wave __popcll", idx, o[1], lanes);
            if (o[2] != (w == 0 ? 1ull : 0ull))
                return fail_u64("partial wave __any(lane >= 40)", idx, o[2], w == 0 ? 1 : 0);
            if (o[3] != (w == 0 ? 0ull : 1ull))
                return fail_u64("partial wave __all(lane < 50)", idx, o[3], w == 0 ? 0 : 1);
        }
    }

    CHECK(hipFree(d_in));
    CHECK(hipFree(d_tout));
    CHECK(hipFree(d_dout));
    CHECK(hipFree(d_wout));
    CHECK(hipFree(d_wsize));
    CHECK(hipFree(d_pout));

    printf("PASS " TEST_NAME ": %d threads (%d waves of %d): %d per-thread shuffle results, "
           "%d per-wave reductions/votes; %d partial waves (32 of 64 lanes) vote correctly\n",
           n, waves, kWave, n * (T_FIELDS + 1), waves * W_FIELDS, pblocks);
    return 0;
}
