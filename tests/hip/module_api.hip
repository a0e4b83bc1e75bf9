// module_api: the module (driver-style) API on a separately built code object.
//
// Usage: module_api [PATH.co]
//   PATH.co is module_kernels.hip built with
//   `hipcc --genco --offload-arch=<target> -o module_kernels.<target>.co`.
//   Without an argument the program looks for exactly one module_kernels.*.co
//   next to its own executable (build.sh puts one there).
//
// Checks: hipModuleLoad, hipModuleGetFunction (also that an unknown name is an
// error), hipModuleGetGlobal (sizes; a global written by the host before a
// launch, one accumulated by a kernel and read after, and an initialized
// table), hipModuleLaunchKernel with a kernelParams array (1-D and a 2-D grid
// with dynamic shared memory) and with the `extra` form
// (HIP_LAUNCH_PARAM_BUFFER_POINTER / _SIZE / _END, arguments of mixed size and
// alignment), hipModuleLoadData from a buffer holding the file, and
// hipModuleUnload of both modules.
#include <hip/hip_runtime.h>

#include <dirent.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define TEST_NAME "module_api"

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

// Finds the single module_kernels.*.co in the directory of this executable.
static std::string default_module_path() {
    char exe[4096];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (len <= 0) {
        return "";
    }
    exe[len] = '\0';
    std::string dir(exe);
    dir = dir.substr(0, dir.rfind('/'));
    DIR* d = opendir(dir.c_str());
    if (!d) {
        return "";
    }
    std::vector<std::string> found;
    while (struct dirent* e = readdir(d)) {
        std::string name = e->d_name;
        if (name.size() > 18 && name.compare(0, 15, "module_kernels.") == 0 &&
            name.compare(name.size() - 3, 3, ".co") == 0) {
            found.push_back(dir + "/" + name);
        }
    }
    closedir(d);
    return found.size() == 1 ? found[0] : "";
}

static bool read_file(const std::string& path, std::vector<char>& out) {
    FILE* f = fopen(path.c_str(), "rb");
    if (!f) {
        return false;
    }
    char buf[65536];
    size_t got;
    while ((got = fread(buf, 1, sizeof(buf), f)) > 0) {
        out.insert(out.end(), buf, buf + got);
    }
    fclose(f);
    return !out.empty();
}

