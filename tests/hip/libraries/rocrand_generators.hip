// rocrand_generators: AMD's rocRAND library (Debian's librocrand1, unmodified)
// against the generators' published algorithms computed on the host.
//
// Philox4x32-10 (Salmon, Moraes, Dror, Shaw, "Parallel random numbers: as easy
// as 1, 2, 3", SC 2011): rocRAND's host generator with seed s writes the
// generator's 32-bit output stream in order: word w is word (w mod 4) of the
// ten-round Philox bijection of the 128-bit counter w / 4 under the key
// (s mod 2^32, s / 2^32); successive calls continue the stream, and an offset
// skips that many words.
//
// XORWOW (Marsaglia, "Xorshift RNGs", 2003, with cuRAND's seeding): rocRAND's
// host generator runs 131,072 engines; engine e starts at subsequence e, i.e.
// 2^67 * e steps into the sequence of the seeded state, and output vector j of
// a call comes from engine (j + start) mod 131,072, where start advances by the
// number of vectors each call writes. The host computes the 2^67-step jump as
// a power of the generator's 160x160 transition matrix over GF(2).
//
// Conversions (rocRAND's documented distributions): uniform float =
// 2^-32 + w * 2^-32, in (0, 1]; uniform double from two words w0, w1:
// 2^-53 + (w0 + 2^32 * (w1 >> 11)) * 2^-53; these are exact on host and
// device, so those checks are exact. Normal values use Box-Muller: float from
// two words, u = 2^-32 + w0 * 2^-32, v = (w1 + 1) * (2^-32 * 2pi),
// (sin v, cos v) * sqrt(-2 ln u); double from four words with 53-bit u and
// angle pi * w. The transcendental functions differ between host and device,
// so normal values are checked with a tolerance (normal_tolerance below).
//
// Cases: Philox seed 0x5eed: rocrand_generate (uint32) 1,000,000 words,
// uniform float 1,000,000, normal float (mean 1.5, stddev 2) 1,000,000,
// uniform double 500,000, normal double (mean -3, stddev 0.5) 500,000, all
// from one generator in sequence; a second Philox generator with offset 12,345
// (uniform float, 100,000). XORWOW seed 20240601: uniform float 1,000,001 (not
// a multiple of the engine count, so the next call starts mid-way), normal
// float (mean 0, stddev 1) 600,000, uniform double 300,000, in sequence.
#define TEST_NAME "rocrand_generators"
#include "test_common.hpp"

#include <rocrand/rocrand.h>

#include <array>

namespace {

std::string status_name(rocrand_status s) {
    switch (s) {
        case ROCRAND_STATUS_SUCCESS: return "ROCRAND_STATUS_SUCCESS (no errors)";
        case ROCRAND_STATUS_VERSION_MISMATCH:
            return "ROCRAND_STATUS_VERSION_MISMATCH (header and library versions differ)";
        case ROCRAND_STATUS_NOT_CREATED:
            return "ROCRAND_STATUS_NOT_CREATED (generator was not created)";
        case ROCRAND_STATUS_ALLOCATION_FAILED:
            return "ROCRAND_STATUS_ALLOCATION_FAILED (memory allocation failed)";
        case ROCRAND_STATUS_TYPE_ERROR: return "ROCRAND_STATUS_TYPE_ERROR (generator type is wrong)";
        case ROCRAND_STATUS_OUT_OF_RANGE:
            return "ROCRAND_STATUS_OUT_OF_RANGE (argument out of range)";
        case ROCRAND_STATUS_LENGTH_NOT_MULTIPLE:
            return "ROCRAND_STATUS_LENGTH_NOT_MULTIPLE (size or alignment not as required)";
        case ROCRAND_STATUS_DOUBLE_PRECISION_REQUIRED:
            return "ROCRAND_STATUS_DOUBLE_PRECISION_REQUIRED (no double precision)";
        case ROCRAND_STATUS_LAUNCH_FAILURE:
            return "ROCRAND_STATUS_LAUNCH_FAILURE (kernel launch failure)";
        case ROCRAND_STATUS_INTERNAL_ERROR:
            return "ROCRAND_STATUS_INTERNAL_ERROR (internal library error)";
        default: return "rocrand_status " + std::to_string((int)s) + " (unknown status)";
    }
}

#define CHECK_RAND(...) \
    CHECK_STATUS(rocrand_status, ROCRAND_STATUS_SUCCESS, status_name, __VA_ARGS__)

// ---------------------------------------------------------------- Philox4x32-10

struct Philox {
    uint32_t key0, key1;
    uint64_t word = 0;  // position in the output stream

