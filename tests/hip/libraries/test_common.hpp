// Helpers shared by the library test programs: HIP status checks that end the
// program with a FAIL line, a deterministic pseudo-random generator for the
// host-side inputs, device buffers, and the floating-point tolerance check.
//
// Every program defines TEST_NAME before including this header and prints
// exactly one line on stdout: "PASS <name>: ..." or "FAIL <name>: ...".
#pragma once

#include <hip/hip_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#ifndef TEST_NAME
#error "define TEST_NAME before including test_common.hpp"
#endif

#define CHECK_HIP(...)                                                                 \
    do {                                                                               \
        hipError_t check_err_ = (__VA_ARGS__);                                         \
        if (check_err_ != hipSuccess) {                                                \
            printf("FAIL " TEST_NAME ": %s returned %s (%s) at %s:%d\n", #__VA_ARGS__,   \
                   hipGetErrorName(check_err_), hipGetErrorString(check_err_),         \
                   __FILE__, __LINE__);                                                \
            exit(1);                                                                   \
        }                                                                              \
    } while (0)

// The kernels a library call launched: launch errors, then execution errors.
#define CHECK_KERNELS()                     \
    do {                                    \
        CHECK_HIP(hipGetLastError());       \
        CHECK_HIP(hipDeviceSynchronize());  \
    } while (0)

// A library status: `name_fn` gives the status's name and description.
#define CHECK_STATUS(type, success, name_fn, ...)                                      \
    do {                                                                               \
        type check_st_ = (__VA_ARGS__);                                                \
        if (check_st_ != (success)) {                                                  \
            printf("FAIL " TEST_NAME ": %s returned %s at %s:%d\n", #__VA_ARGS__,        \
                   name_fn(check_st_).c_str(), __FILE__, __LINE__);                    \
            exit(1);                                                                   \
        }                                                                              \
    } while (0)

[[noreturn]] inline void fail(const std::string& what) {
    printf("FAIL " TEST_NAME ": %s\n", what.c_str());
    exit(1);
}

// splitmix64: a fixed, platform-independent input sequence.
struct Rng {
    uint64_t state;
    explicit Rng(uint64_t seed) : state(seed) {}
    uint64_t next() {
        uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    uint32_t u32() { return (uint32_t)(next() >> 32); }
    uint32_t below(uint32_t n) { return u32() % n; }
    // Uniform in [-1, 1), a multiple of 2^-23.
    float sym() { return (float)((int32_t)(u32() >> 8) - (1 << 23)) * (1.0f / 8388608.0f); }
};

inline std::string show(double v) {
    char b[64];
    snprintf(b, sizeof b, "%.17g", v);
    return b;
}
inline std::string show(float v) {
    char b[64];
    snprintf(b, sizeof b, "%.9g", (double)v);
    return b;
}
inline std::string show(long double v) {
    char b[64];
    snprintf(b, sizeof b, "%.20Lg", v);
    return b;
}
inline std::string show(int v) { return std::to_string(v); }
inline std::string show(unsigned v) { return std::to_string(v); }

template <class T>
void expect_equal(const char* what, const std::vector<T>& got, const std::vector<T>& want) {
    if (got.size() != want.size()) {
        fail(std::string(what) + ": " + std::to_string(got.size()) + " elements, want " +
             std::to_string(want.size()));
    }
    for (size_t i = 0; i < got.size(); ++i) {
        if (!(got[i] == want[i])) {
            fail(std::string(what) + ": index " + std::to_string(i) + ", got " + show(got[i]) +
                 ", want " + show(want[i]));
        }
    }
}

// |got[i] - want[i]| <= tol[i] for every i (NaN fails).
template <class T, class R>
void expect_close(const char* what, const std::vector<T>& got, const std::vector<R>& want,
                  const std::vector<R>& tol) {
    if (got.size() != want.size()) {
        fail(std::string(what) + ": " + std::to_string(got.size()) + " elements, want " +
             std::to_string(want.size()));
    }
    for (size_t i = 0; i < got.size(); ++i) {
        R diff = (R)got[i] - want[i];
        if (!(diff <= tol[i] && -diff <= tol[i])) {
            fail(std::string(what) + ": index " + std::to_string(i) + ", got " + show(got[i]) +
                 ", want " + show(want[i]) + " +- " + show(tol[i]));
        }
    }
}

template <class T>
struct DeviceBuffer {
    T* ptr = nullptr;
    size_t count = 0;
    explicit DeviceBuffer(size_t n) : count(n) {
        CHECK_HIP(hipMalloc(&ptr, (n ? n : 1) * sizeof(T)));
    }
    explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) {
        upload(host);
    }
    ~DeviceBuffer() {
        if (ptr) CHECK_HIP(hipFree(ptr));
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    void upload(const std::vector<T>& host) {
        CHECK_HIP(hipMemcpy(ptr, host.data(), host.size() * sizeof(T), hipMemcpyHostToDevice));
    }
    std::vector<T> download() const {
        std::vector<T> host(count);
        CHECK_HIP(hipMemcpy(host.data(), ptr, count * sizeof(T), hipMemcpyDeviceToHost));
        return host;
    }
};
