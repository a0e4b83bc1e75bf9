// Helpers shared by the rocPRIM test programs: status checks that end the
// program with a FAIL line, a deterministic pseudo-random generator for the
// host-side inputs, and first-mismatch comparison of host and device arrays.
//
// Every program defines TEST_NAME before including this header and prints
// exactly one line on stdout: "PASS <name>: ..." or "FAIL <name>: ...".
#pragma once

#include <hip/hip_runtime.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

#ifndef TEST_NAME
#error "define TEST_NAME before including test_common.hpp"
#endif

// Any HIP or rocPRIM call: rocPRIM's device-wide algorithms return hipError_t.
// (Variadic, so that template argument lists with commas need no parentheses.)
#define CHECK(...)                                                                     \
    do {                                                                               \
        hipError_t check_err_ = (__VA_ARGS__);                                         \
        if (check_err_ != hipSuccess) {                                                \
            printf("FAIL " TEST_NAME ": %s returned %s (%s) at %s:%d\n", #__VA_ARGS__,   \
                   hipGetErrorName(check_err_), hipGetErrorString(check_err_),         \
                   __FILE__, __LINE__);                                                \
            exit(1);                                                                   \
        }                                                                              \
    } while (0)

// The result of the kernels launched so far: launch errors, then execution errors.
#define CHECK_KERNELS()                 \
    do {                                \
        CHECK(hipGetLastError());       \
        CHECK(hipDeviceSynchronize());  \
    } while (0)

[[noreturn]] inline void fail(const std::string& what) {
    printf("FAIL " TEST_NAME ": %s\n", what.c_str());
    exit(1);
}

// splitmix64: a fixed, platform-independent sequence, so inputs (and therefore
// the expected results) are the same on every run.
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
    // Uniform in [0, n) (n > 0); the modulo bias is irrelevant for test inputs.
    uint32_t below(uint32_t n) { return u32() % n; }
};

inline std::string show(int v) { return std::to_string(v); }
inline std::string show(unsigned v) { return std::to_string(v); }
inline std::string show(long v) { return std::to_string(v); }
inline std::string show(unsigned long v) { return std::to_string(v); }
inline std::string show(long long v) { return std::to_string(v); }
inline std::string show(unsigned long long v) { return std::to_string(v); }
inline std::string show(double v) {
    char b[64];
    snprintf(b, sizeof b, "%.17g", v);
    return b;
}
inline std::string show(float v) {
    char b[64];
    snprintf(b, sizeof b, "%.9g (0x%08x)", (double)v, *reinterpret_cast<const uint32_t*>(&v));
    return b;
}
inline std::string show(int8_t v) { return std::to_string((int)v); }
inline std::string show(uint8_t v) { return std::to_string((unsigned)v); }
inline std::string show(int16_t v) { return std::to_string((int)v); }
inline std::string show(uint16_t v) { return std::to_string((unsigned)v); }

// Exact comparison: the first index where got != want ends the program.
template <class T>
void expect_equal(const char* what, const std::vector<T>& got, const std::vector<T>& want,
                  size_t count) {
    if (got.size() < count || want.size() < count) {
        fail(std::string(what) + ": result has " + std::to_string(got.size()) +
             " elements, want at least " + std::to_string(count));
    }
    for (size_t i = 0; i < count; ++i) {
        if (!(got[i] == want[i])) {
            fail(std::string(what) + ": index " + std::to_string(i) + ", got " + show(got[i]) +
                 ", want " + show(want[i]));
        }
    }
}

template <class T>
void expect_value(const char* what, T got, T want) {
    if (!(got == want)) {
        fail(std::string(what) + ": got " + show(got) + ", want " + show(want));
    }
}

// One rocPRIM device-wide call: the storage-size query (temporary storage
// null), the allocation, the call itself, then the status of its kernels.
#define RUN_ROCPRIM(func, ...)                              \
    do {                                                    \
        TempStorage run_ts_;                                \
        CHECK(func(nullptr, run_ts_.bytes, __VA_ARGS__));   \
        run_ts_.allocate();                                 \
        CHECK(func(run_ts_.ptr, run_ts_.bytes, __VA_ARGS__)); \
        CHECK_KERNELS();                                    \
    } while (0)

// Device buffers that free themselves; copies check their status.
template <class T>
struct DeviceBuffer {
    T* ptr = nullptr;
    size_t count = 0;
    explicit DeviceBuffer(size_t n) : count(n) {
        CHECK(hipMalloc(&ptr, (n ? n : 1) * sizeof(T)));
    }
    explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) {
        upload(host);
    }
    ~DeviceBuffer() {
        if (ptr) CHECK(hipFree(ptr));
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    void upload(const std::vector<T>& host) {
        CHECK(hipMemcpy(ptr, host.data(), host.size() * sizeof(T), hipMemcpyHostToDevice));
    }
    std::vector<T> download(size_t n) const {
        std::vector<T> host(n);
        CHECK(hipMemcpy(host.data(), ptr, n * sizeof(T), hipMemcpyDeviceToHost));
        return host;
    }
    std::vector<T> download() const { return download(count); }
};

// Temporary storage for one rocPRIM call: the size query, then the allocation.
struct TempStorage {
    void* ptr = nullptr;
    size_t bytes = 0;
    void allocate() { CHECK(hipMalloc(&ptr, bytes ? bytes : 1)); }
    ~TempStorage() {
        if (ptr) CHECK(hipFree(ptr));
    }
};
