#include "linalg/Grassmann.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <Eigen/Dense>

namespace olens::grassmann {

namespace {

/// Singular values s1 ≥ s2 ≥ 0 of [[a, b], [c, d]] in closed form:
/// s1 = (‖(a+d, c−b)‖ + ‖(a−d, c+b)‖)/2 and s2 = |ad − bc|/s1 (no cancellation for triangular input).
void singularValues2(double a, double b, double c, double d, double& s1, double& s2)
{
    const double q = std::sqrt((a + d) * (a + d) + (c - b) * (c - b));
    const double r = std::sqrt((a - d) * (a - d) + (c + b) * (c + b));
    s1 = 0.5 * (q + r);
    s2 = s1 > 0.0 ? std::min(s1, std::abs(a * d - b * c) / s1) : 0.0;
}

/// Knyazev–Argentati's choice between the sine and the cosine of one principal angle.
double angleFrom(double cosine, double sine)
{
    if (sine * sine <= 0.5)
        return std::asin(std::min(sine, 1.0));
    return std::acos(std::min(cosine, 1.0));
}

/// Principal angles for d ≤ 2 without allocation. A, B point at column-major N×d blocks with
/// leading dimensions lda, ldb. Writes θ ascending into out[0..d).
void anglesSmall(const double* A, Eigen::Index lda, const double* B, Eigen::Index ldb, Eigen::Index N, int d,
                 double* out)
{
    if (d == 1) {
        double c = 0.0;
        for (Eigen::Index i = 0; i < N; ++i)
            c += A[i] * B[i];
        double s2 = 0.0;
        for (Eigen::Index i = 0; i < N; ++i) {
            const double e = B[i] - c * A[i];
            s2 += e * e;
        }
        out[0] = angleFrom(std::abs(c), std::sqrt(s2));
        return;
    }
    const double* a0 = A;
    const double* a1 = A + lda;
    const double* b0 = B;
    const double* b1 = B + ldb;
    // C = AᵀB: its singular values are the cosines.
    double c00 = 0.0, c01 = 0.0, c10 = 0.0, c11 = 0.0;
    for (Eigen::Index i = 0; i < N; ++i) {
        c00 += a0[i] * b0[i];
        c01 += a0[i] * b1[i];
        c10 += a1[i] * b0[i];
        c11 += a1[i] * b1[i];
    }
    double cos1 = 0.0, cos2 = 0.0;
    singularValues2(c00, c01, c10, c11, cos1, cos2);
    // S = B − A C (N×2): its singular values are the sines. Two-column modified Gram–Schmidt
    // S = QR, then the closed-form singular values of the triangular R.
    auto s0 = [&](Eigen::Index i) { return b0[i] - a0[i] * c00 - a1[i] * c10; };
    auto s1 = [&](Eigen::Index i) { return b1[i] - a0[i] * c01 - a1[i] * c11; };
    double n00 = 0.0, p01 = 0.0;
    for (Eigen::Index i = 0; i < N; ++i) {
        const double u = s0(i);
        n00 += u * u;
        p01 += u * s1(i);
    }
    double r00 = std::sqrt(n00), r01 = 0.0, r11 = 0.0;
    if (r00 > 0.0) {
        r01 = p01 / r00;
        const double f = r01 / r00;
        double n11 = 0.0;
        for (Eigen::Index i = 0; i < N; ++i) {
            const double e = s1(i) - f * s0(i);
            n11 += e * e;
        }
        r11 = std::sqrt(n11);
    } else {
        double n11 = 0.0;
        for (Eigen::Index i = 0; i < N; ++i)
            n11 += s1(i) * s1(i);
        r01 = std::sqrt(n11);
    }
    double sin1 = 0.0, sin2 = 0.0; // sin1 ≥ sin2
    singularValues2(r00, r01, 0.0, r11, sin1, sin2);
    // The smallest angle has the largest cosine and the smallest sine.
    out[0] = angleFrom(cos1, sin2);
    out[1] = angleFrom(cos2, sin1);
    if (out[0] > out[1])
        std::swap(out[0], out[1]);
}

void checkPair(const Eigen::Ref<const Eigen::MatrixXd>& A, const Eigen::Ref<const Eigen::MatrixXd>& B)
{
    if (A.rows() != B.rows() || A.cols() != B.cols())
        throw std::invalid_argument("grassmann: subspaces of different shapes (" + std::to_string(A.rows()) + "x"
                                    + std::to_string(A.cols()) + " and " + std::to_string(B.rows()) + "x"
                                    + std::to_string(B.cols()) + ")");
}

} // namespace

Eigen::VectorXd principalAngles(const Eigen::Ref<const Eigen::MatrixXd>& A,
                                const Eigen::Ref<const Eigen::MatrixXd>& B)
{
    checkPair(A, B);
    const auto d = static_cast<int>(A.cols());
    Eigen::VectorXd theta(d);
    if (d == 0)
        return theta;
    if (d <= 2) {
        anglesSmall(A.data(), A.outerStride(), B.data(), B.outerStride(), A.rows(), d, theta.data());
        return theta;
    }
    const Eigen::MatrixXd C = A.transpose() * B;
    const Eigen::MatrixXd S = B - A * C;
    const Eigen::VectorXd cosines = Eigen::JacobiSVD<Eigen::MatrixXd>(C).singularValues(); // descending
    const Eigen::VectorXd sines = Eigen::JacobiSVD<Eigen::MatrixXd>(S).singularValues();   // descending
    for (int i = 0; i < d; ++i)
        theta(i) = angleFrom(cosines(i), sines(d - 1 - i));
    std::sort(theta.data(), theta.data() + d);
    return theta;
}

double distance(const Eigen::Ref<const Eigen::MatrixXd>& A, const Eigen::Ref<const Eigen::MatrixXd>& B)
{
    if (A.cols() <= 2 && A.rows() == B.rows() && A.cols() == B.cols()) {
        double t[2] = {0.0, 0.0};
        if (A.cols() > 0)
            anglesSmall(A.data(), A.outerStride(), B.data(), B.outerStride(), A.rows(), static_cast<int>(A.cols()), t);
        return std::sqrt(t[0] * t[0] + t[1] * t[1]);
    }
    return principalAngles(A, B).norm();
}

Eigen::MatrixXd leadingLeftSingularVectors(const Eigen::Ref<const Eigen::MatrixXd>& M, int d)
{
    const Eigen::Index N = M.rows(), m = M.cols();
    if (d < 0 || d > N)
        throw std::invalid_argument("leadingLeftSingularVectors: d=" + std::to_string(d) + " outside [0, "
                                    + std::to_string(N) + "]");
    const double eps = std::numeric_limits<double>::epsilon();
    Eigen::MatrixXd U(N, d);
    Eigen::Index r = 0; // columns of U filled with genuine singular vectors
    if (m > 0 && m <= N) {
        // JacobiSVD, not BDCSVD: Eigen 3.4's divide-and-conquer SVD crashed (perturbCol0, an index of
        // -1) on a rank-deficient 57×57 neighbourhood of Spambase with duplicate rows; the matrices
        // here are at most N × k and Jacobi is accurate and robust for them.
        const Eigen::JacobiSVD<Eigen::MatrixXd> svd(M, Eigen::ComputeThinU);
        const Eigen::VectorXd& s = svd.singularValues();
        const double tol = s(0) * static_cast<double>(std::max(N, m)) * eps;
        while (r < d && r < s.size() && s(r) > tol) {
            U.col(r) = svd.matrixU().col(r);
            ++r;
        }
    } else if (m > N) {
        const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(M * M.transpose());
        const Eigen::VectorXd& lambda = es.eigenvalues(); // ascending
        const double tol = lambda(N - 1) * static_cast<double>(std::max(N, m)) * eps;
        while (r < d && lambda(N - 1 - r) > tol) {
            U.col(r) = es.eigenvectors().col(N - 1 - r);
            ++r;
        }
    }
    if (r < d) {
        // Rank below d: complete with directions orthogonal to the ones found.
        // Only the first d columns of Q are needed: the full N×N Q was 3.2 GB and minutes for the
        // 20 000 features of a wide table (TestWideTables).
        Eigen::MatrixXd Q;
        if (r == 0) {
            Q = Eigen::MatrixXd::Identity(N, d);
        } else {
            const Eigen::HouseholderQR<Eigen::MatrixXd> qr(U.leftCols(r));
            Q = qr.householderQ() * Eigen::MatrixXd::Identity(N, d);
        }
        for (Eigen::Index j = r; j < d; ++j)
            U.col(j) = Q.col(j);
    }
    return U;
}

Eigen::MatrixXd flagMean(const std::vector<Eigen::MatrixXd>& bases, int d)
{
    if (bases.empty())
        throw std::invalid_argument("flagMean: no subspaces");
    const Eigen::Index N = bases.front().rows(), k = bases.front().cols();
    for (const auto& B : bases)
        if (B.rows() != N || B.cols() != k)
            throw std::invalid_argument("flagMean: bases of different shapes");
    Eigen::MatrixXd all(N, k * static_cast<Eigen::Index>(bases.size()));
    for (std::size_t i = 0; i < bases.size(); ++i)
        all.middleCols(static_cast<Eigen::Index>(i) * k, k) = bases[i];
    return leadingLeftSingularVectors(all, d);
}

namespace {

/// d leading eigenvectors of the symmetric PSD operator x ↦ P x (N×N, given by `apply` on N×p
/// blocks) by subspace iteration with Rayleigh–Ritz on a block of p = min(N, 2d + 2) vectors,
/// started from span(warm). Returns false when it has not converged in maxIterations.
template <class Apply>
bool subspaceIteration(const Apply& apply, Eigen::Index N, int d, const Eigen::MatrixXd& warm, Eigen::MatrixXd& out)
{
    constexpr int maxIterations = 200;
    constexpr double tolerance = 1e-12;
    const Eigen::Index p = std::min<Eigen::Index>(N, 2 * d + 2);
    // Start: the children's means, completed to p columns by fixed pseudo-random vectors
    // sin(i^j) (deterministic, almost surely not orthogonal to the wanted eigenvectors).
    Eigen::MatrixXd start(N, p);
    const Eigen::Index w = std::min(p, warm.cols());
    start.leftCols(w) = warm.leftCols(w);
    for (Eigen::Index j = w; j < p; ++j)
        start.col(j) = Eigen::VectorXd::LinSpaced(N, 1.0, static_cast<double>(N)).array().pow(static_cast<double>(j - w + 1))
                           .sin().matrix();
    Eigen::MatrixXd Q = Eigen::HouseholderQR<Eigen::MatrixXd>(start).householderQ() * Eigen::MatrixXd::Identity(N, p);
    for (int it = 0; it < maxIterations; ++it) {
        const Eigen::MatrixXd Z = apply(Q);                  // P Q
        const Eigen::MatrixXd H = Q.transpose() * Z;         // Rayleigh quotient (p×p)
        const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(0.5 * (H + H.transpose()));
        Eigen::MatrixXd W(p, p);                             // Ritz coefficients, descending
        for (Eigen::Index j = 0; j < p; ++j)
            W.col(j) = es.eigenvectors().col(p - 1 - j);
        const Eigen::MatrixXd U = Q * W.leftCols(d);
        const Eigen::MatrixXd PU = Z * W.leftCols(d);
        const double top = std::max(es.eigenvalues()(p - 1), std::numeric_limits<double>::min());
        bool converged = true;
        for (int j = 0; j < d && converged; ++j)
            converged = (PU.col(j) - es.eigenvalues()(p - 1 - j) * U.col(j)).norm() <= tolerance * top;
        if (converged) {
            out = U;
            return true;
        }
        Q = Eigen::HouseholderQR<Eigen::MatrixXd>(Z * W).householderQ() * Eigen::MatrixXd::Identity(N, p);
    }
    return false;
}

constexpr Eigen::Index kDirectEigenLimit = 64; // full eigensolver up to this size

} // namespace

ProjectorSum ProjectorSum::of(const Eigen::Ref<const Eigen::MatrixXd>& basis)
{
    ProjectorSum s;
    s.m_factor = basis;
    return s;
}

Eigen::MatrixXd ProjectorSum::projector() const
{
    if (m_dense.size() > 0)
        return m_dense;
    return m_factor * m_factor.transpose();
}

ProjectorSum ProjectorSum::merged(const ProjectorSum& a, const ProjectorSum& b, int d)
{
    const Eigen::Index N = a.dimension();
    if (b.dimension() != N || a.mean().cols() != d || b.mean().cols() != d)
        throw std::invalid_argument("ProjectorSum::merged: shapes differ");
    ProjectorSum out;
    const Eigen::Index r = a.rank() + b.rank();
    const bool factored = a.m_dense.size() == 0 && b.m_dense.size() == 0 && r <= N;
    if (factored) {
        out.m_factor.resize(N, r);
        out.m_factor << a.m_factor, b.m_factor;
    } else {
        out.m_dense = a.projector();
        out.m_dense += b.projector();
    }
    const Eigen::Index size = factored ? r : N; // order of the eigenproblem solved directly
    if (size > kDirectEigenLimit && 2 * d + 2 < size) {
        Eigen::MatrixXd warm(N, 2 * d);
        warm << a.mean(), b.mean();
        const bool ok = factored
            ? subspaceIteration([&](const Eigen::MatrixXd& Q) -> Eigen::MatrixXd {
                  return out.m_factor * (out.m_factor.transpose() * Q);
              }, N, d, warm, out.m_mean)
            : subspaceIteration([&](const Eigen::MatrixXd& Q) -> Eigen::MatrixXd { return out.m_dense * Q; }, N, d,
                                warm, out.m_mean);
        if (ok)
            return out;
    }
    out.m_mean.resize(N, d);
    if (factored) {
        // Leading left singular vectors u_j = F w_j / √λ_j from the r×r Gram matrix FᵀF;
        // λ_d ≥ 1 because P ⪰ B_x B_xᵀ for any member x, so the division is well conditioned.
        const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(out.m_factor.transpose() * out.m_factor);
        for (Eigen::Index j = 0; j < d; ++j)
            out.m_mean.col(j) = out.m_factor * es.eigenvectors().col(r - 1 - j)
                              / std::sqrt(std::max(es.eigenvalues()(r - 1 - j), std::numeric_limits<double>::min()));
    } else {
        const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(out.m_dense);
        for (Eigen::Index j = 0; j < d; ++j)
            out.m_mean.col(j) = es.eigenvectors().col(N - 1 - j);
    }
    return out;
}

} // namespace olens::grassmann
