// hipsparse_spmv: AMD's hipSPARSE (Debian's libhipsparse0, which forwards to
// rocSPARSE) against host references, with a one-based CSR matrix.
//
// Matrix: 20,000 x 18,000, about 420,000 entries: rows of 0-40 entries, every
// 97th row empty, and 4 long rows of 5,000 entries; indices one-based.
//   1. hipsparseScsrmv, y = 1.25*A*x - 0.5*y;
//   2. hipsparseDcsrmv, y = -0.75*A*x + 1.5*y;
//   3. hipsparseXcsr2coo (exact one-based row indices);
//   4. the generic API: hipsparseCreateCsr, hipsparseCreateDnVec,
//      hipsparseSpMV_bufferSize, hipsparseSpMV (float, CSR algorithm 1),
//      y = 2*A*x + 0*y (beta = 0: the initial y, NaN here, must be ignored).
// The products' tolerances are explained in sparse_matrix.hpp: each output is
// within (k + 4) * u * (|alpha| sum|a*x| + |beta*y|) of the exact value, k
// being the number of entries summed, u = 2^-24 (float) or 2^-53 (double).
#define TEST_NAME "hipsparse_spmv"
#include "test_common.hpp"
#include "sparse_matrix.hpp"

#include <hipsparse/hipsparse.h>

namespace {

std::string status_name(hipsparseStatus_t s) {
    switch (s) {
        case HIPSPARSE_STATUS_SUCCESS: return "HIPSPARSE_STATUS_SUCCESS (function succeeds)";
        case HIPSPARSE_STATUS_NOT_INITIALIZED:
            return "HIPSPARSE_STATUS_NOT_INITIALIZED (hipSPARSE was not initialized)";
        case HIPSPARSE_STATUS_ALLOC_FAILED:
            return "HIPSPARSE_STATUS_ALLOC_FAILED (resource allocation failed)";
        case HIPSPARSE_STATUS_INVALID_VALUE:
            return "HIPSPARSE_STATUS_INVALID_VALUE (unsupported value was passed)";
        case HIPSPARSE_STATUS_ARCH_MISMATCH:
            return "HIPSPARSE_STATUS_ARCH_MISMATCH (device architecture not supported)";
        case HIPSPARSE_STATUS_MAPPING_ERROR:
            return "HIPSPARSE_STATUS_MAPPING_ERROR (access to GPU memory space failed)";
        case HIPSPARSE_STATUS_EXECUTION_FAILED:
            return "HIPSPARSE_STATUS_EXECUTION_FAILED (GPU program failed to execute)";
        case HIPSPARSE_STATUS_INTERNAL_ERROR:
            return "HIPSPARSE_STATUS_INTERNAL_ERROR (an internal hipSPARSE operation failed)";
        case HIPSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED:
            return "HIPSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED (matrix type not supported)";
        case HIPSPARSE_STATUS_ZERO_PIVOT:
            return "HIPSPARSE_STATUS_ZERO_PIVOT (zero pivot was computed)";
        case HIPSPARSE_STATUS_NOT_SUPPORTED:
            return "HIPSPARSE_STATUS_NOT_SUPPORTED (operation is not supported)";
        case HIPSPARSE_STATUS_INSUFFICIENT_RESOURCES:
            return "HIPSPARSE_STATUS_INSUFFICIENT_RESOURCES (resources are insufficient)";
        default: return "hipsparseStatus_t " + std::to_string((int)s) + " (unknown status)";
    }
}

#define CHECK_SPARSE(...) \
    CHECK_STATUS(hipsparseStatus_t, HIPSPARSE_STATUS_SUCCESS, status_name, __VA_ARGS__)

template <class T>
std::vector<T> random_vector(Rng& rng, size_t n) {
    std::vector<T> v(n);
    for (auto& x : v) x = (T)rng.sym();
    return v;
}

std::vector<int> plus_one(const std::vector<int>& v) {
    std::vector<int> r(v);
    for (auto& x : r) ++x;
    return r;
}

}  // namespace

