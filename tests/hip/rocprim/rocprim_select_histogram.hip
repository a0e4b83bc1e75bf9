// rocprim_select_histogram: rocPRIM's selection, compaction, run-length and
// histogram algorithms, and transform, against sequential host computations.
//
// Cases (all checks exact: these algorithms move and count items; the float
// histogram bins are computed on the host with the same float operations
// rocPRIM uses, (sample - lower) * (bins / (upper - lower)), each correctly
// rounded on host and device alike):
//   1. select with flags, int32, 1,000,000 items, about 30% flagged;
//   2. select with a predicate (x % 3 == 0), int32, 1,000,000 items;
//   3. unique (runs of equal items), uint32, 1,000,000 items; unique_by_key,
//      300,000 pairs (the first value of each run is kept);
//   4. run_length_encode and run_length_encode_non_trivial_runs, uint16,
//      500,000 items;
//   5. partition with flags and with a predicate, int32, 500,000 items:
//      selected items in order at the front, the others in reverse order at
//      the back; partition_three_way, 200,000 items;
//   6. transform, unary (uint32 x*x + 7x, wrapping) and binary (float a*b, one
//      correctly rounded product), 1,000,000 items;
//   7. histogram_even: uint8 samples, 256 bins, 1,000,000 samples; int32
//      samples partly outside [0, 1024), 256 bins, 1,000,000 samples; float
//      samples in [-0.5, 1.5) over [0, 1) with 100 bins, 500,000 samples;
//      histogram_range, float samples, 40 uneven bins, 500,000 samples;
//      multi_histogram_even on 4-channel uint8 pixels, 3 channels counted,
//      250,000 pixels.
#define TEST_NAME "rocprim_select_histogram"
#include "test_common.hpp"

#include <rocprim/rocprim.hpp>

#include <algorithm>

