// rocsparse_spmv: AMD's rocSPARSE library (Debian's librocsparse0, unmodified)
// against host references.
//
// Matrix: 30,000 x 25,000, about 600,000 entries: rows of 0-40 entries, every
// 97th row empty, and 6 long rows of 8,000 entries.
//   1. rocsparse_scsrmv, y = 1.25*A*x - 0.5*y, without analysis (info null);
//   2. rocsparse_scsrmv after rocsparse_scsrmv_analysis (adaptive algorithm);
//   3. rocsparse_scsrmv with the transpose, y = 0.75*A^T*x + 2*y;
//   4. rocsparse_dcsrmv, without and with analysis;
//   5. rocsparse_csr2coo (exact row indices), rocsparse_coo2csr back (exact
//      row offsets), rocsparse_scoomv on the COO form;
//   6. rocsparse_csr2csc_buffer_size + rocsparse_scsr2csc (exact transpose:
//      values, row indices, column offsets);
//   7. rocsparse_sgthr, rocsparse_ssctr (exact) and rocsparse_saxpyi (one
//      multiply-add per entry: within one rounding of either evaluation,
//      2 * 2^-24 * (|alpha*x| + |y|)), 200,000 entries of a 1,000,000 vector.
// The products' tolerances are explained in sparse_matrix.hpp: each output is
// within (k + 4) * u * (|alpha| sum|a*x| + |beta*y|) of the exact value, k
// being the number of entries summed, u = 2^-24 (float) or 2^-53 (double).
#define TEST_NAME "rocsparse_spmv"
#include "test_common.hpp"
#include "sparse_matrix.hpp"

#include <rocsparse/rocsparse.h>

#include <numeric>

