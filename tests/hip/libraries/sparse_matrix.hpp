// The test matrix of the sparse-library programs and the host references of
// the sparse matrix-vector product, with its error bound.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

// A CSR matrix with sorted, distinct column indices in each row (0-based).
struct CsrMatrix {
    int m = 0, n = 0, nnz = 0;
    std::vector<int> row_ptr, col_ind;
    std::vector<float> val_f;   // values, multiples of 2^-23 in [-1, 1)
    std::vector<double> val_d;  // the same values with more bits: val_f + small part
};

// m x n, mostly 0-40 entries per row, every 97th row empty, and a few long
// rows (long_rows of long_len entries) so that csrmv's adaptive algorithm has
// rows that several workgroups share.
template <class Rng>
CsrMatrix make_matrix(Rng& rng, int m, int n, int long_rows, int long_len) {
    CsrMatrix a;
    a.m = m;
    a.n = n;
    a.row_ptr.assign(m + 1, 0);
    std::vector<char> used(n, 0);
    std::vector<int> cols;
    for (int i = 0; i < m; ++i) {
        int len;
        if (i % 97 == 5) {
            len = 0;
        } else if (long_rows > 0 && i % (m / long_rows) == 17) {
            len = std::min(long_len, n);
        } else {
            len = (int)rng.below(41);
        }
        cols.clear();
        while ((int)cols.size() < len) {
            int c = (int)rng.below((uint32_t)n);
            if (!used[c]) {
                used[c] = 1;
                cols.push_back(c);
            }
        }
        std::sort(cols.begin(), cols.end());
        for (int c : cols) {
            used[c] = 0;
            a.col_ind.push_back(c);
            float v = rng.sym();
            a.val_f.push_back(v);
            a.val_d.push_back((double)v + (double)rng.sym() * 0x1p-30);
        }
        a.row_ptr[i + 1] = (int)a.col_ind.size();
    }
    a.nnz = (int)a.col_ind.size();
    return a;
}

template <class T> const std::vector<T>& values(const CsrMatrix& a);
template <> inline const std::vector<float>& values<float>(const CsrMatrix& a) { return a.val_f; }
template <> inline const std::vector<double>& values<double>(const CsrMatrix& a) { return a.val_d; }

// y = alpha * op(A) * x + beta * y0 on the host in long double, with a bound
// on the error of any evaluation in T.
//
// Each output is a sum of k products plus beta * y0. Whatever order and
// grouping the library uses, and whether or not it fuses multiply-adds, every
// term passes through at most k + 3 roundings in T (its product, at most k - 1
// additions, the scaling by alpha, the addition of beta * y0, with one more
// for products scaled by alpha separately), so the result is within
// (k + 4) * u * (|alpha| * sum |a_ij * x_j| + |beta * y0_i|) of the exact
// value, u being T's unit roundoff (2^-24 for float, 2^-53 for double). The
// long double reference (64-bit significand) is exact to far less than that.
template <class T>
void spmv_reference(const CsrMatrix& a, bool transpose, T alpha, const std::vector<T>& x, T beta,
                    const std::vector<T>& y0, std::vector<long double>& want,
                    std::vector<long double>& tol) {
    const std::vector<T>& v = values<T>(a);
    const int out = transpose ? a.n : a.m;
    std::vector<long double> sum(out, 0.0L), abs_sum(out, 0.0L);
    std::vector<int> terms(out, 0);
    for (int i = 0; i < a.m; ++i) {
        for (int k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
            const int j = a.col_ind[k];
            const int o = transpose ? j : i;
            const long double p = (long double)v[k] * (long double)x[transpose ? i : j];
            sum[o] += p;
            abs_sum[o] += p < 0 ? -p : p;
            ++terms[o];
        }
    }
    const long double u = std::numeric_limits<T>::epsilon() / 2;
    want.resize(out);
    tol.resize(out);
    for (int o = 0; o < out; ++o) {
        const long double by = (long double)beta * (long double)y0[o];
        want[o] = (long double)alpha * sum[o] + by;
        const long double bound =
            (alpha < 0 ? -alpha : alpha) * abs_sum[o] + (by < 0 ? -by : by);
        tol[o] = (long double)(terms[o] + 4) * u * bound;
    }
}