    explicit Philox(uint64_t seed, uint64_t offset = 0)
        : key0((uint32_t)seed), key1((uint32_t)(seed >> 32)), word(offset) {}

    static std::array<uint32_t, 4> block(uint64_t index, uint32_t k0, uint32_t k1) {
        uint32_t c[4] = {(uint32_t)index, (uint32_t)(index >> 32), 0, 0};
        for (int r = 0; r < 10; ++r) {
            const uint64_t p0 = (uint64_t)0xD2511F53u * c[0];
            const uint64_t p1 = (uint64_t)0xCD9E8D57u * c[2];
            const uint32_t n0 = (uint32_t)(p1 >> 32) ^ c[1] ^ k0;
            const uint32_t n1 = (uint32_t)p1;
            const uint32_t n2 = (uint32_t)(p0 >> 32) ^ c[3] ^ k1;
            const uint32_t n3 = (uint32_t)p0;
            c[0] = n0; c[1] = n1; c[2] = n2; c[3] = n3;
            k0 += 0x9E3779B9u;
            k1 += 0xBB67AE85u;
        }
        return {c[0], c[1], c[2], c[3]};
    }

    uint32_t next() {
        if (cached_index != word / 4) {
            cached_index = word / 4;
            cached = block(cached_index, key0, key1);
        }
        return cached[word++ % 4];
    }

