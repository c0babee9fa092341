#include "data/NoiseProtocol.h"

#include "base/Errors.h"

#include <cmath>
#include <sstream>
#include <string>

namespace olens {

void applyNoiseProtocol(Eigen::MatrixXd& X, Eigen::MatrixXd& sigma, double t, Rng& rng)
{
    if (!std::isfinite(t) || t < 0.0)
        throw ParamError("noise protocol: t = " + std::to_string(t) + " must be a finite number >= 0");
    const Eigen::Index n = X.rows(), p = X.cols();
    const bool had = sigma.size() > 0;
    if (had && (sigma.rows() != n || sigma.cols() != p))
        throw DataError("noise protocol: sigma is " + std::to_string(sigma.rows()) + "x" + std::to_string(sigma.cols())
                        + ", the data " + std::to_string(n) + "x" + std::to_string(p));
    if (!had)
        sigma = Eigen::MatrixXd::Zero(n, p);
    for (Eigen::Index i = 0; i < n; ++i)
        for (Eigen::Index j = 0; j < p; ++j) {
            const double s = rng.uniform(0.0, t); // σ ~ U[0, t]
            const double e = s * rng.normal();    // N(0, σ²)
            if (!std::isnan(X(i, j)))
                X(i, j) += e;
            sigma(i, j) = had ? std::hypot(sigma(i, j), s) : s;
        }
}

Dataset perturbDataset(const Dataset& data, double t, std::uint64_t seed)
{
    Dataset out = data;
    Rng rng(seed);
    applyNoiseProtocol(out.X, out.sigma, t, rng);
    std::ostringstream src;
    src << data.source << " + noise protocol t=" << t << " seed=" << seed;
    out.source = src.str();
    return out;
}

} // namespace olens