namespace {

struct DivisibleBy3 {
    __host__ __device__ bool operator()(int x) const { return x % 3 == 0; }
};
struct Negative {
    __host__ __device__ bool operator()(int x) const { return x < 0; }
};
struct LessThan100 {
    __host__ __device__ bool operator()(int x) const { return x < 100; }
};
struct Below1000 {
    __host__ __device__ bool operator()(int x) const { return x < 1000; }
};
struct Square7 {
    __host__ __device__ uint32_t operator()(uint32_t x) const { return x * x + 7u * x; }
};
struct Multiply {
    __host__ __device__ float operator()(float a, float b) const { return a * b; }
};

std::vector<int> random_ints(Rng& rng, size_t n, int lo, int hi) {
    std::vector<int> v(n);
    for (auto& x : v) x = lo + (int)rng.below((uint32_t)(hi - lo + 1));
    return v;
}

size_t select_flagged(Rng& rng, size_t n) {
    std::vector<int> in = random_ints(rng, n, -1000000, 1000000);
    std::vector<unsigned char> flags(n);
    for (auto& f : flags) f = rng.below(10) < 3;
    std::vector<int> want;
    for (size_t i = 0; i < n; ++i) {
        if (flags[i]) want.push_back(in[i]);
    }
    DeviceBuffer<int> d_in(in), d_out(n);
    DeviceBuffer<unsigned char> d_flags(flags);
    DeviceBuffer<unsigned> d_count(1);
    RUN_ROCPRIM(rocprim::select, d_in.ptr, d_flags.ptr, d_out.ptr, d_count.ptr, n);
    expect_value("select flagged count", d_count.download()[0], (unsigned)want.size());
    expect_equal("select flagged", d_out.download(), want, want.size());
    return want.size();
}

size_t select_if(Rng& rng, size_t n) {
    std::vector<int> in = random_ints(rng, n, -1000000, 1000000);
    std::vector<int> want;
    for (int x : in) {
        if (DivisibleBy3()(x)) want.push_back(x);
    }
    DeviceBuffer<int> d_in(in), d_out(n);
    DeviceBuffer<unsigned> d_count(1);
    RUN_ROCPRIM(rocprim::select, d_in.ptr, d_out.ptr, d_count.ptr, n, DivisibleBy3());
    expect_value("select predicate count", d_count.download()[0], (unsigned)want.size());
    expect_equal("select predicate", d_out.download(), want, want.size());
    return want.size();
}

size_t unique(Rng& rng, size_t n, size_t n_by_key, size_t& unique_by_key_count) {
    std::vector<uint32_t> in(n);
    uint32_t v = 0;
    for (auto& x : in) {
        if (rng.below(8) == 0) v = rng.below(50);  // runs; values recur later
        x = v;
    }
    std::vector<uint32_t> want;
    for (size_t i = 0; i < n; ++i) {
        if (i == 0 || in[i] != in[i - 1]) want.push_back(in[i]);
    }
    DeviceBuffer<uint32_t> d_in(in), d_out(n);
    DeviceBuffer<unsigned> d_count(1);
    RUN_ROCPRIM(rocprim::unique, d_in.ptr, d_out.ptr, d_count.ptr, n,
                rocprim::equal_to<uint32_t>());
    expect_value("unique count", d_count.download()[0], (unsigned)want.size());
    expect_equal("unique", d_out.download(), want, want.size());

    // unique_by_key: the first pair of each run of equal keys.
    std::vector<uint32_t> keys(in.begin(), in.begin() + n_by_key);
    std::vector<int> vals(n_by_key);
    for (size_t i = 0; i < n_by_key; ++i) vals[i] = (int)i;
    std::vector<uint32_t> want_k;
    std::vector<int> want_v;
    for (size_t i = 0; i < n_by_key; ++i) {
        if (i == 0 || keys[i] != keys[i - 1]) {
            want_k.push_back(keys[i]);
            want_v.push_back(vals[i]);
        }
    }
    DeviceBuffer<uint32_t> dk(keys), dk_out(n_by_key);
    DeviceBuffer<int> dv(vals), dv_out(n_by_key);
    RUN_ROCPRIM(rocprim::unique_by_key, dk.ptr, dv.ptr, dk_out.ptr, dv_out.ptr, d_count.ptr,
                n_by_key, rocprim::equal_to<uint32_t>());
    expect_value("unique_by_key count", d_count.download()[0], (unsigned)want_k.size());
    expect_equal("unique_by_key keys", dk_out.download(), want_k, want_k.size());
    expect_equal("unique_by_key values", dv_out.download(), want_v, want_v.size());
    unique_by_key_count = want_k.size();
    return want.size();
}

size_t run_length(Rng& rng, size_t n, size_t& non_trivial) {
    std::vector<uint16_t> in(n);
    uint16_t v = 0;
    for (auto& x : in) {
        if (rng.below(4) == 0) v = (uint16_t)rng.below(6);  // many runs of length 1
        x = v;
    }
    std::vector<uint16_t> want_u;
    std::vector<unsigned> want_c, want_off, want_nc;
    for (size_t i = 0; i < n; ++i) {
        if (i == 0 || in[i] != in[i - 1]) {
            want_u.push_back(in[i]);
            want_c.push_back(1);
        } else {
            ++want_c.back();
        }
    }
    for (size_t r = 0, start = 0; r < want_c.size(); start += want_c[r], ++r) {
        if (want_c[r] > 1) {
            want_off.push_back((unsigned)start);
            want_nc.push_back(want_c[r]);
        }
    }
    DeviceBuffer<uint16_t> d_in(in), d_u(n);
    DeviceBuffer<unsigned> d_c(n), d_count(1);
    RUN_ROCPRIM(rocprim::run_length_encode, d_in.ptr, (unsigned)n, d_u.ptr, d_c.ptr, d_count.ptr);
    expect_value("run_length_encode run count", d_count.download()[0], (unsigned)want_u.size());
    expect_equal("run_length_encode values", d_u.download(), want_u, want_u.size());
    expect_equal("run_length_encode counts", d_c.download(), want_c, want_c.size());

    DeviceBuffer<unsigned> d_off(n);
    RUN_ROCPRIM(rocprim::run_length_encode_non_trivial_runs, d_in.ptr, (unsigned)n, d_off.ptr,
                d_c.ptr, d_count.ptr);
    expect_value("run_length_encode_non_trivial_runs count", d_count.download()[0],
                 (unsigned)want_off.size());
    expect_equal("run_length_encode_non_trivial_runs offsets", d_off.download(), want_off,
                 want_off.size());
    expect_equal("run_length_encode_non_trivial_runs counts", d_c.download(), want_nc,
                 want_nc.size());
    non_trivial = want_off.size();
    return want_u.size();
}

// Selected items in input order, then the rejected ones in reverse input order.
std::vector<int> partition_reference(const std::vector<int>& in,
                                     const std::vector<unsigned char>& selected, size_t& count) {
    std::vector<int> out;
    for (size_t i = 0; i < in.size(); ++i) {
        if (selected[i]) out.push_back(in[i]);
    }
    count = out.size();
    for (size_t i = in.size(); i-- > 0;) {
        if (!selected[i]) out.push_back(in[i]);
    }
    return out;
}

void partitions(Rng& rng, size_t n, size_t n3) {
    std::vector<int> in = random_ints(rng, n, -500000, 500000);
    std::vector<unsigned char> flags(n);
    for (auto& f : flags) f = rng.below(2);
    size_t count = 0;
    std::vector<int> want = partition_reference(in, flags, count);
    DeviceBuffer<int> d_in(in), d_out(n);
    DeviceBuffer<unsigned char> d_flags(flags);
    DeviceBuffer<unsigned> d_count(1);
    RUN_ROCPRIM(rocprim::partition, d_in.ptr, d_flags.ptr, d_out.ptr, d_count.ptr, n);
    expect_value("partition flagged count", d_count.download()[0], (unsigned)count);
    expect_equal("partition flagged", d_out.download(), want, n);

    std::vector<unsigned char> neg(n);
    for (size_t i = 0; i < n; ++i) neg[i] = Negative()(in[i]);
    want = partition_reference(in, neg, count);
    RUN_ROCPRIM(rocprim::partition, d_in.ptr, d_out.ptr, d_count.ptr, n, Negative());
    expect_value("partition predicate count", d_count.download()[0], (unsigned)count);
    expect_equal("partition predicate", d_out.download(), want, n);

    // Three ways: x < 100, else x < 1000, else the rest, each in input order.
    std::vector<int> in3 = random_ints(rng, n3, 0, 2000);
    std::vector<int> w1, w2, w3;
    for (int x : in3) (LessThan100()(x) ? w1 : Below1000()(x) ? w2 : w3).push_back(x);
    DeviceBuffer<int> d3(in3), o1(n3), o2(n3), o3(n3);
    DeviceBuffer<unsigned> d_counts(2);
    RUN_ROCPRIM(rocprim::partition_three_way, d3.ptr, o1.ptr, o2.ptr, o3.ptr, d_counts.ptr, n3,
                LessThan100(), Below1000());
    std::vector<unsigned> counts = d_counts.download();
    expect_value("partition_three_way first count", counts[0], (unsigned)w1.size());
    expect_value("partition_three_way second count", counts[1], (unsigned)w2.size());
    expect_equal("partition_three_way first part", o1.download(), w1, w1.size());
    expect_equal("partition_three_way second part", o2.download(), w2, w2.size());
    expect_equal("partition_three_way unselected", o3.download(), w3, w3.size());
}

void transforms(Rng& rng, size_t n) {
    std::vector<uint32_t> in(n);
    for (auto& x : in) x = rng.u32();
    DeviceBuffer<uint32_t> d_in(in), d_out(n);
    CHECK(rocprim::transform(d_in.ptr, d_out.ptr, n, Square7()));
    CHECK_KERNELS();
    std::vector<uint32_t> want(n);
    for (size_t i = 0; i < n; ++i) want[i] = Square7()(in[i]);
    expect_equal("transform uint32 x*x+7x", d_out.download(), want, n);

    std::vector<float> a(n), b(n);
    for (size_t i = 0; i < n; ++i) {
        a[i] = (float)(int)rng.u32() * 1e-7f;
        b[i] = (float)(rng.u32() >> 4) * 3e-5f;
    }
    DeviceBuffer<float> da(a), db(b), dc(n);
    CHECK(rocprim::transform(da.ptr, db.ptr, dc.ptr, n, Multiply()));
    CHECK_KERNELS();
    std::vector<float> fwant(n);
    for (size_t i = 0; i < n; ++i) fwant[i] = a[i] * b[i];
    expect_equal("transform float a*b", dc.download(), fwant, n);
}

template <class Sample>
void check_histogram(const char* what, const std::vector<Sample>& samples,
                     const std::vector<unsigned>& want, unsigned levels, Sample lower,
                     Sample upper) {
    DeviceBuffer<Sample> d_s(samples);
    DeviceBuffer<unsigned> d_h(levels - 1);
    RUN_ROCPRIM(rocprim::histogram_even, d_s.ptr, (unsigned)samples.size(), d_h.ptr, levels, lower,
                upper);
    expect_equal(what, d_h.download(), want, levels - 1);
}

void histograms(Rng& rng, size_t n_int, size_t n_float, size_t pixels) {
    // uint8, 256 bins over [0, 256).
    std::vector<uint8_t> s8(n_int);
    for (auto& s : s8) s = (uint8_t)(rng.below(256) & rng.below(256));  // skewed
    std::vector<unsigned> want8(256, 0);
    for (auto s : s8) ++want8[s];
    {
        DeviceBuffer<uint8_t> d_s(s8);
        DeviceBuffer<unsigned> d_h(256);
        RUN_ROCPRIM(rocprim::histogram_even, d_s.ptr, (unsigned)n_int, d_h.ptr, 257u, 0, 256);
        expect_equal("histogram_even uint8", d_h.download(), want8, 256);
    }

    // int32 samples in [-100, 1200), 256 bins of width 4 over [0, 1024);
    // samples outside are not counted.
    std::vector<int> si = random_ints(rng, n_int, -100, 1199);
    std::vector<unsigned> wanti(256, 0);
    for (int s : si) {
        if (s >= 0 && s < 1024) ++wanti[s / 4];
    }
    check_histogram<int>("histogram_even int32", si, wanti, 257, 0, 1024);

    // float samples in [-0.5, 1.5), 100 bins over [0, 1).
    std::vector<float> sf(n_float);
    for (auto& s : sf) s = (float)(rng.u32() >> 8) * (2.0f / 16777216.0f) - 0.5f;
    const float lo = 0.0f, hi = 1.0f;
    const unsigned bins = 100;
    const float inv_scale = (float)bins / (hi - lo);  // rocPRIM's bin mapping
    std::vector<unsigned> wantf(bins, 0);
    for (float s : sf) {
        if (s >= lo && s < hi) {
            float t = (s - lo) * inv_scale;
            ++wantf[(unsigned)t];
        }
    }
    check_histogram<float>("histogram_even float", sf, wantf, bins + 1, lo, hi);

    // histogram_range: 41 increasing levels with uneven gaps.
    std::vector<float> lv(41);
    lv[0] = -0.25f;
    for (int i = 1; i < 41; ++i) lv[i] = lv[i - 1] + 0.01f * (float)(1 + (i * 7) % 5);
    std::vector<unsigned> wantr(40, 0);
    for (float s : sf) {
        size_t b = std::upper_bound(lv.begin(), lv.end(), s) - lv.begin();
        if (b >= 1 && b <= 40) ++wantr[b - 1];
    }
    {
        DeviceBuffer<float> d_s(sf), d_lv(lv);
        DeviceBuffer<unsigned> d_h(40);
        RUN_ROCPRIM(rocprim::histogram_range, d_s.ptr, (unsigned)n_float, d_h.ptr, 41u, d_lv.ptr);
        expect_equal("histogram_range float", d_h.download(), wantr, 40);
    }

    // multi_histogram_even: RGBA pixels, channels R, G, B counted (A ignored),
    // R in 256 bins, G in 64 bins of 4, B in 16 bins of 16.
    std::vector<uint8_t> px(pixels * 4);
    for (auto& c : px) c = (uint8_t)rng.below(256);
    unsigned levels[3] = {257, 65, 17};
    int lower[3] = {0, 0, 0};
    int upper[3] = {256, 256, 256};
    std::vector<unsigned> want_c[3] = {std::vector<unsigned>(256, 0), std::vector<unsigned>(64, 0),
                                       std::vector<unsigned>(16, 0)};
    for (size_t p = 0; p < pixels; ++p) {
        ++want_c[0][px[4 * p]];
        ++want_c[1][px[4 * p + 1] / 4];
        ++want_c[2][px[4 * p + 2] / 16];
    }
    DeviceBuffer<uint8_t> d_px(px);
    DeviceBuffer<unsigned> h0(256), h1(64), h2(16);
    unsigned* hist[3] = {h0.ptr, h1.ptr, h2.ptr};
    {
        TempStorage ts;
        CHECK(rocprim::multi_histogram_even<4, 3>(nullptr, ts.bytes, d_px.ptr, (unsigned)pixels,
                                                  hist, levels, lower, upper));
        ts.allocate();
        CHECK(rocprim::multi_histogram_even<4, 3>(ts.ptr, ts.bytes, d_px.ptr, (unsigned)pixels,
                                                  hist, levels, lower, upper));
        CHECK_KERNELS();
    }
    expect_equal("multi_histogram_even channel 0", h0.download(), want_c[0], 256);
    expect_equal("multi_histogram_even channel 1", h1.download(), want_c[1], 64);
    expect_equal("multi_histogram_even channel 2", h2.download(), want_c[2], 16);
}

}  // namespace