int main() {
    Rng rng(2718);
    const int m = 20000, n = 18000, long_rows = 4, long_len = 5000;
    const CsrMatrix a = make_matrix(rng, m, n, long_rows, long_len);
    const std::vector<int> row_ptr1 = plus_one(a.row_ptr), col_ind1 = plus_one(a.col_ind);

    hipsparseHandle_t handle = nullptr;
    hipsparseMatDescr_t descr = nullptr;
    CHECK_SPARSE(hipsparseCreate(&handle));
    CHECK_SPARSE(hipsparseCreateMatDescr(&descr));
    CHECK_SPARSE(hipsparseSetMatIndexBase(descr, HIPSPARSE_INDEX_BASE_ONE));
    CHECK_SPARSE(hipsparseSetMatType(descr, HIPSPARSE_MATRIX_TYPE_GENERAL));

    DeviceBuffer<int> d_row_ptr(row_ptr1), d_col_ind(col_ind1);
    DeviceBuffer<float> d_val_f(a.val_f);
    DeviceBuffer<double> d_val_d(a.val_d);

    // 1: float.
    {
        const float alpha = 1.25f, beta = -0.5f;
        const std::vector<float> x = random_vector<float>(rng, n), y0 = random_vector<float>(rng, m);
        DeviceBuffer<float> d_x(x), d_y(y0);
        CHECK_SPARSE(hipsparseScsrmv(handle, HIPSPARSE_OPERATION_NON_TRANSPOSE, m, n, a.nnz,
                                     &alpha, descr, d_val_f.ptr, d_row_ptr.ptr, d_col_ind.ptr,
                                     d_x.ptr, &beta, d_y.ptr));
        CHECK_KERNELS();
        std::vector<long double> want, tol;
        spmv_reference<float>(a, false, alpha, x, beta, y0, want, tol);
        expect_close("hipsparseScsrmv", d_y.download(), want, tol);
    }

    // 2: double.
    {
        const double alpha = -0.75, beta = 1.5;
        const std::vector<double> x = random_vector<double>(rng, n);
        const std::vector<double> y0 = random_vector<double>(rng, m);
        DeviceBuffer<double> d_x(x), d_y(y0);
        CHECK_SPARSE(hipsparseDcsrmv(handle, HIPSPARSE_OPERATION_NON_TRANSPOSE, m, n, a.nnz,
                                     &alpha, descr, d_val_d.ptr, d_row_ptr.ptr, d_col_ind.ptr,
                                     d_x.ptr, &beta, d_y.ptr));
        CHECK_KERNELS();
        std::vector<long double> want, tol;
        spmv_reference<double>(a, false, alpha, x, beta, y0, want, tol);
        expect_close("hipsparseDcsrmv", d_y.download(), want, tol);
    }

    // 3: csr2coo, one-based.
    {
        std::vector<int> want(a.nnz);
        for (int i = 0; i < m; ++i) {
            for (int k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) want[k] = i + 1;
        }
        DeviceBuffer<int> d_rows(a.nnz);
        CHECK_SPARSE(hipsparseXcsr2coo(handle, d_row_ptr.ptr, a.nnz, m, d_rows.ptr,
                                       HIPSPARSE_INDEX_BASE_ONE));
        CHECK_KERNELS();
        expect_equal("hipsparseXcsr2coo", d_rows.download(), want);
    }

    // 4: generic SpMV.
    {
        const float alpha = 2.0f, beta = 0.0f;
        const std::vector<float> x = random_vector<float>(rng, n);
        const std::vector<float> y0(m, 0.0f);  // the reference's beta * y0 term is 0
        DeviceBuffer<float> d_x(x), d_y(m);
        const std::vector<float> nan_y(m, std::nanf(""));
        d_y.upload(nan_y);
        hipsparseSpMatDescr_t mat = nullptr;
        hipsparseDnVecDescr_t vx = nullptr, vy = nullptr;
        CHECK_SPARSE(hipsparseCreateCsr(&mat, m, n, a.nnz, d_row_ptr.ptr, d_col_ind.ptr,
                                        d_val_f.ptr, HIPSPARSE_INDEX_32I, HIPSPARSE_INDEX_32I,
                                        HIPSPARSE_INDEX_BASE_ONE, HIP_R_32F));
        CHECK_SPARSE(hipsparseCreateDnVec(&vx, n, d_x.ptr, HIP_R_32F));
        CHECK_SPARSE(hipsparseCreateDnVec(&vy, m, d_y.ptr, HIP_R_32F));
        size_t buffer_size = 0;
        CHECK_SPARSE(hipsparseSpMV_bufferSize(handle, HIPSPARSE_OPERATION_NON_TRANSPOSE, &alpha,
                                              mat, vx, &beta, vy, HIP_R_32F,
                                              HIPSPARSE_SPMV_CSR_ALG1, &buffer_size));
        DeviceBuffer<char> buffer(buffer_size);
        CHECK_SPARSE(hipsparseSpMV(handle, HIPSPARSE_OPERATION_NON_TRANSPOSE, &alpha, mat, vx,
                                   &beta, vy, HIP_R_32F, HIPSPARSE_SPMV_CSR_ALG1, buffer.ptr));
        CHECK_KERNELS();
        std::vector<long double> want, tol;
        spmv_reference<float>(a, false, alpha, x, beta, y0, want, tol);
        expect_close("hipsparseSpMV float CSR (beta 0, y NaN before)", d_y.download(), want, tol);
        CHECK_SPARSE(hipsparseDestroyDnVec(vx));
        CHECK_SPARSE(hipsparseDestroyDnVec(vy));
        CHECK_SPARSE(hipsparseDestroySpMat(mat));
    }

    CHECK_SPARSE(hipsparseDestroyMatDescr(descr));
    CHECK_SPARSE(hipsparseDestroy(handle));
    printf("PASS " TEST_NAME ": %dx%d one-based matrix, %d entries (%d rows of %d): "
           "hipsparseScsrmv, hipsparseDcsrmv, hipsparseSpMV float (tol (k+4)*u*sum|terms|); "
           "hipsparseXcsr2coo exact\n",
           m, n, a.nnz, long_rows, long_len);
    return 0;
}
