#include "data/Normalizer.h"

#include "base/Json.h"
#include "base/Errors.h"
#include "base/Format.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

namespace olens {

namespace {

const char* const kChoices = "none, zscore, l2, minmax";

// Population mean and standard deviation over the non-NaN entries of a column (two-pass), computed
// on the column times 2^exponent: data near the ends of the double range (|x| ~ 1e300 or 1e-300)
// overflow in the squares or drop below the constant test otherwise. `exponent` is 0 for data in
// [2^-kSafeExponent, 2^kSafeExponent], so ordinary data give the same bits as an unscaled pass.
// count == 0 when the column has no values.
struct ColumnStats {
    double mean = 0, stddev = 0, min = 0, max = 0, maxAbs = 0; // of the column times 2^exponent
    int exponent = 0;
    Eigen::Index count = 0;
};

constexpr int kSafeExponent = 500;
/// Without normalisation the detectors see the data themselves: squared distances, degree-2
/// monomials squared (quadrics) and fourth moments must stay inside the double range, so the
/// safe range is [2^-100, 2^100] (about 1e±30).
constexpr int kNoneSafeExponent = 100;

/// The power of two that brings max|x| into [1, 2) when it lies outside the safe range, else 0.
int safeExponent(double maxAbs)
{
    if (!(maxAbs > 0) || !std::isfinite(maxAbs)) return 0;
    const int e = std::ilogb(maxAbs);
    return (e > kSafeExponent || e < -kSafeExponent) ? -e : 0;
}

ColumnStats columnStats(const Eigen::Ref<const Eigen::VectorXd>& c)
{
    ColumnStats s;
    double maxAbs = 0;
    for (Eigen::Index i = 0; i < c.size(); ++i)
        if (!std::isnan(c(i))) maxAbs = std::max(maxAbs, std::abs(c(i)));
    s.exponent = safeExponent(maxAbs);
    auto at = [&](Eigen::Index i) { return s.exponent == 0 ? c(i) : std::ldexp(c(i), s.exponent); };
    double sum = 0;
    s.min = std::numeric_limits<double>::infinity();
    s.max = -std::numeric_limits<double>::infinity();
    for (Eigen::Index i = 0; i < c.size(); ++i) {
        const double v = at(i);
        if (std::isnan(v)) continue;
        sum += v;
        s.min = std::min(s.min, v);
        s.max = std::max(s.max, v);
        ++s.count;
    }
    if (s.count == 0) {
        s.min = s.max = 0;
        return s;
    }
    s.maxAbs = std::ldexp(maxAbs, s.exponent);
    s.mean = sum / static_cast<double>(s.count);
    double ss = 0;
    for (Eigen::Index i = 0; i < c.size(); ++i) {
        const double v = at(i);
        if (std::isnan(v)) continue;
        ss += (v - s.mean) * (v - s.mean);
    }
    s.stddev = std::sqrt(ss / static_cast<double>(s.count));
    return s;
}

/// Constant relative to the column's own magnitude: a column of values ~1e-300 that vary among
/// themselves is data, not a constant (an absolute floor of 1e-12 dropped it).
bool isConstant(const ColumnStats& s)
{
    return s.count == 0 || s.stddev <= 1e-12 * s.maxAbs;
}

/// The column times 2^e (exact for a power of two, subnormal inputs included).
Eigen::ArrayXd scaled(const Eigen::Ref<const Eigen::VectorXd>& c, int e)
{
    if (e == 0) return c.array();
    return c.array().unaryExpr([e](double v) { return std::ldexp(v, e); });
}

} // namespace

Normalization parseNormalization(const std::string& text)
{
    std::string t = text;
    std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (t == "none") return Normalization::None;
    if (t == "zscore") return Normalization::ZScore;
    if (t == "l2") return Normalization::L2;
    if (t == "minmax") return Normalization::MinMax;
    throw ParamError("unknown normalization '" + text + "' (choices: " + kChoices + ")");
}

std::string toString(Normalization kind)
{
    switch (kind) {
    case Normalization::None: return "none";
    case Normalization::ZScore: return "zscore";
    case Normalization::L2: return "l2";
    case Normalization::MinMax: return "minmax";
    }
    return "none";
}

void Normalizer::fit(const Eigen::MatrixXd& X)
{
    const Eigen::Index p = X.cols();
    m_fitted = false;
    m_warnings.clear();
    m_kept.clear();
    m_inputCols = static_cast<int>(p);

    if (m_kind == Normalization::None || m_kind == Normalization::L2) {
        for (Eigen::Index j = 0; j < p; ++j) m_kept.push_back(static_cast<int>(j));
        m_offset = Eigen::VectorXd::Zero(p);
        m_scale = Eigen::VectorXd::Ones(p);
        m_exponent = Eigen::VectorXi::Zero(p);
        if (m_kind == Normalization::None) {
            // One power of two for the whole matrix (exact, and the same for every column, so
            // distances, angles and rankings keep their shape) when the data lie where squared
            // distances, kernels or fourth moments would overflow or vanish.
            double maxAbs = 0;
            for (Eigen::Index j = 0; j < p; ++j)
                for (Eigen::Index i = 0; i < X.rows(); ++i)
                    if (std::isfinite(X(i, j))) maxAbs = std::max(maxAbs, std::abs(X(i, j)));
            const int e = (maxAbs > 0) ? std::ilogb(maxAbs) : 0;
            if (e > kNoneSafeExponent || e < -kNoneSafeExponent) {
                m_exponent.setConstant(-e);
                m_warnings.push_back("max |x| = " + formatNumber("%.3g", maxAbs)
                                     + " is beyond the range in which distances, kernels and moments stay finite;"
                                       " the data are scaled by 2^"
                                     + std::to_string(-e) + " (exactly) before fitting, so scores are in those units;"
                                       " a method that depends on the data's units (kic: (1 + x·y)^d, σ = √p/2)"
                                       " ranks the rescaled data, which can differ from"
                                       " the same data at unit scale: normalise (zscore, robust) for unit-free results");
            }
        }
        m_fitted = true;
        return;
    }

    if (X.rows() == 0)
        throw DataError(toString(m_kind) + " normalization: cannot fit on 0 rows");

    std::vector<double> offset, scale;
    std::vector<int> exponent;
    for (Eigen::Index j = 0; j < p; ++j) {
        const ColumnStats s = columnStats(X.col(j));
        const bool constant = isConstant(s);
        const std::string col = "column " + std::to_string(j + 1);
        if (m_kind == Normalization::ZScore) {
            if (constant) {
                m_warnings.push_back(col + " is constant (std " + formatNumber("%.3g", std::ldexp(s.stddev, -s.exponent))
                                     + "); dropped by zscore normalization");
                continue;
            }
            m_kept.push_back(static_cast<int>(j));
            exponent.push_back(s.exponent);
            offset.push_back(s.mean);
            scale.push_back(1.0 / s.stddev);
        } else { // MinMax
            m_kept.push_back(static_cast<int>(j));
            exponent.push_back(s.exponent);
            if (constant) {
                m_warnings.push_back(col + " is constant; minmax normalization maps it to 0");
                offset.push_back(s.min);
                scale.push_back(0.0);
            } else {
                offset.push_back(s.min);
                scale.push_back(1.0 / (s.max - s.min));
            }
        }
    }
    if (m_kind == Normalization::ZScore && m_kept.empty() && p > 0)
        throw DataError("zscore normalization: every column is constant, no feature is left");
    m_offset = Eigen::Map<const Eigen::VectorXd>(offset.data(), static_cast<Eigen::Index>(offset.size()));
    m_scale = Eigen::Map<const Eigen::VectorXd>(scale.data(), static_cast<Eigen::Index>(scale.size()));
    m_exponent = Eigen::Map<const Eigen::VectorXi>(exponent.data(), static_cast<Eigen::Index>(exponent.size()));
    m_fitted = true;
}

Eigen::MatrixXd Normalizer::transform(const Eigen::MatrixXd& X) const
{
    if (!m_fitted) throw NotFittedError(toString(m_kind) + " normalization used before fit()");
    if (X.cols() != m_inputCols)
        throw DataError(toString(m_kind) + " normalization was fitted on " + std::to_string(m_inputCols)
                        + " columns but the data has " + std::to_string(X.cols()));
    switch (m_kind) {
    case Normalization::None:
        if (m_exponent.size() > 0 && m_exponent(0) != 0)
            return X.unaryExpr([e = m_exponent(0)](double v) { return std::ldexp(v, e); });
        return X;
    case Normalization::L2: {
        Eigen::MatrixXd out = X;
        for (Eigen::Index i = 0; i < out.rows(); ++i) {
            double maxAbs = 0;
            for (Eigen::Index j = 0; j < out.cols(); ++j)
                if (!std::isnan(out(i, j))) maxAbs = std::max(maxAbs, std::abs(out(i, j)));
            // Rows near the ends of the double range: the norm of the row times 2^e (exact),
            // whose squares neither overflow nor vanish.
            const int e = safeExponent(maxAbs);
            if (e != 0)
                out.row(i) = out.row(i).unaryExpr([e](double v) { return std::ldexp(v, e); });
            double ss = 0;
            for (Eigen::Index j = 0; j < out.cols(); ++j) {
                const double v = out(i, j);
                if (!std::isnan(v)) ss += v * v; // missing entries do not count
            }
            const double norm = std::sqrt(ss);
            if (norm > 0) out.row(i) /= norm;
        }
        return out;
    }
    case Normalization::ZScore:
    case Normalization::MinMax: {
        Eigen::MatrixXd out(X.rows(), static_cast<Eigen::Index>(m_kept.size()));
        for (Eigen::Index k = 0; k < out.cols(); ++k) {
            const double scale = m_scale(k);
            const double offset = m_offset(k);
            if (scale == 0.0) {
                // Constant column (minmax): 0, but keep missing values missing.
                out.col(k) = X.col(m_kept[static_cast<std::size_t>(k)])
                                 .unaryExpr([](double v) { return std::isnan(v) ? v : 0.0; });
            } else {
                out.col(k) = (scaled(X.col(m_kept[static_cast<std::size_t>(k)]), m_exponent(k)) - offset) * scale;
            }
        }
        return out;
    }
    }
    return X;
}

Eigen::MatrixXd Normalizer::inverseTransform(const Eigen::MatrixXd& Xn, const Eigen::VectorXd& fill) const
{
    if (!m_fitted) throw NotFittedError(toString(m_kind) + " normalization used before fit()");
    if (m_kind == Normalization::None && m_exponent.size() > 0 && m_exponent(0) != 0)
        return Xn.unaryExpr([e = m_exponent(0)](double v) { return std::ldexp(v, -e); });
    if (m_kind == Normalization::None || m_kind == Normalization::L2)
        return Xn;
    if (Xn.cols() != static_cast<Eigen::Index>(m_kept.size()) || fill.size() != m_inputCols)
        throw DataError(toString(m_kind) + " inverse: expected " + std::to_string(m_kept.size())
                        + " normalised columns and " + std::to_string(m_inputCols) + " fill values");
    Eigen::MatrixXd out = fill.transpose().replicate(Xn.rows(), 1);
    for (Eigen::Index k = 0; k < Xn.cols(); ++k) {
        const int j = m_kept[static_cast<std::size_t>(k)];
        if (m_scale(k) != 0.0)
            out.col(j) = scaled(Xn.col(k).array() / m_scale(k) + m_offset(k), -m_exponent(k));
    }
    return out;
}

std::vector<std::string> Normalizer::keptNames(const std::vector<std::string>& names) const
{
    if (!m_fitted) throw NotFittedError(toString(m_kind) + " normalization used before fit()");
    if (static_cast<int>(names.size()) != m_inputCols)
        throw DataError(toString(m_kind) + " normalization was fitted on " + std::to_string(m_inputCols)
                        + " columns but " + std::to_string(names.size()) + " names were given");
    std::vector<std::string> out;
    out.reserve(m_kept.size());
    for (int j : m_kept) out.push_back(names[static_cast<std::size_t>(j)]);
    return out;
}

nlohmann::json Normalizer::toJson() const
{
    nlohmann::json j;
    j["kind"] = toString(m_kind);
    j["fitted"] = m_fitted;
    if (!m_fitted) return j;
    j["inputCols"] = m_inputCols;
    j["kept"] = m_kept;
    j["offset"] = std::vector<double>(m_offset.data(), m_offset.data() + m_offset.size());
    j["scale"] = std::vector<double>(m_scale.data(), m_scale.data() + m_scale.size());
    // Offsets and scales of a column at the ends of the double range apply to it times 2^exponent.
    if (m_exponent.size() > 0 && (m_exponent.array() != 0).any())
        j["exponent"] = std::vector<int>(m_exponent.data(), m_exponent.data() + m_exponent.size());
    j["warnings"] = m_warnings;
    return j;
}

Normalizer Normalizer::fromJson(const nlohmann::json& j)
{
    auto bad = [](const std::string& why) { return ParamError("normalizer JSON: " + why); };
    try {
        if (!j.is_object()) throw bad("not an object");
        Normalizer n(parseNormalization(j.at("kind").get<std::string>()));
        const bool fitted = j.contains("fitted") ? j.at("fitted").get<bool>() : true;
        if (!fitted) return n;
        const int inputCols = static_cast<int>(jsonInt(j.at("inputCols"), "normalizer JSON: inputCols"));
        if (inputCols < 0) throw bad("negative inputCols");
        const auto kept = jsonInts(j.at("kept"), "normalizer JSON: kept");
        const auto offset = j.at("offset").get<std::vector<double>>();
        const auto scale = j.at("scale").get<std::vector<double>>();
        if (offset.size() != kept.size() || scale.size() != kept.size())
            throw bad("kept, offset and scale differ in length");
        for (std::size_t k = 0; k < kept.size(); ++k) {
            if (kept[k] < 0 || kept[k] >= inputCols || (k > 0 && kept[k] <= kept[k - 1]))
                throw bad("kept columns must be increasing indices below inputCols");
            if (!std::isfinite(offset[k]) || !std::isfinite(scale[k])) throw bad("non-finite offset or scale");
            // Fitting gives 1/std (zscore keeps non-constant columns only) or 1/range (minmax: 0 for
            // a constant column); a tampered scale of 0 flattened a zscore column silently (#51).
            if (scale[k] < 0 || (scale[k] == 0 && n.m_kind == Normalization::ZScore))
                throw bad("scale " + std::to_string(k) + " is " + formatNumber("%g", scale[k]) + "; " + toString(n.m_kind) +
                          " scales are " + (n.m_kind == Normalization::ZScore ? "positive" : "zero or positive") +
                          " (the file was altered or damaged: train again)");
        }
        if ((n.m_kind != Normalization::ZScore) && static_cast<int>(kept.size()) != inputCols)
            throw bad(toString(n.m_kind) + " must keep every column");
        n.m_inputCols = inputCols;
        n.m_kept = kept;
        n.m_offset = Eigen::Map<const Eigen::VectorXd>(offset.data(), static_cast<Eigen::Index>(offset.size()));
        n.m_scale = Eigen::Map<const Eigen::VectorXd>(scale.data(), static_cast<Eigen::Index>(scale.size()));
        n.m_exponent = Eigen::VectorXi::Zero(static_cast<Eigen::Index>(kept.size()));
        if (j.contains("exponent")) {
            const auto exponent = jsonInts(j.at("exponent"), "normalizer JSON: exponent");
            if (exponent.size() != kept.size()) throw bad("exponent and kept differ in length");
            for (std::size_t k = 0; k < kept.size(); ++k) {
                if (exponent[k] < -1100 || exponent[k] > 1100) throw bad("exponent out of range");
                n.m_exponent(static_cast<Eigen::Index>(k)) = exponent[k];
            }
        }
        if (j.contains("warnings")) n.m_warnings = j.at("warnings").get<std::vector<std::string>>();
        n.m_fitted = true;
        return n;
    } catch (const nlohmann::json::exception& e) {
        throw bad(e.what());
    }
}

} // namespace olens
