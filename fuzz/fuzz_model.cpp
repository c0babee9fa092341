// libFuzzer target: runModel (see FuzzEntryPoints.h) on arbitrary bytes. Built by scripts/fuzz.sh.
#include "FuzzEntryPoints.h"

#include <cstdio>
#include <cstdlib>
#include <exception>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    try {
        olens::fuzz::runModel(std::string_view(reinterpret_cast<const char*>(data), size));
    } catch (const olens::DataError&) {
    } catch (const olens::ParamError&) {
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fuzz_model: unexpected exception escaped: %s\n", e.what());
        std::abort();
    }
    return 0;
}
