// templates: templated kernels instantiated for int, float and double.
//
//  - axpy<T>: y = a * x + y, launched with triple chevrons;
//  - transform<T, Op>: out = op(in) with functors passed by value as kernel
//    arguments (a stateless Square and a stateful Clamp<T>), launched with
//    hipLaunchKernelGGL;
//  - transpose<T, TILE>: a tiled 2-D transpose through __shared__ memory on a
//    2-D grid (blockIdx.y, threadIdx.y) whose extent is not a multiple of the
//    tile, launched with hipLaunchKernelGGL and HIP_KERNEL_NAME.
// Inputs are chosen so every float/double operation is exact (see below), so
// all comparisons are exact.
#include <hip/hip_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define TEST_NAME "templates"

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

template <typename T>
__global__ void axpy(int n, T a, const T* x, T* y) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        y[i] = a * x[i] + y[i];
    }
}

struct Square {
    template <typename T>
    __host__ __device__ T operator()(T v) const { return v * v; }
};

template <typename T>
struct Clamp {
    T lo, hi;
    __host__ __device__ T operator()(T v) const { return v < lo ? lo : (v > hi ? hi : v); }
};

template <typename T, typename Op>
__global__ void transform(const T* in, T* out, int n, Op op) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = op(in[i]);
    }
}

// out (cols x rows) = transpose of in (rows x cols), both row-major.
template <typename T, int TILE>
__global__ void transpose(const T* in, T* out, int rows, int cols) {
    __shared__ T tile[TILE][TILE + 1];  // +1 column avoids bank conflicts
    int c = blockIdx.x * TILE + threadIdx.x;
    int r = blockIdx.y * TILE + threadIdx.y;
    if (r < rows && c < cols) {
        tile[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];
    }
    __syncthreads();
    int oc = blockIdx.y * TILE + threadIdx.x;  // column of out = row of in
    int orow = blockIdx.x * TILE + threadIdx.y;
    if (orow < cols && oc < rows) {
        out[(size_t)orow * rows + oc] = tile[threadIdx.x][threadIdx.y];
    }
}

template <typename T> const char* type_name();
template <> const char* type_name<int>() { return "int"; }
template <> const char* type_name<float>() { return "float"; }
template <> const char* type_name<double>() { return "double"; }

template <typename T>
static bool check_equal(const char* what, const std::vector<T>& got, const std::vector<T>& want) {
    for (size_t i = 0; i < want.size(); ++i) {
        if (got[i] != want[i]) {
            printf("FAIL " TEST_NAME ": %s<%s>[%zu] got %.17g, want %.17g\n", what, type_name<T>(),
                   i, (double)got[i], (double)want[i]);
            return false;
        }
    }
    return true;
}

// Floating-point values are multiples of 1/4 with magnitude <= 127.5 and
// a = 3/2, so a*x + y (multiples of 1/8, magnitude < 2^9) and x*x (multiples
// of 1/16, magnitude < 2^14) need at most 18 significant bits: every result is
// exact in float and double whether or not the compiler fuses the multiply-add,
// hence identical on host and device.
template <typename T>
static T input_value(int i) {
    return (T)((i * 37) % 1021 - 510) / (T)4;
}
template <>
int input_value<int>(int i) {
    return (i * 37) % 1021 - 510;
}

template <typename T>
static bool run_type(int& checked) {
    const int n = 20000 + 3;
    const T a = (T)3 / (T)2;  // 1 for int
    std::vector<T> x(n), y(n), out(n), want(n);
    for (int i = 0; i < n; ++i) {
        x[i] = input_value<T>(i);
        y[i] = input_value<T>(i * 5 + 11);
    }
    T *d_x = nullptr, *d_y = nullptr, *d_out = nullptr;
    CHECK(hipMalloc(&d_x, n * sizeof(T)));
    CHECK(hipMalloc(&d_y, n * sizeof(T)));
    CHECK(hipMalloc(&d_out, n * sizeof(T)));
    CHECK(hipMemcpy(d_x, x.data(), n * sizeof(T), hipMemcpyHostToDevice));
    CHECK(hipMemcpy(d_y, y.data(), n * sizeof(T), hipMemcpyHostToDevice));

    // axpy with a grid smaller than n / block, so the grid-stride loop iterates.
    axpy<T><<<24, 256>>>(n, a, d_x, d_y);
    CHECK_LAUNCH();
    CHECK(hipMemcpy(out.data(), d_y, n * sizeof(T), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
        want[i] = a * x[i] + y[i];
    }
    if (!check_equal("axpy", out, want)) return false;
    checked += n;

    // transform with a stateless functor.
    const int block = 192;
    const int grid = (n + block - 1) / block;
    hipLaunchKernelGGL(HIP_KERNEL_NAME(transform<T, Square>), dim3(grid), dim3(block), 0, 0,
                       d_x, d_out, n, Square());
    CHECK_LAUNCH();
    CHECK(hipMemcpy(out.data(), d_out, n * sizeof(T), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
        want[i] = Square()(x[i]);
    }
    if (!check_equal("transform<Square>", out, want)) return false;
    checked += n;

    // transform with a functor carrying state (two T members) by value.
    Clamp<T> clamp{(T)-100, (T)75};
    hipLaunchKernelGGL(HIP_KERNEL_NAME(transform<T, Clamp<T>>), dim3(grid), dim3(block), 0, 0,
                       d_x, d_out, n, clamp);
    CHECK_LAUNCH();
    CHECK(hipMemcpy(out.data(), d_out, n * sizeof(T), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
        want[i] = clamp(x[i]);
    }
    if (!check_equal("transform<Clamp>", out, want)) return false;
    checked += n;

    // 2-D transpose of a rows x cols matrix, neither a multiple of the tile.
    constexpr int kTile = 16;
    const int rows = 150, cols = 133;
    std::vector<T> m(rows * cols), mt(rows * cols), want_t(rows * cols);
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
            m[r * cols + c] = input_value<T>(r * 1000 + c);
            want_t[c * rows + r] = m[r * cols + c];
        }
    }
    T *d_m = nullptr, *d_mt = nullptr;
    CHECK(hipMalloc(&d_m, m.size() * sizeof(T)));
    CHECK(hipMalloc(&d_mt, m.size() * sizeof(T)));
    CHECK(hipMemcpy(d_m, m.data(), m.size() * sizeof(T), hipMemcpyHostToDevice));
    dim3 tgrid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    dim3 tblock(kTile, kTile);
    hipLaunchKernelGGL(HIP_KERNEL_NAME(transpose<T, kTile>), tgrid, tblock, 0, 0, d_m, d_mt,
                       rows, cols);
    CHECK_LAUNCH();
    CHECK(hipDeviceSynchronize());
    CHECK(hipMemcpy(mt.data(), d_mt, mt.size() * sizeof(T), hipMemcpyDeviceToHost));
    if (!check_equal("transpose", mt, want_t)) return false;
    checked += rows * cols;

    CHECK(hipFree(d_x));
    CHECK(hipFree(d_y));
    CHECK(hipFree(d_out));
    CHECK(hipFree(d_m));
    CHECK(hipFree(d_mt));
    return true;
}

int main() {
    int checked = 0;
    if (!run_type<int>(checked)) return 1;
    if (!run_type<float>(checked)) return 1;
    if (!run_type<double>(checked)) return 1;
    printf("PASS " TEST_NAME ": axpy, transform<Square>, transform<Clamp>, 150x133 transpose "
           "(16x16 tiles, 2-D grid) for int, float, double: %d values exact\n", checked);
    return 0;
}