namespace {

std::string status_name(rocsparse_status s) {
    switch (s) {
        case rocsparse_status_success: return "rocsparse_status_success (success)";
        case rocsparse_status_invalid_handle:
            return "rocsparse_status_invalid_handle (handle not initialized, invalid or null)";
        case rocsparse_status_not_implemented:
            return "rocsparse_status_not_implemented (function is not implemented)";
        case rocsparse_status_invalid_pointer:
            return "rocsparse_status_invalid_pointer (invalid pointer parameter)";
        case rocsparse_status_invalid_size:
            return "rocsparse_status_invalid_size (invalid size parameter)";
        case rocsparse_status_memory_error:
            return "rocsparse_status_memory_error (failed memory allocation, copy, dealloc)";
        case rocsparse_status_internal_error:
            return "rocsparse_status_internal_error (other internal library failure)";
        case rocsparse_status_invalid_value:
            return "rocsparse_status_invalid_value (invalid value parameter)";
        case rocsparse_status_arch_mismatch:
            return "rocsparse_status_arch_mismatch (device arch is not supported)";
        case rocsparse_status_zero_pivot:
            return "rocsparse_status_zero_pivot (encountered zero pivot)";
        case rocsparse_status_not_initialized:
            return "rocsparse_status_not_initialized (descriptor has not been initialized)";
        case rocsparse_status_type_mismatch:
            return "rocsparse_status_type_mismatch (index types do not match)";
        case rocsparse_status_requires_sorted_storage:
            return "rocsparse_status_requires_sorted_storage (sorted storage required)";
        default: return "rocsparse_status " + std::to_string((int)s) + " (unknown status)";
    }
}

#define CHECK_SPARSE(...) \
    CHECK_STATUS(rocsparse_status, rocsparse_status_success, status_name, __VA_ARGS__)

template <class T>
std::vector<T> random_vector(Rng& rng, size_t n) {
    std::vector<T> v(n);
    for (auto& x : v) x = (T)rng.sym();
    return v;
}

// Device copies of the matrix for one value type.
template <class T>
struct DeviceCsr {
    DeviceBuffer<int> row_ptr, col_ind;
    DeviceBuffer<T> val;
    explicit DeviceCsr(const CsrMatrix& a)
        : row_ptr(a.row_ptr), col_ind(a.col_ind), val(values<T>(a)) {}
};

rocsparse_status csrmv(rocsparse_handle h, rocsparse_operation op, int m, int n, int nnz,
                       const float* alpha, rocsparse_mat_descr d, const float* val,
                       const int* row_ptr, const int* col_ind, rocsparse_mat_info info,
                       const float* x, const float* beta, float* y) {
    return rocsparse_scsrmv(h, op, m, n, nnz, alpha, d, val, row_ptr, col_ind, info, x, beta, y);
}
rocsparse_status csrmv(rocsparse_handle h, rocsparse_operation op, int m, int n, int nnz,
                       const double* alpha, rocsparse_mat_descr d, const double* val,
                       const int* row_ptr, const int* col_ind, rocsparse_mat_info info,
                       const double* x, const double* beta, double* y) {
    return rocsparse_dcsrmv(h, op, m, n, nnz, alpha, d, val, row_ptr, col_ind, info, x, beta, y);
}
rocsparse_status csrmv_analysis(rocsparse_handle h, rocsparse_operation op, int m, int n, int nnz,
                                rocsparse_mat_descr d, const float* val, const int* row_ptr,
                                const int* col_ind, rocsparse_mat_info info) {
    return rocsparse_scsrmv_analysis(h, op, m, n, nnz, d, val, row_ptr, col_ind, info);
}
rocsparse_status csrmv_analysis(rocsparse_handle h, rocsparse_operation op, int m, int n, int nnz,
                                rocsparse_mat_descr d, const double* val, const int* row_ptr,
                                const int* col_ind, rocsparse_mat_info info) {
    return rocsparse_dcsrmv_analysis(h, op, m, n, nnz, d, val, row_ptr, col_ind, info);
}

// One csrmv: y0 in, y = alpha*op(A)*x + beta*y0 checked against the reference.
template <class T>
void check_csrmv(const char* what, rocsparse_handle h, rocsparse_mat_descr descr,
                 const CsrMatrix& a, const DeviceCsr<T>& d, rocsparse_operation op,
                 bool adaptive, T alpha, T beta, Rng& rng) {
    const bool transpose = op == rocsparse_operation_transpose;
    const std::vector<T> x = random_vector<T>(rng, transpose ? a.m : a.n);
    const std::vector<T> y0 = random_vector<T>(rng, transpose ? a.n : a.m);
    DeviceBuffer<T> d_x(x), d_y(y0);
    rocsparse_mat_info info = nullptr;
    if (adaptive) {
        CHECK_SPARSE(rocsparse_create_mat_info(&info));
        CHECK_SPARSE(csrmv_analysis(h, op, a.m, a.n, a.nnz, descr, d.val.ptr, d.row_ptr.ptr,
                                    d.col_ind.ptr, info));
        CHECK_KERNELS();
    }
    CHECK_SPARSE(csrmv(h, op, a.m, a.n, a.nnz, &alpha, descr, d.val.ptr, d.row_ptr.ptr,
                       d.col_ind.ptr, info, d_x.ptr, &beta, d_y.ptr));
    CHECK_KERNELS();
    if (info) CHECK_SPARSE(rocsparse_destroy_mat_info(info));
    std::vector<long double> want, tol;
    spmv_reference<T>(a, transpose, alpha, x, beta, y0, want, tol);
    expect_close(what, d_y.download(), want, tol);
}

}  // namespace

