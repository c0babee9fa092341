#pragma once
// Memory freed by the program but kept by the C library's allocator: glibc returns the top of its
// heaps to the system, not the freed pages below live blocks. After a big cloud's buffers are
// replaced (a new result, a new still frame, an autosave's text) the freed hundreds of MB stayed in
// the process's resident size (issue #54: +0.3 GB at 5 M points).

namespace olens {

/// Gives the system back the whole free pages the allocator holds (glibc's malloc_trim); a few
/// milliseconds for a heap of gigabytes. Nothing elsewhere.
void releaseFreedMemory();

} // namespace olens
