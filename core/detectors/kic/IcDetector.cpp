#include "detectors/kic/IcDetector.h"

#include "base/Errors.h"
#include "detectors/DetectorInfo.h"
#include "base/Json.h"

#include <nlohmann/json.hpp>
#include <algorithm>
#include <cmath>
#include <sstream>
#include <Eigen/Dense>

namespace olens {

// ---------------------------------------------------------------------------------------------
// MonomialBasis (eq. 3–5)

double MonomialBasis::count(int p, int d)
{
    // s = C(p+d, d) (eq. 3), as a product of d ratios so that it never overflows an integer.
    double s = 1.0;
    for (int i = 1; i <= d; ++i)
        s = s * static_cast<double>(p + i) / static_cast<double>(i);
    return std::round(s);
}

MonomialBasis::MonomialBasis(int p, int d, double maxSize)
{
    const double s = count(p, d);
    if (s > maxSize) {
        std::ostringstream msg;
        msg << "the degree-" << d << " monomial basis of " << p << " features has s = C(p+d, d) = " << s
            << " elements (limit " << maxSize << "; an s×s matrix of them takes " << s * s * 8e-9
            << " GB; lower parameter 'degree')";
        throw ParamError(msg.str());
    }
    const auto n = static_cast<std::size_t>(s);
    m_parent.reserve(n);
    m_var.reserve(n);
    m_scale.reserve(n);
    // The exponent of the last variable of each monomial (to update the multinomial coefficient).
    std::vector<int> lastVar, lastExp;
    std::vector<double> coef; // C(α) (eq. 4)
    m_parent.push_back(-1);
    m_var.push_back(-1);
    lastVar.push_back(0);
    lastExp.push_back(0);
    coef.push_back(1.0);
    std::size_t levelBegin = 0, levelEnd = 1;
    for (int t = 1; t <= d; ++t) {
        for (std::size_t j = levelBegin; j < levelEnd; ++j) {
            for (int k = lastVar[j]; k < p; ++k) {
                // x^α' = x^α · x_k with |α'| = t: C(α') = C(α) · (d − t + 1) / α'_k, because
                // α_0 = d − |α| drops by one and α_k grows by one.
                const int e = (t > 1 && k == lastVar[j]) ? lastExp[j] + 1 : 1;
                m_parent.push_back(static_cast<int>(j));
                m_var.push_back(k);
                lastVar.push_back(k);
                lastExp.push_back(e);
                coef.push_back(coef[j] * static_cast<double>(d - t + 1) / static_cast<double>(e));
            }
        }
        levelBegin = levelEnd;
        levelEnd = m_parent.size();
    }
    for (double c : coef)
        m_scale.push_back(std::sqrt(c));
}

Eigen::MatrixXd MonomialBasis::evaluate(const Eigen::MatrixXd& X) const
{
    const Eigen::Index m = X.rows(), s = size();
    // Unscaled monomials column by column (x^α' = x^α · x_k), then the √C(α) scaling of eq. 4.
    Eigen::MatrixXd V(m, s);
    V.col(0).setOnes();
    for (Eigen::Index j = 1; j < s; ++j)
        V.col(j) = V.col(m_parent[static_cast<std::size_t>(j)]).cwiseProduct(X.col(m_var[static_cast<std::size_t>(j)]));
    for (Eigen::Index j = 1; j < s; ++j)
        V.col(j) *= m_scale[static_cast<std::size_t>(j)];
    return V;
}

// ---------------------------------------------------------------------------------------------
// IcDetector

namespace {

// Rows per block of v(x) evaluations: the block stays near 16 MB and its s²·rows flops near 2.5e8
// (a progress report every ~50 ms).
Eigen::Index rowBlock(Eigen::Index s)
{
    const double ds = static_cast<double>(std::max<Eigen::Index>(1, s));
    const double rows = std::min(2e6 / ds, 2.5e8 / (ds * ds));
    return static_cast<Eigen::Index>(std::clamp(rows, 16.0, 4096.0));
}

} // namespace

DetectorInfo IcDetector::info()
{
    DetectorInfo d;
    d.id = "ic";
    d.title = "Inverse Christoffel function (explicit moment matrix)";
    d.summary = "Score q(x) = v(x)ᵀM⁻¹v(x) with v the degree-d monomials and M the empirical moment "
                "matrix (Pauwels & Lasserre); needs s = C(p+d,d) ≤ 5000 — use kic for more features.";
    d.reference = "KIC paper eq. 3–9 (IC baseline, sec. 4.1)";
    ParamSpec deg;
    deg.name = "degree";
    deg.type = ParamType::Int;
    deg.defaultValue = "2";
    deg.minValue = 1;
    deg.maxValue = 10;
    deg.help = "Degree d of the monomials in v(x); the moment matrix is s×s with s = C(p+d, d), "
               "refused above 5000 (use kic, whose cost depends on n instead).";
    deg.reference = "KIC paper eq. 3–4, Table 2 (d=2)";
    deg.defaultValue = "auto";
    deg.autoRule = "2 (the paper's) when the degree-2 moment matrix is positive definite on the data and its "
                   "basis has at most 5000 monomials, else 1 (n < C(p+2,2) rows, points on a quadric: eq. 9 "
                   "needs M ≻ 0; or p ≥ 99 features)";
    deg.paperValue = "2";
    d.params = {deg, contaminationParam()};
    d.normalization = "zscore"; // KIC paper sec. 4.1: zero mean, unit variance per feature
    d.make = [](ParamSet p) { return std::make_unique<IcDetector>(std::move(p)); };
    return d;
}

IcDetector::Model IcDetector::build(const Eigen::MatrixXd& X, int degree, const Progress* progress)
{
    const auto p = static_cast<int>(X.cols());
    const Eigen::Index n = X.rows();
    Model m;
    try {
        m.basis = MonomialBasis(p, degree, maxMomentSize);
    } catch (const ParamError& e) {
        throw ParamError(std::string("ic: ") + e.what()
                         + "; the s×s moment matrix would not fit in memory. Use the kernelized "
                           "detector 'kic' (kernel=poly, degree="
                         + std::to_string(degree) + ") instead: its cost grows with n, not with s");
    }
    const Eigen::Index s = m.basis.size();
    if (n < s)
        throw DataError("ic: " + std::to_string(n) + " samples cannot give a positive-definite " + std::to_string(s)
                        + "×" + std::to_string(s) + " moment matrix (need n ≥ s = C(p+d,d)); use 'kic', "
                          "whose ρ regularisation (eq. 11) does not need n ≥ s");
    // eq. 6: M = (1/n) Σ v(x_i) v(x_i)ᵀ, accumulated over row blocks (lower triangle only).
    Eigen::MatrixXd M = Eigen::MatrixXd::Zero(s, s);
    const Eigen::Index b = rowBlock(s);
    for (Eigen::Index r0 = 0; r0 < n; r0 += b) {
        const Eigen::Index rows = std::min(b, n - r0);
        const Eigen::MatrixXd V = m.basis.evaluate(X.middleRows(r0, rows));
        M.selfadjointView<Eigen::Lower>().rankUpdate(V.transpose(), 1.0 / static_cast<double>(n));
        if (progress)
            progress->report(0.6 * static_cast<double>(r0 + rows) / static_cast<double>(n), "moment matrix");
    }
    if (!M.allFinite()) {
        // M holds the degree-2d moments (eq. 6): large magnitudes overflow double precision.
        std::ostringstream msg;
        msg << "ic: the degree-" << 2 * degree << " moment matrix overflows (largest |value| in the data is "
            << X.cwiseAbs().maxCoeff() << "); normalise the data (e.g. --normalize zscore)";
        throw DataError(msg.str());
    }
    Eigen::LLT<Eigen::MatrixXd> llt(M);
    const double rc = llt.info() == Eigen::Success ? llt.rcond() : 0.0;
    if (!(rc > 4 * std::numeric_limits<double>::epsilon())) {
        std::ostringstream msg;
        msg << "ic: the " << s << "×" << s << " moment matrix is singular (reciprocal condition " << rc
            << "): the points lie on the zero set of a degree-" << degree
            << " polynomial, which eq. 9 excludes. Use 'kic' (its ρI term, eq. 11, keeps the system "
               "solvable) or lower the degree";
        const double big = X.cwiseAbs().maxCoeff();
        if (big < 1e-30 || big > 1e30) // degree-2d moments under/overflow: the data's scale, not its shape
            msg << ". The largest |value| in the data is " << big
                << ": the degree-" << 2 * degree << " moments lose precision at this scale; normalise the data "
                   "(e.g. --normalize zscore)";
        throw DataError(msg.str());
    }
    m.X = X;
    m.L = llt.matrixL();
    m.rcond = rc;
    return m;
}

Eigen::VectorXd IcDetector::evaluate(const Model& m, const Eigen::MatrixXd& X, const Progress* progress)
{
    // eq. 9: q(x) = v(x)ᵀ M⁻¹ v(x) = ‖L⁻¹ v(x)‖² with M = LLᵀ.
    const Eigen::Index n = X.rows(), s = m.basis.size();
    Eigen::VectorXd q(n);
    const Eigen::Index b = rowBlock(s);
    for (Eigen::Index r0 = 0; r0 < n; r0 += b) {
        const Eigen::Index rows = std::min(b, n - r0);
        Eigen::MatrixXd W = m.basis.evaluate(X.middleRows(r0, rows)).transpose(); // s×rows
        m.L.triangularView<Eigen::Lower>().solveInPlace(W);
        q.segment(r0, rows) = W.colwise().squaredNorm().transpose();
        if (progress)
            progress->report(0.6 + 0.4 * static_cast<double>(r0 + rows) / static_cast<double>(n), "scoring training points");
    }
    return q;
}

Eigen::VectorXd IcDetector::doFit(const Eigen::MatrixXd& X, const Progress& progress)
{
    Model m;
    if (params().isAuto("degree")) {
        // Degree 2 when eq. 9's M ≻ 0 holds for it and its basis fits the size limit, else degree 1
        // (a Mahalanobis-type score). Wide data (p ≥ 99: C(p+2, 2) > 5000) were refused (#53).
        bool two = MonomialBasis::count(static_cast<int>(X.cols()), 2) <= maxMomentSize;
        if (two) {
            try {
                m = build(X, 2, &progress);
            } catch (const DataError&) {
                two = false;
            }
        }
        if (!two)
            m = build(X, 1, &progress);
        autoInt("degree", two ? 2 : 1);
    } else {
        m = build(X, params().getInt("degree"), &progress);
    }
    progress.report(0.6, "scoring training points");
    Eigen::VectorXd train = evaluate(m, X, &progress);
    m_model = std::move(m);
    return train;
}

Eigen::VectorXd IcDetector::doScore(const Eigen::MatrixXd& X) const
{
    return evaluate(m_model, X);
}

std::map<std::string, double> IcDetector::figures() const
{
    if (!isFitted())
        return {};
    return {{"s", static_cast<double>(m_model.basis.size())}, {"rcond", m_model.rcond}};
}

nlohmann::json IcDetector::saveState() const
{
    const Eigen::MatrixXd& X = m_model.X;
    return {{"rows", X.rows()}, {"points", std::vector<double>(X.data(), X.data() + X.size())}};
}

void IcDetector::loadState(const nlohmann::json& state)
{
    const auto n = static_cast<Eigen::Index>(jsonInt(state.at("rows"), "ic model: rows"));
    const auto v = state.at("points").get<std::vector<double>>();
    const int p = inputDimension();
    if (n <= 0 || static_cast<Eigen::Index>(v.size()) != n * p)
        throw DataError("ic model: " + std::to_string(v.size()) + " stored values do not form " + std::to_string(n)
                        + " points of dimension " + std::to_string(p));
    const Eigen::MatrixXd X = Eigen::Map<const Eigen::MatrixXd>(v.data(), n, p);
    try {
        m_model = build(X, params().getInt("degree"), nullptr);
    } catch (const ParamError& e) {
        throw DataError(std::string("ic model: ") + e.what());
    }
}

} // namespace olens