// Launches scale_add from `mod` over n elements and checks y and g_total.
static bool run_scale_add(hipModule_t mod, const char* label, int scale, int& checked) {
    hipFunction_t fn = nullptr;
    CHECK(hipModuleGetFunction(&fn, mod, "scale_add"));

    hipDeviceptr_t g_scale = nullptr, g_total = nullptr;
    size_t scale_bytes = 0, total_bytes = 0;
    CHECK(hipModuleGetGlobal(&g_scale, &scale_bytes, mod, "g_scale"));
    CHECK(hipModuleGetGlobal(&g_total, &total_bytes, mod, "g_total"));
    if (scale_bytes != sizeof(int) || total_bytes != sizeof(unsigned long long)) {
        printf("FAIL " TEST_NAME ": %s: hipModuleGetGlobal sizes got g_scale=%zu g_total=%zu, "
               "want %zu and %zu\n", label, scale_bytes, total_bytes, sizeof(int),
               sizeof(unsigned long long));
        return false;
    }
    // The module's initial value of g_scale is 1.
    int initial = 0;
    CHECK(hipMemcpy(&initial, g_scale, sizeof(int), hipMemcpyDeviceToHost));
    if (initial != 1) {
        printf("FAIL " TEST_NAME ": %s: initial g_scale got %d, want 1\n", label, initial);
        return false;
    }
    unsigned long long zero = 0;
    CHECK(hipMemcpy(g_scale, &scale, sizeof(int), hipMemcpyHostToDevice));
    CHECK(hipMemcpy(g_total, &zero, sizeof(zero), hipMemcpyHostToDevice));

    const int n = 12345;
    std::vector<int> x(n), y(n);
    for (int i = 0; i < n; ++i) {
        x[i] = (i * 29) % 1999 - 999;
        y[i] = i % 101;
    }
    int *d_x = nullptr, *d_y = nullptr;
    CHECK(hipMalloc(&d_x, n * sizeof(int)));
    CHECK(hipMalloc(&d_y, n * sizeof(int)));
    CHECK(hipMemcpy(d_x, x.data(), n * sizeof(int), hipMemcpyHostToDevice));
    CHECK(hipMemcpy(d_y, y.data(), n * sizeof(int), hipMemcpyHostToDevice));

    int n_arg = n;
    void* params[] = {&d_x, &d_y, &n_arg};
    const unsigned block = 256;
    CHECK(hipModuleLaunchKernel(fn, (n + block - 1) / block, 1, 1, block, 1, 1, 0, nullptr,
                                params, nullptr));
    CHECK(hipDeviceSynchronize());

    std::vector<int> out(n);
    unsigned long long total = 0;
    CHECK(hipMemcpy(out.data(), d_y, n * sizeof(int), hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(&total, g_total, sizeof(total), hipMemcpyDeviceToHost));
    unsigned long long want_total = 0;
    for (int i = 0; i < n; ++i) {
        const int want = scale * x[i] + y[i];
        if (out[i] != want) {
            printf("FAIL " TEST_NAME ": %s: scale_add y[%d] got %d, want %d\n", label, i, out[i],
                   want);
            return false;
        }
        want_total += (unsigned long long)(long long)x[i];
    }
    if (total != want_total) {
        printf("FAIL " TEST_NAME ": %s: g_total got %lld, want %lld\n", label, (long long)total,
               (long long)want_total);
        return false;
    }
    checked += n + 1;
    CHECK(hipFree(d_x));
    CHECK(hipFree(d_y));
    return true;
}

int main(int argc, char** argv) {
    std::string path = argc > 1 ? argv[1] : default_module_path();
    if (path.empty()) {
        printf("FAIL " TEST_NAME ": no code object given and no single module_kernels.*.co next "
               "to the executable (usage: %s PATH.co)\n", argv[0]);
        return 1;
    }
    int checked = 0;

    // --- hipModuleLoad from the file ---
    hipModule_t mod = nullptr;
    CHECK(hipModuleLoad(&mod, path.c_str()));
    if (!run_scale_add(mod, "hipModuleLoad", 3, checked)) return 1;

    // An unknown kernel name must be reported as an error.
    hipFunction_t missing = nullptr;
    hipError_t err = hipModuleGetFunction(&missing, mod, "no_such_kernel");
    if (err == hipSuccess) {
        printf("FAIL " TEST_NAME ": hipModuleGetFunction(\"no_such_kernel\") got hipSuccess, "
               "want an error\n");
        return 1;
    }
    (void)hipGetLastError();  // clear the sticky error of the failed lookup

    // Initialized table.
    hipDeviceptr_t g_table = nullptr;
    size_t table_bytes = 0;
    CHECK(hipModuleGetGlobal(&g_table, &table_bytes, mod, "g_table"));
    int table[8] = {0};
    const int want_table[8] = {2, 3, 5, 7, 11, 13, 17, 19};
    if (table_bytes != sizeof(table)) {
        printf("FAIL " TEST_NAME ": hipModuleGetGlobal(g_table) size got %zu, want %zu\n",
               table_bytes, sizeof(table));
        return 1;
    }
    CHECK(hipMemcpy(table, g_table, sizeof(table), hipMemcpyDeviceToHost));
    for (int k = 0; k < 8; ++k) {
        if (table[k] != want_table[k]) {
            printf("FAIL " TEST_NAME ": g_table[%d] got %d, want %d\n", k, table[k],
                   want_table[k]);
            return 1;
        }
    }
    checked += 8;

    // --- 2-D grid with dynamic shared memory, kernelParams form ---
    {
        hipFunction_t fn = nullptr;
        CHECK(hipModuleGetFunction(&fn, mod, "rows_2d"));
        const int rows = 37, cols = 300;
        const unsigned bx = 128;
        std::vector<int> in(rows * cols), out(rows * cols);
        for (int i = 0; i < rows * cols; ++i) {
            in[i] = (i * 7) % 23 - 11;
        }
        int *d_in = nullptr, *d_out = nullptr;
        CHECK(hipMalloc(&d_in, in.size() * sizeof(int)));
        CHECK(hipMalloc(&d_out, out.size() * sizeof(int)));
        CHECK(hipMemcpy(d_in, in.data(), in.size() * sizeof(int), hipMemcpyHostToDevice));
        int rows_arg = rows, cols_arg = cols;
        void* params[] = {&d_in, &d_out, &rows_arg, &cols_arg};
        CHECK(hipModuleLaunchKernel(fn, (cols + bx - 1) / bx, rows, 1, bx, 1, 1,
                                    bx * sizeof(int), nullptr, params, nullptr));
        CHECK(hipDeviceSynchronize());
        CHECK(hipMemcpy(out.data(), d_out, out.size() * sizeof(int), hipMemcpyDeviceToHost));
        for (int r = 0; r < rows; ++r) {
            int prefix = 0;
            for (int c = 0; c < cols; ++c) {
                if (c % bx == 0) prefix = 0;
                const int v = in[r * cols + c];
                const int want = v + want_table[r % 8] + prefix;
                prefix += v;
                if (out[r * cols + c] != want) {
                    printf("FAIL " TEST_NAME ": rows_2d out[%d][%d] got %d, want %d\n", r, c,
                           out[r * cols + c], want);
                    return 1;
                }
            }
        }
        checked += rows * cols;
        CHECK(hipFree(d_in));
        CHECK(hipFree(d_out));
    }

    // --- `extra` argument buffer ---
    {
        hipFunction_t fn = nullptr;
        CHECK(hipModuleGetFunction(&fn, mod, "packed_args"));
        const int n = 1000;
        int* d_out = nullptr;
        CHECK(hipMalloc(&d_out, n * sizeof(int)));
        // Laid out as the kernel's arguments: each at its natural alignment.
        struct {
            int* out;   // offset 0
            int n;      // offset 8
            char c;     // offset 12
            short s;    // offset 14
            double d;   // offset 16
            int w;      // offset 24
        } args;
        static_assert(offsetof(decltype(args), c) == 12 && offsetof(decltype(args), s) == 14 &&
                      offsetof(decltype(args), d) == 16 && offsetof(decltype(args), w) == 24,
                      "argument buffer layout");
        memset(&args, 0, sizeof(args));
        args.out = d_out;
        args.n = n;
        args.c = 5;
        args.s = -300;
        args.d = 2.75;
        args.w = 100000;
        size_t args_size = sizeof(args);
        void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &args, HIP_LAUNCH_PARAM_BUFFER_SIZE,
                         &args_size, HIP_LAUNCH_PARAM_END};
        CHECK(hipModuleLaunchKernel(fn, (n + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr, nullptr,
                                    extra));
        CHECK(hipDeviceSynchronize());
        std::vector<int> out(n);
        CHECK(hipMemcpy(out.data(), d_out, n * sizeof(int), hipMemcpyDeviceToHost));
        for (int i = 0; i < n; ++i) {
            const int want = i * 5 - 300 + 100000 + 11;  // (int)(2.75 * 4) = 11
            if (out[i] != want) {
                printf("FAIL " TEST_NAME ": packed_args (extra buffer) out[%d] got %d, want %d\n",
                       i, out[i], want);
                return 1;
            }
        }
        checked += n;
        CHECK(hipFree(d_out));
    }

    // --- hipModuleLoadData from memory; its globals are separate from mod's ---
    std::vector<char> image;
    if (!read_file(path, image)) {
        printf("FAIL " TEST_NAME ": cannot read %s\n", path.c_str());
        return 1;
    }
    hipModule_t mod2 = nullptr;
    CHECK(hipModuleLoadData(&mod2, image.data()));
    if (!run_scale_add(mod2, "hipModuleLoadData", -7, checked)) return 1;

    CHECK(hipModuleUnload(mod));
    CHECK(hipModuleUnload(mod2));

    printf("PASS " TEST_NAME ": %s: %d values checked (scale_add via hipModuleLoad and "
           "hipModuleLoadData, globals, 2-D rows_2d with dynamic shared, packed_args via extra "
           "buffer)\n", path.c_str(), checked);
    return 0;
}
