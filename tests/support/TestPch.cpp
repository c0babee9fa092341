// Compiled only to own the tests' precompiled header (tests/CMakeLists.txt, OLENS_PCH).
int main() { return 0; }