int main() {
    Rng rng(4242);
    const size_t n_sel = 1000000, n_unique = 1000000, n_ubk = 300000, n_rle = 500000;
    const size_t n_part = 500000, n_part3 = 200000, n_tr = 1000000;
    const size_t n_hist = 1000000, n_hist_f = 500000, n_pixels = 250000;

    size_t selected = select_flagged(rng, n_sel);
    size_t selected_if = select_if(rng, n_sel);
    size_t ubk = 0;
    size_t uniques = unique(rng, n_unique, n_ubk, ubk);
    size_t non_trivial = 0;
    size_t runs = run_length(rng, n_rle, non_trivial);
    partitions(rng, n_part, n_part3);
    transforms(rng, n_tr);
    histograms(rng, n_hist, n_hist_f, n_pixels);

    printf("PASS " TEST_NAME ": select flagged %zu -> %zu, select predicate %zu -> %zu; unique "
           "%zu -> %zu, unique_by_key %zu -> %zu; run_length_encode %zu -> %zu runs (%zu "
           "non-trivial); partition flagged/predicate %zu, three-way %zu; transform unary/binary "
           "%zu; histogram_even uint8/int32 %zu samples, float %zu; histogram_range float %zu; "
           "multi_histogram_even %zu RGBA pixels\n",
           n_sel, selected, n_sel, selected_if, n_unique, uniques, n_ubk, ubk, n_rle, runs,
           non_trivial, n_part, n_part3, n_tr, n_hist, n_hist_f, n_hist_f, n_pixels);
    return 0;
}