int main() {
    Rng rng(31337);
    const int m = 30000, n = 25000, long_rows = 6, long_len = 8000;
    const CsrMatrix a = make_matrix(rng, m, n, long_rows, long_len);

    rocsparse_handle handle = nullptr;
    rocsparse_mat_descr descr = nullptr;
    CHECK_SPARSE(rocsparse_create_handle(&handle));
    CHECK_SPARSE(rocsparse_create_mat_descr(&descr));
    CHECK_SPARSE(rocsparse_set_mat_index_base(descr, rocsparse_index_base_zero));
    CHECK_SPARSE(rocsparse_set_mat_type(descr, rocsparse_matrix_type_general));

    // 1-3: float csrmv.
    DeviceCsr<float> df(a);
    check_csrmv<float>("scsrmv", handle, descr, a, df, rocsparse_operation_none, false, 1.25f,
                       -0.5f, rng);
    check_csrmv<float>("scsrmv adaptive", handle, descr, a, df, rocsparse_operation_none, true,
                       1.25f, -0.5f, rng);
    check_csrmv<float>("scsrmv transpose", handle, descr, a, df, rocsparse_operation_transpose,
                       false, 0.75f, 2.0f, rng);

    // 4: double csrmv.
    {
        DeviceCsr<double> dd(a);
        check_csrmv<double>("dcsrmv", handle, descr, a, dd, rocsparse_operation_none, false, 1.25,
                            -0.5, rng);
        check_csrmv<double>("dcsrmv adaptive", handle, descr, a, dd, rocsparse_operation_none,
                            true, -0.375, 1.5, rng);
    }

    // 5: csr2coo, coo2csr, coomv.
    {
        std::vector<int> want_rows(a.nnz);
        for (int i = 0; i < m; ++i) {
            for (int k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) want_rows[k] = i;
        }
        DeviceBuffer<int> d_coo_rows(a.nnz), d_row_ptr(m + 1);
        CHECK_SPARSE(rocsparse_csr2coo(handle, df.row_ptr.ptr, a.nnz, m, d_coo_rows.ptr,
                                       rocsparse_index_base_zero));
        CHECK_KERNELS();
        expect_equal("csr2coo row indices", d_coo_rows.download(), want_rows);
        CHECK_SPARSE(rocsparse_coo2csr(handle, d_coo_rows.ptr, a.nnz, m, d_row_ptr.ptr,
                                       rocsparse_index_base_zero));
        CHECK_KERNELS();
        expect_equal("coo2csr row offsets", d_row_ptr.download(), a.row_ptr);

        const float alpha = -1.5f, beta = 0.25f;
        const std::vector<float> x = random_vector<float>(rng, n);
        const std::vector<float> y0 = random_vector<float>(rng, m);
        DeviceBuffer<float> d_x(x), d_y(y0);
        CHECK_SPARSE(rocsparse_scoomv(handle, rocsparse_operation_none, m, n, a.nnz, &alpha,
                                      descr, df.val.ptr, d_coo_rows.ptr, df.col_ind.ptr, d_x.ptr,
                                      &beta, d_y.ptr));
        CHECK_KERNELS();
        std::vector<long double> want, tol;
        spmv_reference<float>(a, false, alpha, x, beta, y0, want, tol);
        expect_close("scoomv", d_y.download(), want, tol);
    }

    // 6: csr2csc.
    {
        std::vector<int> want_ptr(n + 1, 0), want_rows(a.nnz);
        std::vector<float> want_val(a.nnz);
        for (int k = 0; k < a.nnz; ++k) ++want_ptr[a.col_ind[k] + 1];
        std::partial_sum(want_ptr.begin(), want_ptr.end(), want_ptr.begin());
        std::vector<int> fill(want_ptr.begin(), want_ptr.end() - 1);
        for (int i = 0; i < m; ++i) {
            for (int k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
                const int p = fill[a.col_ind[k]]++;
                want_rows[p] = i;
                want_val[p] = a.val_f[k];
            }
        }
        size_t buffer_size = 0;
        CHECK_SPARSE(rocsparse_csr2csc_buffer_size(handle, m, n, a.nnz, df.row_ptr.ptr,
                                                   df.col_ind.ptr, rocsparse_action_numeric,
                                                   &buffer_size));
        DeviceBuffer<char> buffer(buffer_size);
        DeviceBuffer<float> csc_val(a.nnz);
        DeviceBuffer<int> csc_rows(a.nnz), csc_ptr(n + 1);
        CHECK_SPARSE(rocsparse_scsr2csc(handle, m, n, a.nnz, df.val.ptr, df.row_ptr.ptr,
                                        df.col_ind.ptr, csc_val.ptr, csc_rows.ptr, csc_ptr.ptr,
                                        rocsparse_action_numeric, rocsparse_index_base_zero,
                                        buffer.ptr));
        CHECK_KERNELS();
        expect_equal("csr2csc column offsets", csc_ptr.download(), want_ptr);
        expect_equal("csr2csc row indices", csc_rows.download(), want_rows);
        expect_equal("csr2csc values", csc_val.download(), want_val);
    }

    // 7: gather, scatter, axpyi on a sparse vector of distinct sorted indices.
    const int len = 1000000, nnz_v = 200000;
    {
        std::vector<int> ind;
        ind.reserve(nnz_v);
        for (int i = 0; i < len && (int)ind.size() < nnz_v; ++i) {
            // Keep index i with probability (still needed)/(still available).
            if (rng.below((uint32_t)(len - i)) < (uint32_t)(nnz_v - (int)ind.size())) {
                ind.push_back(i);
            }
        }
        const std::vector<float> y = random_vector<float>(rng, len);
        const std::vector<float> xv = random_vector<float>(rng, nnz_v);
        DeviceBuffer<int> d_ind(ind);
        DeviceBuffer<float> d_y(y), d_xv(nnz_v);

        CHECK_SPARSE(rocsparse_sgthr(handle, nnz_v, d_y.ptr, d_xv.ptr, d_ind.ptr,
                                     rocsparse_index_base_zero));
        CHECK_KERNELS();
        std::vector<float> want_g(nnz_v);
        for (int k = 0; k < nnz_v; ++k) want_g[k] = y[ind[k]];
        expect_equal("sgthr", d_xv.download(), want_g);

        d_xv.upload(xv);
        CHECK_SPARSE(rocsparse_ssctr(handle, nnz_v, d_xv.ptr, d_ind.ptr, d_y.ptr,
                                     rocsparse_index_base_zero));
        CHECK_KERNELS();
        std::vector<float> want_s = y;
        for (int k = 0; k < nnz_v; ++k) want_s[ind[k]] = xv[k];
        expect_equal("ssctr", d_y.download(), want_s);

        const float alpha = 0.3f;
        d_y.upload(y);
        CHECK_SPARSE(rocsparse_saxpyi(handle, nnz_v, &alpha, d_xv.ptr, d_ind.ptr, d_y.ptr,
                                      rocsparse_index_base_zero));
        CHECK_KERNELS();
        std::vector<long double> want_a(len), tol_a(len, 0.0L);
        for (int i = 0; i < len; ++i) want_a[i] = y[i];
        for (int k = 0; k < nnz_v; ++k) {
            const long double p = (long double)alpha * xv[k];
            const long double t = want_a[ind[k]];
            want_a[ind[k]] = t + p;
            tol_a[ind[k]] = 2 * 0x1p-24L * (std::fabs(p) + std::fabs(t));
        }
        expect_close("saxpyi", d_y.download(), want_a, tol_a);
    }

    CHECK_SPARSE(rocsparse_destroy_mat_descr(descr));
    CHECK_SPARSE(rocsparse_destroy_handle(handle));
    printf("PASS " TEST_NAME ": %dx%d matrix, %d entries (%d rows of %d): scsrmv plain/adaptive/"
           "transpose, dcsrmv plain/adaptive (tol (k+4)*u*sum|terms|); csr2coo, coo2csr, "
           "csr2csc exact; scoomv; sgthr, ssctr exact and saxpyi, %d of %d entries\n",
           m, n, a.nnz, long_rows, long_len, nnz_v, len);
    return 0;
}
