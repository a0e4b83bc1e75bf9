// rocprim_sort: rocPRIM's device-wide sorts against std::stable_sort on the host.
//
// Cases (sizes chosen so that each of radix sort's three strategies runs:
// rocPRIM sorts at most 2,560 items in one block, up to 1,048,576 with block
// sorts and merges, and more with one digit pass per 6-7 bits):
//   1. radix_sort_keys, uint32, all 32 bits, 1,100,000 keys (digit passes);
//   2. radix_sort_keys_desc, float with negative and positive values, 300,000
//      keys (block sort + merge);
//   3. radix_sort_pairs, uint64 keys sorted on bits [0, 40) only, uint32
//      values, 200,000 pairs with many equal keys: the result must be the stable
//      order (radix sort is stable), and bits 40-63 must ride along unchanged;
//   4. radix_sort_pairs, int32 keys (negative and positive), 2,000 pairs (one
//      block);
//   5. segmented_radix_sort_pairs, uint32 keys and values, 1,500 segments of
//      0-150 keys (some empty), each segment sorted on its own, stable;
//   6. merge_sort (keys only), int32 with a descending comparator, 200,000 keys;
//   7. merge_sort pairs, distinct uint32 keys with a value each, 150,000 pairs.
// All comparisons are exact: sorting moves values, it never computes them.
#define TEST_NAME "rocprim_sort"
#include "test_common.hpp"

#include <rocprim/rocprim.hpp>

#include <algorithm>
#include <numeric>

namespace {

struct Greater {
    __host__ __device__ bool operator()(int a, int b) const { return a > b; }
};

void radix_keys_u32(Rng& rng, size_t n) {
    std::vector<uint32_t> keys(n);
    for (auto& k : keys) k = rng.u32();
    DeviceBuffer<uint32_t> d_in(keys), d_out(n);
    RUN_ROCPRIM(rocprim::radix_sort_keys, d_in.ptr, d_out.ptr, n);
    std::vector<uint32_t> want = keys;
    std::stable_sort(want.begin(), want.end());
    expect_equal("radix_sort_keys uint32", d_out.download(), want, n);
    // The input must be left as it was.
    expect_equal("radix_sort_keys uint32 input", d_in.download(), keys, n);
}

void radix_keys_desc_float(Rng& rng, size_t n) {
    std::vector<float> keys(n);
    // Multiples of 1/64 in (-10000, 10000), never -0.0: the radix order of
    // -0.0 and +0.0 is by bit pattern, std::sort's is "equal".
    for (auto& k : keys) {
        k = (float)((int)rng.below(1280000) - 640000) / 64.0f;
        if (k == 0.0f) k = 0.0f;
    }
    DeviceBuffer<float> d_in(keys), d_out(n);
    RUN_ROCPRIM(rocprim::radix_sort_keys_desc, d_in.ptr, d_out.ptr, n);
    std::vector<float> want = keys;
    std::stable_sort(want.begin(), want.end(), [](float a, float b) { return a > b; });
    expect_equal("radix_sort_keys_desc float", d_out.download(), want, n);
}

void radix_pairs_u64_bits(Rng& rng, size_t n) {
    const unsigned begin_bit = 0, end_bit = 40;
    const uint64_t mask = (1ull << end_bit) - 1;
    std::vector<uint64_t> keys(n);
    std::vector<uint32_t> vals(n);
    for (size_t i = 0; i < n; ++i) {
        // Low 40 bits from a small set of values (many ties), high bits random.
        uint64_t low = (uint64_t)rng.below(20000) * 0x1234567ull;
        keys[i] = ((rng.next() << end_bit)) | (low & mask);
        vals[i] = (uint32_t)i;
    }
    DeviceBuffer<uint64_t> dk_in(keys), dk_out(n);
    DeviceBuffer<uint32_t> dv_in(vals), dv_out(n);
    RUN_ROCPRIM(rocprim::radix_sort_pairs, dk_in.ptr, dk_out.ptr, dv_in.ptr, dv_out.ptr, n,
                begin_bit, end_bit);
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return (keys[a] & mask) < (keys[b] & mask); });
    std::vector<uint64_t> want_k(n);
    std::vector<uint32_t> want_v(n);
    for (size_t i = 0; i < n; ++i) {
        want_k[i] = keys[order[i]];
        want_v[i] = vals[order[i]];
    }
    expect_equal("radix_sort_pairs uint64[0,40) keys", dk_out.download(), want_k, n);
    expect_equal("radix_sort_pairs uint64[0,40) values (stability)", dv_out.download(), want_v, n);
}

void radix_pairs_i32_small(Rng& rng, size_t n) {
    std::vector<int32_t> keys(n);
    std::vector<int32_t> vals(n);
    for (size_t i = 0; i < n; ++i) {
        keys[i] = (int32_t)rng.below(1001) - 500;
        vals[i] = (int32_t)(i * 3 + 1);
    }
    DeviceBuffer<int32_t> dk_in(keys), dk_out(n), dv_in(vals), dv_out(n);
    RUN_ROCPRIM(rocprim::radix_sort_pairs, dk_in.ptr, dk_out.ptr, dv_in.ptr, dv_out.ptr, n);
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), (size_t)0);
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return keys[a] < keys[b]; });
    std::vector<int32_t> want_k(n), want_v(n);
    for (size_t i = 0; i < n; ++i) {
        want_k[i] = keys[order[i]];
        want_v[i] = vals[order[i]];
    }
    expect_equal("radix_sort_pairs int32 keys (single block)", dk_out.download(), want_k, n);
    expect_equal("radix_sort_pairs int32 values (single block)", dv_out.download(), want_v, n);
}

