// rocprim_scan_reduce: rocPRIM's device-wide scans and reductions against
// sequential host computations.
//
// Cases:
//   1. inclusive_scan, uint32, plus, 1,000,000 items (look-back scan; uint32
//      sums wrap modulo 2^32 on host and device alike, so the check is exact);
//   2. exclusive_scan, float, plus, initial value 0.25, 1,000,000 items that are
//      multiples of 1/8 in [0, 1.875]: every partial sum is a multiple of 1/8
//      below 2^21, which float represents exactly, so any association order
//      gives the exact result and the check is exact;
//   3. inclusive_scan, int32, maximum, 300,000 items, with a configuration that
//      selects the reduce-then-scan algorithm instead of the look-back scan;
//   4. segmented_inclusive_scan (offsets) and segmented_exclusive_scan (head
//      flags), int32, plus, 120,000 items in segments of 1-400 items;
//   5. inclusive_scan_by_key and exclusive_scan_by_key, int32 values, 200,000
//      items in runs of equal keys;
//   6. reduce: uint64 plus (exact), int32 minimum (exact), float plus
//      (tolerance, see reduce_float), 1,000,000 items each;
//   7. segmented_reduce, int64 plus with initial value, 3,000 segments
//      (every seventh empty: the result is the initial value), and float
//      maximum (exact: max only selects);
//   8. reduce_by_key, uint32 keys in runs, int32 values, plus, 500,000 items.
#define TEST_NAME "rocprim_scan_reduce"
#include "test_common.hpp"

#include <rocprim/rocprim.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace {

void inclusive_scan_u32(Rng& rng, size_t n) {
    std::vector<uint32_t> in(n);
    for (auto& v : in) v = rng.u32();
    DeviceBuffer<uint32_t> d_in(in), d_out(n);
    RUN_ROCPRIM(rocprim::inclusive_scan, d_in.ptr, d_out.ptr, n, rocprim::plus<uint32_t>());
    std::vector<uint32_t> want(n);
    uint32_t acc = 0;
    for (size_t i = 0; i < n; ++i) want[i] = acc += in[i];
    expect_equal("inclusive_scan uint32 plus", d_out.download(), want, n);
}

void exclusive_scan_float(Rng& rng, size_t n) {
    std::vector<float> in(n);
    for (auto& v : in) v = (float)rng.below(16) * 0.125f;
    DeviceBuffer<float> d_in(in), d_out(n);
    RUN_ROCPRIM(rocprim::exclusive_scan, d_in.ptr, d_out.ptr, 0.25f, n, rocprim::plus<float>());
    std::vector<float> want(n);
    double acc = 0.25;  // exact: see case 2 above
    for (size_t i = 0; i < n; ++i) {
        want[i] = (float)acc;
        acc += in[i];
    }
    expect_equal("exclusive_scan float plus (exactly representable sums)", d_out.download(), want,
                 n);
}

void inclusive_scan_max_reduce_then_scan(Rng& rng, size_t n) {
    using config = rocprim::scan_config<256, 8, false /* reduce-then-scan */,
                                        rocprim::block_load_method::block_load_transpose,
                                        rocprim::block_store_method::block_store_transpose,
                                        rocprim::block_scan_algorithm::using_warp_scan>;
    std::vector<int> in(n);
    for (auto& v : in) v = (int)rng.below(2000001) - 1000000;
    DeviceBuffer<int> d_in(in), d_out(n);
    RUN_ROCPRIM(rocprim::inclusive_scan<config>, d_in.ptr, d_out.ptr, n, rocprim::maximum<int>());
    std::vector<int> want(n);
    int acc = std::numeric_limits<int>::min();
    for (size_t i = 0; i < n; ++i) want[i] = acc = std::max(acc, in[i]);
    expect_equal("inclusive_scan int32 maximum (reduce-then-scan)", d_out.download(), want, n);
}

size_t segmented_scans(Rng& rng, size_t n_target, unsigned& segments_out) {
    std::vector<unsigned> offsets{0};
    while (offsets.back() < n_target) {
        offsets.push_back(std::min<unsigned>(offsets.back() + 1 + rng.below(400), n_target));
    }
    const unsigned segments = (unsigned)offsets.size() - 1;
    const size_t n = offsets.back();
    std::vector<int> in(n);
    for (auto& v : in) v = (int)rng.below(201) - 100;
    std::vector<unsigned char> flags(n, 0);
    for (unsigned s = 0; s < segments; ++s) flags[offsets[s]] = 1;

    DeviceBuffer<int> d_in(in), d_out(n);
    DeviceBuffer<unsigned> d_off(offsets);
    DeviceBuffer<unsigned char> d_flags(flags);

    RUN_ROCPRIM(rocprim::segmented_inclusive_scan, d_in.ptr, d_out.ptr, segments, d_off.ptr,
                d_off.ptr + 1, rocprim::plus<int>());
    std::vector<int> want(n);
    for (unsigned s = 0; s < segments; ++s) {
        int acc = 0;
        for (unsigned i = offsets[s]; i < offsets[s + 1]; ++i) want[i] = acc += in[i];
    }
    expect_equal("segmented_inclusive_scan int32 plus (offsets)", d_out.download(), want, n);

    const int init = 7;
    RUN_ROCPRIM(rocprim::segmented_exclusive_scan, d_in.ptr, d_out.ptr, d_flags.ptr, init, n,
                rocprim::plus<int>());
    for (unsigned s = 0; s < segments; ++s) {
        int acc = init;
        for (unsigned i = offsets[s]; i < offsets[s + 1]; ++i) {
            want[i] = acc;
            acc += in[i];
        }
    }
    expect_equal("segmented_exclusive_scan int32 plus (head flags)", d_out.download(), want, n);
    segments_out = segments;
    return n;
}

