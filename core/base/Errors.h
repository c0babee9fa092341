#pragma once
// Error types that cross the core boundary. Bad input is an error (exception);
// numerical trouble during training is reported as a status by the detector.
#include <stdexcept>
#include <string>

namespace olens {

/// Malformed or unusable data (file, line, column and offending text in the message).
class DataError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Unknown detector/generator, bad parameter name or value.
class ParamError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// A query on a detector that has not been fitted (Eigen's m_isInitialized, made loud).
class NotFittedError : public std::logic_error {
public:
    using std::logic_error::logic_error;
};

/// Training stopped because the progress callback asked for it.
class Cancelled : public std::runtime_error {
public:
    Cancelled() : std::runtime_error("cancelled by user") {}
};

} // namespace olens
