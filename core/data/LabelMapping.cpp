#include "data/LabelMapping.h"

#include "base/Errors.h"
#include "base/Messages.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <map>
#include <set>

namespace olens {

namespace {

std::string lower(std::string_view s)
{
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

std::string formatValue(double v)
{
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

template <class Range, class ToText>
std::string valueList(const Range& values, ToText toText)
{
    std::string out;
    int shown = 0;
    for (const auto& v : values) {
        if (shown == 6) {
            out += ", … (" + std::to_string(values.size()) + " distinct)";
            break;
        }
        out += (shown ? ", '" : "'") + displayValue(toText(v), 40) + "'";
        ++shown;
    }
    return out;
}

} // namespace

bool isDefaultLabelName(const std::string& name)
{
    return name == "label" || name == "class";
}

bool isOutlierWord(std::string_view text)
{
    static const std::set<std::string> words = {"outlier", "outliers", "anomaly", "anomalous", "abnormal",
                                                "novelty", "1", "true", "yes"};
    return words.count(lower(text)) > 0;
}

bool isInlierWord(std::string_view text)
{
    static const std::set<std::string> words = {"inlier", "inliers", "normal", "nominal", "0", "false", "no"};
    return words.count(lower(text)) > 0;
}

void mapLabels(Dataset& data, bool numeric, const std::vector<double>& values,
               const std::vector<std::string_view>& texts, const LoadOptions& options, const std::string& source)
{
    const std::string column = "column '" + displayValue(data.labelName) + "'";
    const bool flags = options.labelMeaning == LoadOptions::LabelMeaning::OutlierFlags;
    if (numeric) {
        const auto n = static_cast<Eigen::Index>(values.size());
        data.labels = Eigen::Map<const Eigen::VectorXd>(values.data(), n);
        if (!flags) return;
        std::set<double> distinct;
        for (double v : values) {
            distinct.insert(v);
            if (distinct.size() > 7) break;
        }
        if (!options.outlierLabel.empty()) {
            double target = 0;
            const std::string& t = options.outlierLabel;
            const auto r = std::from_chars(t.data(), t.data() + t.size(), target);
            if (r.ec != std::errc() || r.ptr != t.data() + t.size())
                throw DataError(source + ": --outlier-label '" + displayValue(t) + "' is not a number, but " + column
                                + " holds numbers (values: " + valueList(distinct, formatValue) + ")");
            long long hits = 0;
            for (Eigen::Index i = 0; i < n; ++i) {
                const bool hit = values[static_cast<std::size_t>(i)] == target;
                hits += hit;
                data.labels(i) = hit ? 1.0 : 0.0;
            }
            if (hits == 0)
                throw DataError(source + ": --outlier-label '" + displayValue(t) + "' does not occur in " + column
                                + " (values: " + valueList(distinct, formatValue) + ")");
            if (distinct.size() > 2)
                data.warnings.push_back(source + ": " + column + " has more than two values ("
                                        + valueList(distinct, formatValue) + "); only '" + displayValue(t)
                                        + "' counts as an outlier");
            return;
        }
        const bool binary = std::all_of(distinct.begin(), distinct.end(), [](double v) { return v == 0.0 || v == 1.0; });
        if (!binary)
            data.warnings.push_back(source + ": " + column + " is not a 0/1 outlier flag (values: "
                                    + valueList(distinct, formatValue)
                                    + "); every non-zero value counts as an outlier (name the outlier value with "
                                      "--outlier-label VALUE)");
        return;
    }

    std::map<std::string_view, long long> distinct;
    for (std::string_view t : texts) ++distinct[t];
    const auto n = static_cast<Eigen::Index>(texts.size());
    auto keyText = [](const auto& kv) { return std::string(kv.first); };
    if (!flags) {
        // Class ids in sorted order: deterministic, independent of the row order.
        std::map<std::string_view, int> id;
        for (const auto& kv : distinct) {
            id.emplace(kv.first, static_cast<int>(data.labelNames.size()));
            data.labelNames.emplace_back(kv.first);
        }
        data.labels.resize(n);
        for (Eigen::Index i = 0; i < n; ++i) data.labels(i) = id.at(texts[static_cast<std::size_t>(i)]);
        return;
    }

    std::string outlierValue;
    if (!options.outlierLabel.empty()) {
        if (!distinct.count(options.outlierLabel))
            throw DataError(source + ": --outlier-label '" + displayValue(options.outlierLabel) + "' does not occur in "
                            + column + " (values: " + valueList(distinct, keyText) + ")");
        outlierValue = options.outlierLabel;
    } else {
        std::vector<std::string_view> outlierWords, inlierWords;
        for (const auto& kv : distinct) {
            if (isOutlierWord(kv.first)) outlierWords.push_back(kv.first);
            if (isInlierWord(kv.first)) inlierWords.push_back(kv.first);
        }
        if (outlierWords.size() == 1) {
            outlierValue = std::string(outlierWords[0]);
        } else if (outlierWords.empty() && distinct.size() == 2 && inlierWords.size() == 1) {
            for (const auto& kv : distinct)
                if (kv.first != inlierWords[0]) outlierValue = std::string(kv.first);
        } else {
            const std::string msg = column + " holds text labels (values: " + valueList(distinct, keyText)
                                    + ") and no value names the outlier class; pass --outlier-label VALUE";
            if (options.labelRequired) throw DataError(source + ": " + msg);
            data.warnings.push_back(source + ": " + msg + " (the labels are ignored)");
            data.labelName.clear();
            data.labels.resize(0);
            data.labelNames.clear();
            return;
        }
    }
    data.labels.resize(n);
    for (Eigen::Index i = 0; i < n; ++i)
        data.labels(i) = texts[static_cast<std::size_t>(i)] == outlierValue ? 1.0 : 0.0;
    if (distinct.size() == 2) {
        for (const auto& kv : distinct)
            if (kv.first != outlierValue) data.labelNames.emplace_back(kv.first);
        data.labelNames.push_back(outlierValue);
    } else {
        data.labelNames = {distinct.size() == 1 ? std::string("inlier") : "not " + outlierValue, outlierValue};
        if (distinct.size() > 2)
            data.warnings.push_back(source + ": " + column + " has " + std::to_string(distinct.size())
                                    + " values (" + valueList(distinct, keyText) + "); only '"
                                    + displayValue(outlierValue) + "' counts as an outlier");
    }
}

} // namespace olens
