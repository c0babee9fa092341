#pragma once
// The test process's own peak memory, for tests that bound it (wide tables: a single p×p matrix
// at p = 20 000 is 3.2 GB, so a bound of a few hundred MiB to 2 GiB tells the two apart).
#include <fstream>
#include <string>

namespace olens::test {

/// Peak resident set size of this process (VmHWM of /proc/self/status), in MiB; 0 when unknown.
inline double peakRssMiB()
{
    std::ifstream status("/proc/self/status");
    std::string key;
    while (status >> key) {
        if (key == "VmHWM:") {
            double kb = 0;
            status >> kb;
            return kb / 1024.0;
        }
        status.ignore(1 << 12, '\n');
    }
    return 0;
}

} // namespace olens::test
