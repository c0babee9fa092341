#pragma once
// Seeded random numbers whose streams do not depend on the standard library's distributions
// (std::normal_distribution differs between implementations; ours is fixed Box–Muller).
#include <cmath>
#include <cstdint>
#include <random>

namespace olens {

class Rng {
public:
    explicit Rng(std::uint64_t seed) : m_engine(seed) {}
    /// Uniform in [0,1) with 53 random bits.
    double uniform() { return static_cast<double>(m_engine() >> 11) * 0x1.0p-53; }
    double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
    /// Standard normal by Box–Muller (both values of a pair are used).
    double normal()
    {
        if (m_hasSpare) { m_hasSpare = false; return m_spare; }
        double u1 = 0.0;
        while (u1 <= 0.0) u1 = uniform();
        const double u2 = uniform();
        const double r = std::sqrt(-2.0 * std::log(u1));
        constexpr double twoPi = 6.283185307179586476925286766559;
        m_spare = r * std::sin(twoPi * u2);
        m_hasSpare = true;
        return r * std::cos(twoPi * u2);
    }
    double normal(double mean, double sd) { return mean + sd * normal(); }
    /// Uniform integer in [0, n).
    std::uint64_t index(std::uint64_t n) { return static_cast<std::uint64_t>(uniform() * static_cast<double>(n)); }

private:
    std::mt19937_64 m_engine;
    bool m_hasSpare = false;
    double m_spare = 0.0;
};

} // namespace olens