  private:
    uint64_t cached_index = ~0ull;
    std::array<uint32_t, 4> cached{};
};

// ---------------------------------------------------------------- XORWOW

constexpr int kXorwowBits = 160;
using XorState = std::array<uint32_t, 5>;

// A linear map on the 160-bit xorshift state: the images of the basis vectors.
using BitMatrix = std::vector<XorState>;

XorState xorshift_step(const XorState& x) {
    const uint32_t t = x[0] ^ (x[0] >> 2);
    return {x[1], x[2], x[3], x[4], (x[4] ^ (x[4] << 4)) ^ (t ^ (t << 1))};
}

XorState transform_state(const BitMatrix& m, const XorState& v) {
    XorState r{0, 0, 0, 0, 0};
    for (int i = 0; i < kXorwowBits; ++i) {
        if (v[i / 32] >> (i % 32) & 1) {
            for (int k = 0; k < 5; ++k) r[k] ^= m[i][k];
        }
    }
    return r;
}

BitMatrix square(const BitMatrix& m) {
    BitMatrix r(kXorwowBits);
    for (int i = 0; i < kXorwowBits; ++i) r[i] = transform_state(m, m[i]);
    return r;
}

struct XorwowEngine {
    XorState x;
    uint32_t d;
    uint32_t next() {
        x = xorshift_step(x);
        d += 362437u;
        return d + x[4];
    }
};

// The host generator's engines after seeding: engine e at subsequence e.
std::vector<XorwowEngine> xorwow_engines(uint64_t seed, int log2_engines) {
    XorwowEngine base;
    base.x = {123456789u, 362436069u, 521288629u, 88675123u, 5783321u};
    base.d = 6615241u;
    const uint32_t s0 = (uint32_t)seed ^ 0x2c7f967fu;
    const uint32_t s1 = (uint32_t)(seed >> 32) ^ 0xa03697cbu;
    const uint32_t t0 = 1228688033u * s0;
    const uint32_t t1 = 2073658381u * s1;
    base.x[0] += t0;
    base.x[1] ^= t0;
    base.x[2] += t1;
    base.x[3] ^= t1;
    base.x[4] += t0;
    base.d += t1 + t0;

    // One step, then 2^67 steps (67 squarings); the Weyl counter d moves by
    // 362437 * 2^67 = 0 mod 2^32, so a subsequence jump leaves it unchanged.
    BitMatrix m(kXorwowBits);
    for (int i = 0; i < kXorwowBits; ++i) {
        XorState e{0, 0, 0, 0, 0};
        e[i / 32] = 1u << (i % 32);
        m[i] = xorshift_step(e);
    }
    for (int k = 0; k < 67; ++k) m = square(m);
    // jump[k] = 2^(67+k) steps; engine e = engine (e - 2^k) moved by jump[k],
    // 2^k being e's highest bit.
    const size_t count = (size_t)1 << log2_engines;
    std::vector<XorwowEngine> engines(count);
    engines[0] = base;
    for (int k = 0; k < log2_engines; ++k) {
        const size_t lo = (size_t)1 << k;
        for (size_t e = lo; e < 2 * lo; ++e) {
            engines[e].x = transform_state(m, engines[e - lo].x);
            engines[e].d = base.d;
        }
        m = square(m);
    }
    return engines;
}

// Hands out the words of successive generator calls in the order they are used.
struct XorwowHost {
    std::vector<XorwowEngine> engines;
    size_t start = 0;
    // Words for `vectors` outputs of `width` words each: out[j * width + i].
    std::vector<uint32_t> call(size_t vectors, unsigned width) {
        std::vector<uint32_t> out(vectors * width);
        const size_t mask = engines.size() - 1;
        for (size_t j = 0; j < vectors; ++j) {
            XorwowEngine& e = engines[(j + start) & mask];
            for (unsigned i = 0; i < width; ++i) out[j * width + i] = e.next();
        }
        start = (start + vectors) & mask;
        return out;
    }
};

// ---------------------------------------------------------------- distributions

constexpr float k2pow32inv = 2.3283064e-10f;                 // 2^-32 (exactly)
constexpr float k2pow32inv2pi = 2.3283064e-10f * 6.2831855f;  // rocRAND's constant
constexpr double k2pow53inv = 1.1102230246251565e-16;         // 2^-53 (exactly)

float uniform_float(uint32_t w) { return k2pow32inv + (float)w * k2pow32inv; }

double uniform_double(uint32_t w0, uint32_t w1) {
    const uint64_t v = (uint64_t)w0 | ((uint64_t)(w1 >> 11) << 32);
    return k2pow53inv + (double)v * k2pow53inv;
}

// Box-Muller on the host in long double from the same u and angle the library
// computes, and the tolerance of the comparison.
//
// Float: the library computes s = sqrtf(-2 logf(u)) (each within an ulp or
// two: relative error below 4 * 2^-24 in s) and (sin v, cos v) with
// __sincosf, the hardware's sine and cosine of v / 2pi revolutions. The angle
// v itself may differ from the host's by an ulp (a fused multiply-add on the
// device: at most 2^-21 for v < 2pi), the conversion to revolutions adds an
// error of at most 2^-25 revolutions (2e-7), and AMD does not document the
// accuracy of v_sin_f32/v_cos_f32; allowing 2e-6 for it, sin and cos are
// within 3e-6 absolute, so the normal value is within s * 3e-6 + 4 * 2^-24 * |r|,
// times stddev, plus an ulp of the final mean + r * stddev. The bound used is
// stddev * (4e-6 * s + 3e-7 * |r|) + 2^-22 * |result|.
// Double: the library uses sincospi, log and sqrt of double (each within a few
// ulps; the angle w is exact): the bound used is
// stddev * 8 * 2^-53 * (s + |r|) + 4 * 2^-53 * |result|, a few ulps.
struct NormalRef {
    long double value, tol;
};

NormalRef normal_float(uint32_t w0, uint32_t w1, bool second, float mean, float stddev) {
    const float u = k2pow32inv + (float)w0 * k2pow32inv;
    const float v = k2pow32inv2pi + (float)w1 * k2pow32inv2pi;
    const long double s = std::sqrt(-2.0L * std::log((long double)u));
    const long double r = s * (second ? std::cos((long double)v) : std::sin((long double)v));
    const long double value = (long double)mean + r * (long double)stddev;
    const long double tol = (long double)stddev * (4e-6L * s + 3e-7L * std::fabs(r)) +
                            0x1p-22L * std::fabs(value);
    return {value, tol};
}

NormalRef normal_double(const uint32_t w[4], bool second, double mean, double stddev) {
    const uint64_t v1 = (uint64_t)w[0] ^ ((uint64_t)w[1] << 21);
    const uint64_t v2 = (uint64_t)w[2] ^ ((uint64_t)w[3] << 21);
    const double u = k2pow53inv + (double)v1 * k2pow53inv;
    const double a = (k2pow53inv * 2.0) + (double)v2 * (k2pow53inv * 2.0);
    const long double pi = 3.141592653589793238462643383279502884L;
    const long double s = std::sqrt(-2.0L * std::log((long double)u));
    const long double angle = (long double)a * pi;
    const long double r = s * (second ? std::cos(angle) : std::sin(angle));
    const long double value = (long double)mean + r * (long double)stddev;
    const long double tol = (long double)stddev * 8 * 0x1p-53L * (s + std::fabs(r)) +
                            4 * 0x1p-53L * std::fabs(value);
    return {value, tol};
}

// ---------------------------------------------------------------- device calls

template <class T>
std::vector<T> generate(const char* what, rocrand_generator g, size_t n,
                        rocrand_status (*fn)(rocrand_generator, T*, size_t)) {
    DeviceBuffer<T> d(n);
    const rocrand_status st = fn(g, d.ptr, n);
    if (st != ROCRAND_STATUS_SUCCESS) {
        fail(std::string(what) + " returned " + status_name(st));
    }
    CHECK_KERNELS();
    return d.download();
}

template <class T>
std::vector<T> generate_normal(const char* what, rocrand_generator g, size_t n, T mean, T stddev,
                               rocrand_status (*fn)(rocrand_generator, T*, size_t, T, T)) {
    DeviceBuffer<T> d(n);
    const rocrand_status st = fn(g, d.ptr, n, mean, stddev);
    if (st != ROCRAND_STATUS_SUCCESS) {
        fail(std::string(what) + " returned " + status_name(st));
    }
    CHECK_KERNELS();
    return d.download();
}

}  // namespace