void scans_by_key(Rng& rng, size_t n) {
    std::vector<uint32_t> keys(n);
    std::vector<int> vals(n);
    uint32_t key = 0;
    for (size_t i = 0; i < n; ++i) {
        if (rng.below(50) == 0) key += 1 + rng.below(3);  // runs of about 50
        keys[i] = key;
        vals[i] = (int)rng.below(1000) - 300;
    }
    DeviceBuffer<uint32_t> d_keys(keys);
    DeviceBuffer<int> d_vals(vals), d_out(n);
    RUN_ROCPRIM(rocprim::inclusive_scan_by_key, d_keys.ptr, d_vals.ptr, d_out.ptr, n,
                rocprim::plus<int>());
    std::vector<int> want(n);
    for (size_t i = 0; i < n; ++i) {
        want[i] = (i > 0 && keys[i] == keys[i - 1]) ? want[i - 1] + vals[i] : vals[i];
    }
    expect_equal("inclusive_scan_by_key int32 plus", d_out.download(), want, n);

    const int init = -5;
    RUN_ROCPRIM(rocprim::exclusive_scan_by_key, d_keys.ptr, d_vals.ptr, d_out.ptr, init, n,
                rocprim::plus<int>());
    for (size_t i = 0; i < n; ++i) {
        want[i] = (i > 0 && keys[i] == keys[i - 1]) ? want[i - 1] + vals[i - 1] : init;
    }
    expect_equal("exclusive_scan_by_key int32 plus", d_out.download(), want, n);
}

void reduce_exact(Rng& rng, size_t n) {
    std::vector<uint64_t> in64(n);
    for (auto& v : in64) v = rng.next() >> 8;  // sums wrap modulo 2^64 on both sides
    DeviceBuffer<uint64_t> d64(in64), d64_out(1);
    RUN_ROCPRIM(rocprim::reduce, d64.ptr, d64_out.ptr, (uint64_t)0, n, rocprim::plus<uint64_t>());
    uint64_t want64 = 0;
    for (auto v : in64) want64 += v;
    expect_value("reduce uint64 plus", d64_out.download()[0], want64);

    std::vector<int> in32(n);
    for (auto& v : in32) v = (int)rng.u32();
    in32[n - 3] = std::numeric_limits<int>::min() + 1;  // the minimum, near the end
    DeviceBuffer<int> d32(in32), d32_out(1);
    RUN_ROCPRIM(rocprim::reduce, d32.ptr, d32_out.ptr, std::numeric_limits<int>::max(), n,
                rocprim::minimum<int>());
    expect_value("reduce int32 minimum", d32_out.download()[0],
                 *std::min_element(in32.begin(), in32.end()));
}

// Float addition is not associative: rocPRIM adds 16 items per thread in
// sequence, then in a tree over the block, then reduces the per-block partial
// sums the same way, so every item passes through at most about 50 roundings.
// A sum whose items each pass through at most d roundings (round to nearest,
// unit roundoff u = 2^-24) differs from the exact sum by at most about
// d * u * sum|x_i| = 3e-6 * sum|x_i|; the check allows 1e-5 * sum|x_i|. The
// reference is the sum in double, exact to about 1e-16 relative here.
double reduce_float(Rng& rng, size_t n) {
    std::vector<float> in(n);
    for (auto& v : in) v = (float)(rng.u32() >> 8) * (1.0f / 16777216.0f) - 0.25f;
    DeviceBuffer<float> d_in(in), d_out(1);
    RUN_ROCPRIM(rocprim::reduce, d_in.ptr, d_out.ptr, 0.0f, n, rocprim::plus<float>());
    double want = 0.0, abs_sum = 0.0;
    for (float v : in) {
        want += v;
        abs_sum += std::fabs(v);
    }
    const double tol = 1e-5 * abs_sum;
    float got = d_out.download()[0];
    if (!(std::fabs((double)got - want) <= tol)) {
        fail("reduce float plus: got " + show(got) + ", want " + show(want) + " +- " + show(tol));
    }
    return tol;
}

