#pragma once
// Command-line arguments of the GUI that Qt would otherwise swallow.
#include <string>
#include <vector>

namespace olens {

/// Qt's X11 session management takes `-session NAME` (also spelt `--session NAME`) out of argv inside
/// the QApplication constructor, so `outlierlens --session FILE` used to be ignored silently. This
/// joins `--session FILE` / `-session FILE` into `--session=FILE`, which Qt leaves alone and
/// QCommandLineParser reads; call it on argv before constructing QApplication. Everything else is
/// returned unchanged (a trailing `--session` without a value stays as it is, so the parser reports it).
std::vector<std::string> protectSessionArgument(const std::vector<std::string>& args);

} // namespace olens
