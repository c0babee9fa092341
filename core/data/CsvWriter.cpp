#include "data/CsvWriter.h"

#include "base/Errors.h"
#include "data/CsvCells.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <ostream>

namespace olens {

namespace {

inline bool isBlankChar(char c) { return c == ' ' || c == '\t'; }

void writeText(std::ostream& out, const std::string& text)
{
    const std::string s = neutraliseCell(text); // no cell a spreadsheet runs as a formula
    const bool needQuotes = s.empty() || s.find_first_of(",;\t\"#\r\n") != std::string::npos
                            || isBlankChar(s.front()) || isBlankChar(s.back());
    if (!needQuotes) {
        out << s;
        return;
    }
    out << '"';
    for (char c : s) {
        if (c == '"') out << '"';
        out << c;
    }
    out << '"';
}

void writeNumber(std::ostream& out, double v)
{
    if (std::isnan(v)) {
        out << "nan";
        return;
    }
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, v); // shortest round-trip form
    out.write(buf, res.ptr - buf);
}

} // namespace

void writeCsv(std::ostream& out, const Dataset& data)
{
    writeCsv(out, data, {});
}

void writeCsv(std::ostream& out, const Dataset& data, const std::vector<CsvColumn>& extra)
{
    const Eigen::Index n = data.rows(), p = data.cols();
    for (const CsvColumn& c : extra)
        if (c.values.size() != n)
            throw DataError("writeCsv: column '" + c.name + "' has " + std::to_string(c.values.size())
                            + " values for " + std::to_string(n) + " rows");
    const bool sigma = data.hasSigma();
    const bool labels = data.hasLabels();
    if (sigma && (data.sigma.rows() != n || data.sigma.cols() != p))
        throw DataError("writeCsv: sigma is " + std::to_string(data.sigma.rows()) + "x"
                        + std::to_string(data.sigma.cols()) + ", expected " + std::to_string(n) + "x"
                        + std::to_string(p));
    if (labels && data.labels.size() != n)
        throw DataError("writeCsv: " + std::to_string(data.labels.size()) + " labels for " + std::to_string(n)
                        + " rows");
    auto featureName = [&](Eigen::Index j) {
        return j < static_cast<Eigen::Index>(data.featureNames.size()) ? data.featureNames[static_cast<std::size_t>(j)]
                                                                        : "x" + std::to_string(j + 1);
    };
    bool firstCell = true;
    auto sep = [&]() {
        if (!firstCell) out << ',';
        firstCell = false;
    };
    for (Eigen::Index j = 0; j < p; ++j) { sep(); writeText(out, featureName(j)); }
    if (sigma)
        for (Eigen::Index j = 0; j < p; ++j) { sep(); writeText(out, "sigma_" + featureName(j)); }
    if (labels) { sep(); writeText(out, data.labelName.empty() ? std::string("label") : data.labelName); }
    for (const CarriedColumn& c : data.carried) {
        if (static_cast<Eigen::Index>(c.cells.size()) != n)
            throw DataError("writeCsv: ignored column '" + c.name + "' has " + std::to_string(c.cells.size())
                            + " cells for " + std::to_string(n) + " rows");
        sep();
        writeText(out, c.name);
    }
    for (const CsvColumn& c : extra) { sep(); writeText(out, c.name); }
    out << '\n';
    for (Eigen::Index i = 0; i < n; ++i) {
        firstCell = true;
        for (Eigen::Index j = 0; j < p; ++j) { sep(); writeNumber(out, data.X(i, j)); }
        if (sigma)
            for (Eigen::Index j = 0; j < p; ++j) { sep(); writeNumber(out, data.sigma(i, j)); }
        if (labels) {
            sep();
            const double v = data.labels(i);
            // Range check before converting: casting a huge label (1e308) to an integer is undefined.
            if (!data.labelNames.empty() && v >= 0 && v < static_cast<double>(data.labelNames.size())
                && v == std::floor(v))
                writeText(out, data.labelNames[static_cast<std::size_t>(v)]);
            else
                writeNumber(out, v);
        }
        for (const CarriedColumn& c : data.carried) { sep(); writeText(out, c.cells[static_cast<std::size_t>(i)]); }
        for (const CsvColumn& c : extra) { sep(); writeNumber(out, c.values(i)); }
        out << '\n';
    }
}

void writeCsv(const std::string& path, const Dataset& data, const std::vector<std::string>& inputs)
{
    writeFileAtomically(path, [&](std::ostream& out) { writeCsv(out, data); }, inputs);
}

} // namespace olens

namespace olens {

void writeScores(std::ostream& out, const Eigen::VectorXd& scores, const Eigen::VectorXi& outlier,
                 const Eigen::VectorXd* labels, const std::vector<int>* trainingRows,
                 const Eigen::VectorXd* percentiles)
{
    if (outlier.size() != scores.size() || (labels && labels->size() != scores.size())
        || (percentiles && percentiles->size() != scores.size()))
        throw DataError("writeScores: scores, flags and labels differ in length");
    std::vector<char> training;
    if (trainingRows) {
        training.assign(static_cast<std::size_t>(scores.size()), 0);
        for (int i : *trainingRows)
            if (i >= 0 && i < scores.size())
                training[static_cast<std::size_t>(i)] = 1;
    }
    out << "index,score,outlier" << (labels ? ",label" : "") << (trainingRows ? ",training" : "")
        << (percentiles ? ",percentile" : "") << "\n";
    char buf[64];
    for (Eigen::Index i = 0; i < scores.size(); ++i) {
        const auto r = std::to_chars(buf, buf + sizeof buf, scores(i));
        out << i << ',' << std::string_view(buf, static_cast<std::size_t>(r.ptr - buf)) << ',' << outlier(i);
        if (labels) {
            const auto rl = std::to_chars(buf, buf + sizeof buf, (*labels)(i));
            out << ',' << std::string_view(buf, static_cast<std::size_t>(rl.ptr - buf));
        }
        if (trainingRows)
            out << ',' << int(training[static_cast<std::size_t>(i)]);
        if (percentiles) {
            const auto rp = std::to_chars(buf, buf + sizeof buf, (*percentiles)(i));
            out << ',' << std::string_view(buf, static_cast<std::size_t>(rp.ptr - buf));
        }
        out << '\n';
    }
}


} // namespace olens