size_t segmented_radix_pairs(Rng& rng, unsigned segments) {
    std::vector<unsigned> offsets(segments + 1, 0);
    for (unsigned s = 0; s < segments; ++s) {
        unsigned len = (s % 10 == 3) ? 0 : rng.below(151);  // every tenth segment empty
        offsets[s + 1] = offsets[s] + len;
    }
    const size_t n = offsets[segments];
    std::vector<uint32_t> keys(n), vals(n);
    for (size_t i = 0; i < n; ++i) {
        keys[i] = rng.below(64);  // many ties within a segment
        vals[i] = (uint32_t)i;
    }
    DeviceBuffer<uint32_t> dk_in(keys), dk_out(n), dv_in(vals), dv_out(n);
    DeviceBuffer<unsigned> d_off(offsets);
    RUN_ROCPRIM(rocprim::segmented_radix_sort_pairs, dk_in.ptr, dk_out.ptr, dv_in.ptr, dv_out.ptr,
                (unsigned)n, segments, d_off.ptr, d_off.ptr + 1);
    std::vector<uint32_t> want_k(n), want_v(n);
    for (unsigned s = 0; s < segments; ++s) {
        std::vector<uint32_t> order(offsets[s + 1] - offsets[s]);
        std::iota(order.begin(), order.end(), offsets[s]);
        std::stable_sort(order.begin(), order.end(),
                         [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
        for (size_t j = 0; j < order.size(); ++j) {
            want_k[offsets[s] + j] = keys[order[j]];
            want_v[offsets[s] + j] = vals[order[j]];
        }
    }
    expect_equal("segmented_radix_sort_pairs keys", dk_out.download(), want_k, n);
    expect_equal("segmented_radix_sort_pairs values (stability)", dv_out.download(), want_v, n);
    return n;
}

void merge_sort_keys_desc(Rng& rng, size_t n) {
    std::vector<int> keys(n);
    for (auto& k : keys) k = (int)rng.u32();
    DeviceBuffer<int> d_in(keys), d_out(n);
    RUN_ROCPRIM(rocprim::merge_sort, d_in.ptr, d_out.ptr, n, Greater());
    std::vector<int> want = keys;
    std::stable_sort(want.begin(), want.end(), Greater());
    expect_equal("merge_sort int32 descending", d_out.download(), want, n);
}

void merge_sort_pairs(Rng& rng, size_t n) {
    // Distinct keys: an odd multiplier is a bijection on uint32, so the
    // sorted order is unique whatever the algorithm's stability.
    std::vector<uint32_t> keys(n), vals(n);
    for (size_t i = 0; i < n; ++i) {
        keys[i] = (uint32_t)i * 2654435761u + 12345u;
        vals[i] = rng.u32();
    }
    DeviceBuffer<uint32_t> dk_in(keys), dk_out(n), dv_in(vals), dv_out(n);
    RUN_ROCPRIM(rocprim::merge_sort, dk_in.ptr, dk_out.ptr, dv_in.ptr, dv_out.ptr, n,
                rocprim::less<uint32_t>());
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), (size_t)0);
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return keys[a] < keys[b]; });
    std::vector<uint32_t> want_k(n), want_v(n);
    for (size_t i = 0; i < n; ++i) {
        want_k[i] = keys[order[i]];
        want_v[i] = vals[order[i]];
    }
    expect_equal("merge_sort pairs keys", dk_out.download(), want_k, n);
    expect_equal("merge_sort pairs values", dv_out.download(), want_v, n);
}

}  // namespace

int main() {
    Rng rng(20240601);
    const size_t n_radix = 1100000, n_desc = 300000, n_pairs64 = 200000, n_small = 2000;
    const unsigned segments = 1500;
    const size_t n_merge = 200000, n_merge_pairs = 150000;

    radix_keys_u32(rng, n_radix);
    radix_keys_desc_float(rng, n_desc);
    radix_pairs_u64_bits(rng, n_pairs64);
    radix_pairs_i32_small(rng, n_small);
    size_t n_seg = segmented_radix_pairs(rng, segments);
    merge_sort_keys_desc(rng, n_merge);
    merge_sort_pairs(rng, n_merge_pairs);

    printf("PASS " TEST_NAME ": radix_sort_keys uint32 %zu keys; radix_sort_keys_desc float %zu; "
           "radix_sort_pairs uint64 bits [0,40) %zu pairs (stable); radix_sort_pairs int32 %zu "
           "(single block); segmented_radix_sort_pairs %u segments, %zu pairs (stable); "
           "merge_sort int32 descending %zu; merge_sort pairs %zu\n",
           n_radix, n_desc, n_pairs64, n_small, segments, n_seg, n_merge, n_merge_pairs);
    return 0;
}
