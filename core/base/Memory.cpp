#include "base/Memory.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace olens {

void releaseFreedMemory()
{
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

} // namespace olens