void segmented_reductions(Rng& rng, unsigned segments, size_t& n_out) {
    std::vector<unsigned> offsets(segments + 1, 0);
    for (unsigned s = 0; s < segments; ++s) {
        offsets[s + 1] = offsets[s] + ((s % 7 == 0) ? 0 : rng.below(300));
    }
    const size_t n = offsets[segments];
    std::vector<int64_t> in(n);
    std::vector<float> fin(n);
    for (size_t i = 0; i < n; ++i) {
        in[i] = (int64_t)(rng.next() >> 20) - (1ll << 43);
        fin[i] = (float)((int)rng.u32()) * 1e-6f;
    }
    DeviceBuffer<unsigned> d_off(offsets);
    DeviceBuffer<int64_t> d_in(in), d_out(segments);
    const int64_t init = 1000000007;
    RUN_ROCPRIM(rocprim::segmented_reduce, d_in.ptr, d_out.ptr, segments, d_off.ptr, d_off.ptr + 1,
                rocprim::plus<int64_t>(), init);
    std::vector<int64_t> want(segments);
    for (unsigned s = 0; s < segments; ++s) {
        int64_t acc = init;
        for (unsigned i = offsets[s]; i < offsets[s + 1]; ++i) acc += in[i];
        want[s] = acc;
    }
    expect_equal("segmented_reduce int64 plus", d_out.download(), want, segments);

    DeviceBuffer<float> df_in(fin), df_out(segments);
    const float finit = -std::numeric_limits<float>::infinity();
    RUN_ROCPRIM(rocprim::segmented_reduce, df_in.ptr, df_out.ptr, segments, d_off.ptr,
                d_off.ptr + 1, rocprim::maximum<float>(), finit);
    std::vector<float> fwant(segments);
    for (unsigned s = 0; s < segments; ++s) {
        float acc = finit;
        for (unsigned i = offsets[s]; i < offsets[s + 1]; ++i) acc = std::max(acc, fin[i]);
        fwant[s] = acc;
    }
    expect_equal("segmented_reduce float maximum", df_out.download(), fwant, segments);
    n_out = n;
}

size_t reduce_by_key(Rng& rng, size_t n) {
    std::vector<uint32_t> keys(n);
    std::vector<int> vals(n);
    uint32_t key = 5;
    for (size_t i = 0; i < n; ++i) {
        // Runs of 1 to ~100; a key may recur later after a different key.
        if (rng.below(30) == 0) key = rng.below(1000);
        keys[i] = key;
        vals[i] = (int)rng.below(100001) - 50000;
    }
    std::vector<uint32_t> want_keys;
    std::vector<int> want_vals;
    for (size_t i = 0; i < n; ++i) {
        if (i == 0 || keys[i] != keys[i - 1]) {
            want_keys.push_back(keys[i]);
            want_vals.push_back(vals[i]);
        } else {
            want_vals.back() += vals[i];
        }
    }
    DeviceBuffer<uint32_t> d_keys(keys), d_unique(n);
    DeviceBuffer<int> d_vals(vals), d_aggr(n);
    DeviceBuffer<unsigned> d_count(1);
    RUN_ROCPRIM(rocprim::reduce_by_key, d_keys.ptr, d_vals.ptr, (unsigned)n, d_unique.ptr,
                d_aggr.ptr, d_count.ptr, rocprim::plus<int>(), rocprim::equal_to<uint32_t>());
    const unsigned runs = d_count.download()[0];
    expect_value("reduce_by_key run count", runs, (unsigned)want_keys.size());
    expect_equal("reduce_by_key unique keys", d_unique.download(), want_keys, runs);
    expect_equal("reduce_by_key sums", d_aggr.download(), want_vals, runs);
    return runs;
}

}  // namespace

int main() {
    Rng rng(77);
    const size_t n_scan = 1000000, n_max = 300000, n_seg = 120000, n_by_key = 200000;
    const size_t n_reduce = 1000000, n_rbk = 500000;
    const unsigned red_segments = 3000;

    inclusive_scan_u32(rng, n_scan);
    exclusive_scan_float(rng, n_scan);
    inclusive_scan_max_reduce_then_scan(rng, n_max);
    unsigned scan_segments = 0;
    size_t n_seg_items = segmented_scans(rng, n_seg, scan_segments);
    scans_by_key(rng, n_by_key);
    reduce_exact(rng, n_reduce);
    reduce_float(rng, n_reduce);
    size_t n_red_items = 0;
    segmented_reductions(rng, red_segments, n_red_items);
    size_t runs = reduce_by_key(rng, n_rbk);

    printf("PASS " TEST_NAME ": inclusive_scan uint32 %zu; exclusive_scan float %zu (exact sums); "
           "inclusive_scan int32 max reduce-then-scan %zu; segmented inclusive/exclusive scan "
           "%zu items in %u segments; inclusive/exclusive_scan_by_key %zu; reduce uint64, int32 "
           "min %zu each, float %zu (tol 1e-5*sum|x|); segmented_reduce int64/float max %u "
           "segments, %zu items; reduce_by_key %zu items -> %zu runs\n",
           n_scan, n_scan, n_max, n_seg_items, scan_segments, n_by_key, n_reduce, n_reduce,
           red_segments, n_red_items, n_rbk, runs);
    return 0;
}
