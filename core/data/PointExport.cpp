#include "data/PointExport.h"

#include "base/AtomicWriter.h"
#include "base/Errors.h"
#include "data/CsvWriter.h"
#include "data/DataLoader.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <ostream>

namespace olens {

namespace {

std::string featureName(const Dataset& d, Eigen::Index j)
{
    return j < static_cast<Eigen::Index>(d.featureNames.size()) ? d.featureNames[static_cast<std::size_t>(j)]
                                                               : "x" + std::to_string(j + 1);
}

/// `base`, or base_2, base_3, … when a column already has that name.
std::string uniqueName(const std::string& base, const std::vector<std::string>& taken)
{
    std::string name = base;
    for (int k = 2; std::find(taken.begin(), taken.end(), name) != taken.end(); ++k)
        name = base + "_" + std::to_string(k);
    return name;
}

void check(const PointExport& e)
{
    const Eigen::Index n = e.data.rows();
    if (e.scores.size() != n || e.outlier.size() != n)
        throw DataError("export: " + std::to_string(e.scores.size()) + " scores and " + std::to_string(e.outlier.size())
                        + " flags for " + std::to_string(n) + " rows");
}

/// Every column name the CSV / PLY carries before score and outlier.
std::vector<std::string> dataColumnNames(const Dataset& d)
{
    std::vector<std::string> names;
    for (Eigen::Index j = 0; j < d.cols(); ++j) names.push_back(featureName(d, j));
    if (d.hasSigma())
        for (Eigen::Index j = 0; j < d.cols(); ++j) names.push_back("sigma_" + featureName(d, j));
    if (d.hasLabels()) names.push_back(d.labelName.empty() ? std::string("label") : d.labelName);
    for (const CarriedColumn& c : d.carried) names.push_back(c.name);
    return names;
}

std::string plyName(std::string s)
{
    for (char& c : s)
        if (std::isspace(static_cast<unsigned char>(c)) || !std::isprint(static_cast<unsigned char>(c))) c = '_';
    return s.empty() ? std::string("_") : s;
}

void putDouble(std::ostream& out, double v)
{
    std::uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    char b[8];
    for (int k = 0; k < 8; ++k) b[k] = static_cast<char>((bits >> (8 * k)) & 0xff); // little endian on any host
    out.write(b, 8);
}

} // namespace

PointFormat pointFormatFor(const std::string& path)
{
    if (path.size() >= 4) {
        std::string ext = path.substr(path.size() - 4);
        std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
        if (ext == ".ply") return PointFormat::Ply;
    }
    return PointFormat::Csv;
}

std::vector<Eigen::Index> rowsWithFlag(const Eigen::VectorXi& outlier, bool flagged)
{
    std::vector<Eigen::Index> rows;
    for (Eigen::Index i = 0; i < outlier.size(); ++i)
        if ((outlier(i) != 0) == flagged) rows.push_back(i);
    return rows;
}

Dataset selectRows(const Dataset& data, const std::vector<Eigen::Index>& rows)
{
    Dataset out;
    out.source = data.source;
    out.featureNames = data.featureNames;
    out.labelName = data.labelName;
    out.labelNames = data.labelNames;
    const auto m = static_cast<Eigen::Index>(rows.size());
    out.X.resize(m, data.cols());
    if (data.hasLabels()) out.labels.resize(m);
    if (data.hasSigma()) out.sigma.resize(m, data.sigma.cols());
    for (const CarriedColumn& c : data.carried) {
        if (static_cast<Eigen::Index>(c.cells.size()) != data.rows())
            throw DataError("export: ignored column '" + c.name + "' has " + std::to_string(c.cells.size())
                            + " cells for " + std::to_string(data.rows()) + " rows");
        out.carried.push_back({c.name, {}});
        out.carried.back().cells.reserve(rows.size());
    }
    for (Eigen::Index r = 0; r < m; ++r) {
        const Eigen::Index i = rows[static_cast<std::size_t>(r)];
        if (i < 0 || i >= data.rows())
            throw DataError("export: row " + std::to_string(i) + " is outside the data's " + std::to_string(data.rows()) + " rows");
        out.X.row(r) = data.X.row(i);
        if (data.hasLabels()) out.labels(r) = data.labels(i);
        if (data.hasSigma()) out.sigma.row(r) = data.sigma.row(i);
        for (std::size_t c = 0; c < data.carried.size(); ++c)
            out.carried[c].cells.push_back(data.carried[c].cells[static_cast<std::size_t>(i)]);
    }
    return out;
}

AddedColumns addedColumnNames(const Dataset& data)
{
    std::vector<std::string> taken = dataColumnNames(data);
    AddedColumns a;
    a.score = uniqueName("score", taken);
    taken.push_back(a.score);
    a.outlier = uniqueName("outlier", taken);
    taken.push_back(a.outlier);
    a.index = uniqueName("index", taken);
    return a;
}

void writePointsCsv(std::ostream& out, const PointExport& e)
{
    check(e);
    const Dataset part = selectRows(e.data, e.rows);
    const auto m = static_cast<Eigen::Index>(e.rows.size());
    const auto names = addedColumnNames(e.data);
    CsvColumn score{names.score, Eigen::VectorXd(m)};
    CsvColumn flag{names.outlier, Eigen::VectorXd(m)};
    CsvColumn index{names.index, Eigen::VectorXd(m)};
    for (Eigen::Index r = 0; r < m; ++r) {
        const Eigen::Index i = e.rows[static_cast<std::size_t>(r)];
        score.values(r) = e.scores(i);
        flag.values(r) = e.outlier(i) != 0 ? 1.0 : 0.0;
        index.values(r) = double(i);
    }
    writeCsv(out, part, {score, flag, index});
}

void writePointsPly(std::ostream& out, const PointExport& e)
{
    check(e);
    const Dataset& d = e.data;
    const Eigen::Index p = d.cols();
    // Column order in the file: x, y, z, then the other features in their order.
    std::vector<Eigen::Index> order;
    std::vector<std::string> names(static_cast<std::size_t>(p));
    for (Eigen::Index j = 0; j < p; ++j) names[static_cast<std::size_t>(j)] = plyName(featureName(d, j));
    std::string renamed;
    Eigen::Index xyz[3] = {-1, -1, -1};
    const char* axes[3] = {"x", "y", "z"};
    for (int a = 0; a < 3; ++a) {
        const auto it = std::find(names.begin(), names.end(), axes[a]);
        if (it != names.end()) xyz[a] = it - names.begin();
    }
    if (xyz[0] < 0 || xyz[1] < 0 || xyz[2] < 0) {
        if (p < 3)
            throw DataError("PLY needs x, y and z, these data have " + std::to_string(p)
                            + " feature(s) without them; export as CSV instead");
        for (int a = 0; a < 3; ++a) {
            renamed += " " + std::string(axes[a]) + "=" + names[static_cast<std::size_t>(a)];
            for (auto& n : names)
                if (n == axes[a]) n = uniqueName(n + "_orig", names); // keep names unique
            names[static_cast<std::size_t>(a)] = axes[a];
            xyz[a] = a;
        }
    }
    for (int a = 0; a < 3; ++a) order.push_back(xyz[a]);
    for (Eigen::Index j = 0; j < p; ++j)
        if (j != xyz[0] && j != xyz[1] && j != xyz[2]) order.push_back(j);

    std::vector<std::string> taken;
    for (Eigen::Index j : order) taken.push_back(names[static_cast<std::size_t>(j)]);
    if (d.hasSigma())
        for (Eigen::Index j : order) taken.push_back(uniqueName("sigma_" + names[static_cast<std::size_t>(j)], taken));
    if (d.hasLabels()) taken.push_back(uniqueName(plyName(d.labelName.empty() ? std::string("label") : d.labelName), taken));
    // Ignored columns go back as doubles when every cell is a number (empty: NaN); PLY has no
    // text properties, so a text column is named in a comment instead.
    std::vector<std::vector<double>> carriedValues;
    std::vector<std::string> textColumns;
    for (const CarriedColumn& c : d.carried) {
        std::vector<double> v;
        v.reserve(c.cells.size());
        bool numeric = c.cells.size() == static_cast<std::size_t>(d.rows());
        for (std::size_t i = 0; numeric && i < c.cells.size(); ++i) {
            const std::string& s = c.cells[i];
            double x = std::numeric_limits<double>::quiet_NaN();
            if (!s.empty()) {
                const char* b = s.data() + (s[0] == '+' && s.size() > 1 ? 1 : 0);
                const auto r = std::from_chars(b, s.data() + s.size(), x);
                numeric = r.ec == std::errc() && r.ptr == s.data() + s.size();
            }
            v.push_back(x);
        }
        if (numeric) {
            carriedValues.push_back(std::move(v));
            taken.push_back(uniqueName(plyName(c.name), taken));
        } else {
            textColumns.push_back(plyName(c.name));
        }
    }
    const std::string scoreName = uniqueName("score", taken);
    taken.push_back(scoreName);
    const std::string flagName = uniqueName("outlier", taken);
    taken.push_back(flagName);
    const std::string indexName = uniqueName("index", taken);

    out << "ply\nformat binary_little_endian 1.0\ncomment written by OutlierLens\n";
    if (!renamed.empty()) out << "comment renamed:" << renamed << "\n";
    for (const std::string& t : textColumns) out << "comment not written (text column): " << t << "\n";
    if (d.hasLabels() && !d.labelNames.empty()) {
        out << "comment label values:";
        for (std::size_t k = 0; k < d.labelNames.size(); ++k) out << " " << k << "=" << plyName(d.labelNames[k]);
        out << "\n";
    }
    out << "element vertex " << e.rows.size() << "\n";
    for (std::size_t k = 0; k + 1 < taken.size(); ++k) out << "property double " << taken[k] << "\n";
    out << "property uchar " << flagName << "\n";
    out << "property int " << indexName << "\n";
    out << "end_header\n";
    for (const Eigen::Index i : e.rows) {
        if (i < 0 || i >= d.rows())
            throw DataError("export: row " + std::to_string(i) + " is outside the data's " + std::to_string(d.rows()) + " rows");
        for (Eigen::Index j : order) putDouble(out, d.X(i, j));
        if (d.hasSigma())
            for (Eigen::Index j : order) putDouble(out, d.sigma(i, j));
        if (d.hasLabels()) putDouble(out, d.labels(i));
        for (const auto& v : carriedValues) putDouble(out, v[static_cast<std::size_t>(i)]);
        putDouble(out, e.scores(i));
        out.put(e.outlier(i) != 0 ? char(1) : char(0));
        const std::int32_t row = static_cast<std::int32_t>(i); // little endian, as the doubles
        char bytes[4];
        for (int b = 0; b < 4; ++b)
            bytes[b] = static_cast<char>((static_cast<std::uint32_t>(row) >> (8 * b)) & 0xffu);
        out.write(bytes, 4);
    }
}

void writePoints(const std::string& path, const PointExport& e, const std::vector<std::string>& inputs)
{
    const PointFormat f = pointFormatFor(path);
    writeFileAtomically(path, [&](std::ostream& out) {
        if (f == PointFormat::Ply) writePointsPly(out, e);
        else writePointsCsv(out, e);
    }, inputs);
}

} // namespace olens