int main() {
    // ---- Philox4x32-10
    const uint64_t philox_seed = 0x5eed;
    const size_t n_u32 = 1000000, n_f = 1000000, n_d = 500000, n_off = 100000;
    const uint64_t offset = 12345;
    {
        rocrand_generator g = nullptr;
        CHECK_RAND(rocrand_create_generator(&g, ROCRAND_RNG_PSEUDO_PHILOX4_32_10));
        CHECK_RAND(rocrand_set_seed(g, philox_seed));
        Philox host(philox_seed);

        auto words = generate<unsigned int>("rocrand_generate (philox)", g, n_u32,
                                            rocrand_generate);
        std::vector<unsigned> want_w(n_u32);
        for (auto& w : want_w) w = host.next();
        expect_equal("philox rocrand_generate uint32", words, want_w);

        auto uf = generate<float>("rocrand_generate_uniform (philox)", g, n_f,
                                  rocrand_generate_uniform);
        std::vector<float> want_uf(n_f);
        for (auto& x : want_uf) x = uniform_float(host.next());
        expect_equal("philox uniform float", uf, want_uf);

        auto nf = generate_normal<float>("rocrand_generate_normal (philox)", g, n_f, 1.5f, 2.0f,
                                         rocrand_generate_normal);
        std::vector<long double> want(n_f), tol(n_f);
        for (size_t i = 0; i < n_f; i += 2) {
            const uint32_t w0 = host.next(), w1 = host.next();
            for (int k = 0; k < 2; ++k) {
                NormalRef r = normal_float(w0, w1, k == 1, 1.5f, 2.0f);
                want[i + k] = r.value;
                tol[i + k] = r.tol;
            }
        }
        expect_close("philox normal float", nf, want, tol);

        auto ud = generate<double>("rocrand_generate_uniform_double (philox)", g, n_d,
                                   rocrand_generate_uniform_double);
        std::vector<double> want_ud(n_d);
        for (auto& x : want_ud) {
            const uint32_t w0 = host.next(), w1 = host.next();
            x = uniform_double(w0, w1);
        }
        expect_equal("philox uniform double", ud, want_ud);

        auto nd = generate_normal<double>("rocrand_generate_normal_double (philox)", g, n_d, -3.0,
                                          0.5, rocrand_generate_normal_double);
        want.assign(n_d, 0);
        tol.assign(n_d, 0);
        for (size_t i = 0; i < n_d; i += 2) {
            uint32_t w[4];
            for (auto& x : w) x = host.next();
            for (int k = 0; k < 2; ++k) {
                NormalRef r = normal_double(w, k == 1, -3.0, 0.5);
                want[i + k] = r.value;
                tol[i + k] = r.tol;
            }
        }
        expect_close("philox normal double", nd, want, tol);
        CHECK_RAND(rocrand_destroy_generator(g));
    }
    {
        rocrand_generator g = nullptr;
        CHECK_RAND(rocrand_create_generator(&g, ROCRAND_RNG_PSEUDO_PHILOX4_32_10));
        CHECK_RAND(rocrand_set_seed(g, philox_seed));
        CHECK_RAND(rocrand_set_offset(g, offset));
        Philox host(philox_seed, offset);
        auto uf = generate<float>("rocrand_generate_uniform (philox, offset)", g, n_off,
                                  rocrand_generate_uniform);
        std::vector<float> want_uf(n_off);
        for (auto& x : want_uf) x = uniform_float(host.next());
        expect_equal("philox uniform float with offset", uf, want_uf);
        CHECK_RAND(rocrand_destroy_generator(g));
    }

    // ---- XORWOW
    const uint64_t xorwow_seed = 20240601;
    const size_t nx_u = 1000001, nx_n = 600000, nx_d = 300000;
    {
        rocrand_generator g = nullptr;
        CHECK_RAND(rocrand_create_generator(&g, ROCRAND_RNG_PSEUDO_XORWOW));
        CHECK_RAND(rocrand_set_seed(g, xorwow_seed));
        XorwowHost host{xorwow_engines(xorwow_seed, 17)};

        auto uf = generate<float>("rocrand_generate_uniform (xorwow)", g, nx_u,
                                  rocrand_generate_uniform);
        std::vector<uint32_t> w = host.call(nx_u, 1);
        std::vector<float> want_uf(nx_u);
        for (size_t i = 0; i < nx_u; ++i) want_uf[i] = uniform_float(w[i]);
        expect_equal("xorwow uniform float", uf, want_uf);

        auto nf = generate_normal<float>("rocrand_generate_normal (xorwow)", g, nx_n, 0.0f, 1.0f,
                                         rocrand_generate_normal);
        w = host.call(nx_n / 2, 2);
        std::vector<long double> want(nx_n), tol(nx_n);
        for (size_t i = 0; i < nx_n; i += 2) {
            for (int k = 0; k < 2; ++k) {
                NormalRef r = normal_float(w[i], w[i + 1], k == 1, 0.0f, 1.0f);
                want[i + k] = r.value;
                tol[i + k] = r.tol;
            }
        }
        expect_close("xorwow normal float", nf, want, tol);

        auto ud = generate<double>("rocrand_generate_uniform_double (xorwow)", g, nx_d,
                                   rocrand_generate_uniform_double);
        w = host.call(nx_d, 2);
        std::vector<double> want_ud(nx_d);
        for (size_t i = 0; i < nx_d; ++i) want_ud[i] = uniform_double(w[2 * i], w[2 * i + 1]);
        expect_equal("xorwow uniform double", ud, want_ud);
        CHECK_RAND(rocrand_destroy_generator(g));
    }

    printf("PASS " TEST_NAME ": philox4x32-10 uint32 %zu, uniform float %zu, normal float %zu, "
           "uniform double %zu, normal double %zu in sequence, uniform float %zu at offset %llu; "
           "xorwow uniform float %zu, normal float %zu, uniform double %zu in sequence "
           "(uniform exact, normal within the Box-Muller tolerance)\n",
           n_u32, n_f, n_f, n_d, n_d, n_off, (unsigned long long)offset, nx_u, nx_n, nx_d);
    return 0;
}
