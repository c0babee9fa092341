#pragma once
// Normalisation fitted on training data and applied to new data (docs/architecture.md "Data").
#include <Eigen/Core>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace olens {

enum class Normalization { None, ZScore, L2, MinMax };

/// "none" | "zscore" | "l2" | "minmax"; throws ParamError otherwise.
Normalization parseNormalization(const std::string& text);
std::string toString(Normalization kind);

class Normalizer {
public:
    explicit Normalizer(Normalization kind = Normalization::None) : m_kind(kind) {}

    /// zscore: per column (x-mean)/std (population std, as the KIC paper / scikit-learn);
    ///         constant columns are dropped with a warning.
    /// minmax: per column to [0,1]; constant columns become 0 with a warning.
    /// l2:     each row scaled to unit Euclidean norm (GODS sec. 4.1.1); zero rows stay zero.
    /// none:   the data as they are, unless max |x| lies outside [2^-100, 2^100]: then the whole
    ///         matrix is scaled by one power of two (exact; a warning says so), so that distances,
    ///         kernels and moments stay finite at any magnitude. Column statistics of zscore and
    ///         minmax are computed the same scale-safe way (a column's own power of two).
    void fit(const Eigen::MatrixXd& X);
    Eigen::MatrixXd transform(const Eigen::MatrixXd& X) const;
    Eigen::MatrixXd fitTransform(const Eigen::MatrixXd& X) { fit(X); return transform(X); }
    /// Maps normalised rows back to input coordinates, for drawing geometry fitted in normalised
    /// space. zscore/minmax are inverted exactly; columns that cannot be recovered (dropped or
    /// constant) take the value of `fill` (p input values, e.g. the data mean). none (after its power of two) and l2 return
    /// the rows unchanged (l2 loses each row's scale: geometry is drawn on the unit sphere).
    Eigen::MatrixXd inverseTransform(const Eigen::MatrixXd& Xn, const Eigen::VectorXd& fill) const;

    Normalization kind() const { return m_kind; }
    bool isFitted() const { return m_fitted; }
    /// Fitted, and transform() returns its input unchanged ("none" without a power-of-two scaling):
    /// a caller may then use the rows themselves instead of a copy (480 MB at 20 M 3-D points).
    bool isIdentity() const
    {
        return m_fitted && m_kind == Normalization::None && (m_exponent.size() == 0 || (m_exponent.array() == 0).all());
    }
    /// Number of input columns seen by fit().
    int inputColumns() const { return m_inputCols; }
    /// Input columns kept (all of them except constant columns under zscore).
    const std::vector<int>& keptColumns() const { return m_kept; }
    const std::vector<std::string>& warnings() const { return m_warnings; }
    /// Names of the kept columns, given the input names.
    std::vector<std::string> keptNames(const std::vector<std::string>& names) const;

    nlohmann::json toJson() const;
    static Normalizer fromJson(const nlohmann::json& j);

private:
    Normalization m_kind;
    bool m_fitted = false;
    int m_inputCols = 0;
    std::vector<int> m_kept;
    Eigen::VectorXd m_offset; // per kept column
    Eigen::VectorXd m_scale;  // per kept column (multiplier)
    Eigen::VectorXi m_exponent; // per kept column: offset and scale apply to the column times 2^exponent
    std::vector<std::string> m_warnings;
};

} // namespace olens
