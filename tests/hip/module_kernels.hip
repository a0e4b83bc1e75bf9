// module_kernels: device-only source for module_api. Built into a code object
// bundle with `hipcc --genco --offload-arch=<target>` and loaded at run time
// with hipModuleLoad / hipModuleLoadData. Everything is extern "C" so the
// host looks kernels and globals up by their plain names.
#include <hip/hip_runtime.h>

extern "C" {

// Set by the host through hipModuleGetGlobal + hipMemcpy before launches.
__device__ int g_scale = 1;

// Accumulated by kernels; read back by the host through hipModuleGetGlobal.
__device__ unsigned long long g_total = 0;

// A table the host reads to check that initialized module data is loaded.
__device__ int g_table[8] = {2, 3, 5, 7, 11, 13, 17, 19};

// y[i] = g_scale * x[i] + y[i]; also adds x[i] to g_total.
__global__ void scale_add(const int* x, int* y, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = g_scale * x[i] + y[i];
        atomicAdd(&g_total, (unsigned long long)(long long)x[i]);
    }
}

// 2-D grid over a rows x cols matrix; the per-row prefix goes through dynamic
// shared memory (blockDim.x ints): out[r][c] = in[r][c] + g_table[r % 8] +
// sum of in[r][c'] for c' in the same block-row segment before c.
__global__ void rows_2d(const int* in, int* out, int rows, int cols) {
    extern __shared__ int seg[];
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    const int r = blockIdx.y;
    if (r >= rows) {
        return;  // the whole block: r is the same for all its threads
    }
    const int v = (c < cols) ? in[r * cols + c] : 0;
    seg[threadIdx.x] = v;
    __syncthreads();
    if (c < cols) {
        int prefix = 0;
        for (unsigned k = 0; k < threadIdx.x; ++k) {
            prefix += seg[k];
        }
        out[r * cols + c] = v + g_table[r % 8] + prefix;
    }
}

// Mixed argument sizes and alignments, for launches through the `extra`
// argument buffer: out[i] = i * c + s + w + (int)(d * 4) for i < n.
__global__ void packed_args(int* out, int n, char c, short s, double d, int w) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = i * (int)c + (int)s + w + (int)(d * 4.0);
    }
}

}  // extern "C"
