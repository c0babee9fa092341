// libFuzzer target: runPly (see FuzzEntryPoints.h) on arbitrary bytes. Built by scripts/fuzz.sh.
#include "FuzzEntryPoints.h"

#include <cstdio>
#include <cstdlib>
#include <exception>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    try {
        olens::fuzz::runPly(std::string_view(reinterpret_cast<const char*>(data), size));
    } catch (const olens::DataError&) {
    } catch (const olens::ParamError&) {
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fuzz_ply: unexpected exception escaped: %s\n", e.what());
        std::abort();
    }
    return 0;
}
