#include "view/layers/PointColouring.h"

#include "data/Dataset.h"
#include "display/DisplayGeometry.h"
#include "pipeline/FitPipeline.h"

#include <vtkColorTransferFunction.h>
#include <vtkFloatArray.h>
#include <vtkLookupTable.h>
#include <vtkUnsignedCharArray.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <vector>

namespace olens {

namespace {

// Colour maps as a few control points (perceptually ordered; viridis/magma after matplotlib).
const std::map<QString, std::vector<std::array<double, 3>>>& colourMapStops()
{
    static const std::map<QString, std::vector<std::array<double, 3>>> maps = {
        {"viridis", {{0.267, 0.005, 0.329}, {0.283, 0.141, 0.458}, {0.254, 0.265, 0.530}, {0.207, 0.372, 0.553},
                     {0.164, 0.471, 0.558}, {0.128, 0.567, 0.551}, {0.135, 0.659, 0.518}, {0.267, 0.749, 0.441},
                     {0.478, 0.821, 0.318}, {0.741, 0.873, 0.150}, {0.993, 0.906, 0.144}}},
        {"magma", {{0.001, 0.000, 0.014}, {0.114, 0.065, 0.277}, {0.316, 0.071, 0.485}, {0.513, 0.148, 0.508},
                   {0.716, 0.215, 0.475}, {0.904, 0.318, 0.392}, {0.986, 0.536, 0.382}, {0.996, 0.749, 0.533},
                   {0.987, 0.991, 0.750}}},
        {"coolwarm", {{0.230, 0.299, 0.754}, {0.552, 0.690, 0.996}, {0.866, 0.866, 0.866}, {0.958, 0.604, 0.482},
                      {0.706, 0.016, 0.150}}},
        {"greys", {{0.95, 0.95, 0.95}, {0.05, 0.05, 0.05}}},
    };
    return maps;
}

} // namespace

PointColouring::PointColouring()
{
    m_lut->SetNumberOfTableValues(256);
    m_customLut->SetNumberOfTableValues(256);
}

PointColouring::~PointColouring() = default;

vtkLookupTable* PointColouring::scoreTable() const { return m_lut; }
vtkLookupTable* PointColouring::customTable() const { return m_customLut; }
vtkUnsignedCharArray* PointColouring::colours() const { return m_colours; }
vtkFloatArray* PointColouring::sizes() const { return m_sizes; }

std::vector<QRgb> PointColouring::rgb() const
{
    std::vector<QRgb> out;
    if (!m_colours)
        return out;
    out.resize(static_cast<std::size_t>(m_colours->GetNumberOfTuples()));
    for (vtkIdType i = 0; i < m_colours->GetNumberOfTuples(); ++i)
        out[static_cast<std::size_t>(i)] = qRgb(m_colours->GetTypedComponent(i, 0), m_colours->GetTypedComponent(i, 1),
                                                m_colours->GetTypedComponent(i, 2));
    return out;
}

QRgb PointColouring::rgbAt(long long row, long long rows, QRgb fallback) const
{
    if (!m_colours || m_colours->GetNumberOfTuples() != rows || row < 0 || row >= rows)
        return fallback;
    const auto i = static_cast<vtkIdType>(row);
    return qRgb(m_colours->GetTypedComponent(i, 0), m_colours->GetTypedComponent(i, 1), m_colours->GetTypedComponent(i, 2));
}

QColor PointColouring::colourFor(double label)
{
    if (std::isnan(label))
        return QColor(40, 110, 180); // unlabelled: one calm blue
    if (label == 0.0)
        return QColor(70, 130, 180);  // inlier
    if (label == 1.0)
        return QColor(220, 50, 40);   // outlier
    return componentColour(static_cast<int>(std::lround(std::fabs(label))));
}

QColor PointColouring::componentColour(int k)
{
    // A qualitative palette (Tableau-like) for the first ten; beyond it hues step by the golden
    // angle with alternating lightness, so no two components share a colour.
    static const QColor palette[] = {{31, 119, 180}, {255, 127, 14}, {44, 160, 44}, {148, 103, 189},
                                     {140, 86, 75}, {227, 119, 194}, {188, 189, 34}, {23, 190, 207},
                                     {214, 39, 40}, {127, 127, 127}};
    const int a = std::abs(k);
    if (a < 10)
        return palette[a];
    const int hue = static_cast<int>(std::fmod(15.0 + 137.508 * (a - 10), 360.0));
    const int value = (a % 3 == 0) ? 150 : (a % 3 == 1) ? 205 : 235;
    const int sat = (a % 2 == 0) ? 200 : 150;
    return QColor::fromHsv(hue, sat, value);
}

QStringList PointColouring::colourMaps()
{
    QStringList names;
    for (const auto& [name, stops] : colourMapStops())
        names << name;
    return names;
}

bool PointColouring::setColourMap(const QString& name)
{
    const auto& maps = colourMapStops();
    const auto it = maps.find(name);
    if (it == maps.end())
        return false;
    vtkNew<vtkColorTransferFunction> ctf;
    const auto& stops = it->second;
    for (std::size_t i = 0; i < stops.size(); ++i)
        ctf->AddRGBPoint(double(i) / double(stops.size() - 1), stops[i][0], stops[i][1], stops[i][2]);
    m_map.assign(256, {});
    for (int i = 0; i < 256; ++i)
        ctf->GetColor(i / 255.0, m_map[static_cast<std::size_t>(i)].data());
    m_lut->SetNumberOfTableValues(256);
    for (int i = 0; i < 256; ++i) {
        const auto& c = m_map[static_cast<std::size_t>(i)];
        m_lut->SetTableValue(i, c[0], c[1], c[2], 1.0);
    }
    m_lut->Modified();
    return true;
}

QColor PointColouring::mapColour(double t) const
{
    if (m_map.empty())
        return QColor(128, 128, 128);
    const auto k = static_cast<std::size_t>(std::lround(std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0) * 255.0));
    const auto& c = m_map[k];
    return QColor::fromRgbF(float(c[0]), float(c[1]), float(c[2]));
}

void PointColouring::buildPanelTable(const Eigen::VectorXd& scores)
{
    // The table spans the training scores' [min, max] in fine linear steps; each step's colour is
    // the colour map at the percentile of its centre (rank mode) or the region its centre lies in
    // (decision mode). Field values beyond the range take the end colours: percentile 0 / 100.
    constexpr int kSteps = 2048; // a heavy upper tail still leaves the bulk many steps
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (Eigen::Index i = 0; i < scores.size(); ++i)
        if (std::isfinite(scores(i))) { // a detector's inf / NaN must not void the range
            lo = std::min(lo, scores(i));
            hi = std::max(hi, scores(i));
        }
    if (!(lo <= hi))
        lo = hi = 0.0;
    if (!(hi > lo)) {
        lo -= 0.5;
        hi += 0.5;
    }
    Eigen::VectorXd centres(kSteps);
    for (int j = 0; j < kSteps; ++j)
        centres(j) = lo + (j + 0.5) * (hi - lo) / kSteps;
    const Eigen::VectorXd ranks = percentileRanks(scores, centres);
    m_lut->SetScaleToLinear();
    m_lut->SetNumberOfTableValues(kSteps);
    m_lut->SetTableRange(lo, hi);
    for (int j = 0; j < kSteps; ++j) {
        const QColor c = !m_style.decisionOnly ? mapColour(ranks(j))
                         : centres(j) > m_threshold ? outlierRegionColour()
                                                    : inlierRegionColour();
        m_lut->SetTableValue(j, c.redF(), c.greenF(), c.blueF(), 1.0);
    }
    m_lut->Modified();
    m_scoreScale = ColourScale{};
    m_scoreScale.lo = m_scoreScale.dataMin = lo;
    m_scoreScale.hi = m_scoreScale.dataMax = hi;
}

void PointColouring::update(const Dataset& d, const FitResult* result, ColourBy by, const Eigen::VectorXd& custom,
                            double customLo, double customHi, float baseSize)
{
    const Eigen::Index n = d.rows();
    const bool scores = result && result->scores.size() == n && n > 0;
    const bool panel = scores && (m_style.rankColours || m_style.decisionOnly);
    Eigen::VectorXd ranks; // per point, rank mode
    if (panel) {
        buildPanelTable(result->scores);
        ranks = percentileRanks(result->scores, result->scores);
    } else {
        if (scores)
            m_scoreScale = colourScale(result->scores, m_range);
        if (m_lut->GetNumberOfTableValues() != 256 && !m_map.empty()) { // back from a panel table
            m_lut->SetNumberOfTableValues(256);
            for (int i = 0; i < 256; ++i) {
                const auto& c = m_map[static_cast<std::size_t>(i)];
                m_lut->SetTableValue(i, c[0], c[1], c[2], 1.0);
            }
        }
        // A log table needs a positive range before it is switched to log.
        m_lut->SetScaleToLinear();
        m_lut->SetTableRange(m_scoreScale.lo, m_scoreScale.hi);
        if (m_scoreScale.log)
            m_lut->SetScaleToLog10();
        m_lut->Build();
    }
    if (by == ColourBy::Custom) {
        for (int k = 0; k < 256 && !m_map.empty(); ++k) {
            const auto& c = m_map[static_cast<std::size_t>(k)];
            m_customLut->SetTableValue(k, c[0], c[1], c[2], 1.0);
        }
        m_customLut->SetTableRange(customLo, customHi);
        m_customLut->Modified();
        // The custom values' own range as set by the caller; clipped where values lie outside.
        ColourRangeSpec manual;
        manual.mode = ColourRangeMode::Manual;
        manual.lo = customLo;
        manual.hi = customHi;
        m_customScale = colourScale(custom, manual);
        // Counts (compare agreement: "flagged by k of m") get whole-number ticks.
        const auto whole = [](double v) { return std::isfinite(v) && v == std::round(v); };
        m_customScale.counts = whole(customLo) && whole(customHi) && custom.size() > 0
                            && std::all_of(custom.data(), custom.data() + custom.size(), [&](double v) { return !std::isfinite(v) || whole(v); });
    }

    m_colours = vtkSmartPointer<vtkUnsignedCharArray>::New();
    m_colours->SetName("colours");
    m_colours->SetNumberOfComponents(3);
    m_colours->SetNumberOfTuples(n);
    const auto& clusters = result ? result->geometry.clusterOfPoint : std::vector<int>{};
    const bool byTable = by == ColourBy::Score && !panel && result && result->scores.size() == n;
    if (byTable && n > 0) {
        // The table's own bulk mapping (the same colours as GetColor per point, NaN included): at a
        // million points the per-point path was a third of the time the GUI took to show a result.
        m_lut->MapScalarsThroughTable2(const_cast<double*>(result->scores.data()), m_colours->GetPointer(0),
                                       VTK_DOUBLE, static_cast<int>(n), 1, VTK_RGB);
    }
    for (Eigen::Index i = 0; i < n && !byTable; ++i) {
        QColor c;
        if (by == ColourBy::Custom) {
            double rgb[3];
            m_customLut->GetColor(std::isfinite(custom(i)) ? custom(i) : customLo, rgb);
            c = QColor::fromRgbF(float(rgb[0]), float(rgb[1]), float(rgb[2]));
        } else if (by == ColourBy::Score && panel) {
            // Exact per point (the table is a step approximation for the field).
            c = m_style.decisionOnly ? (result->scores(i) > m_threshold ? outlierPointColour() : inlierPointColour())
                                     : mapColour(ranks(i));
        } else if (by == ColourBy::Score && result && result->scores.size() == n) {
            double rgb[3];
            m_lut->GetColor(result->scores(i), rgb);
            c = QColor::fromRgbF(float(rgb[0]), float(rgb[1]), float(rgb[2]));
        } else if (by == ColourBy::Cluster && static_cast<Eigen::Index>(clusters.size()) == n) {
            c = componentColour(clusters[static_cast<std::size_t>(i)]);
        } else {
            c = colourFor(d.hasLabels() ? d.labels(i) : std::numeric_limits<double>::quiet_NaN());
        }
        const unsigned char rgb[3] = {static_cast<unsigned char>(c.red()), static_cast<unsigned char>(c.green()),
                                      static_cast<unsigned char>(c.blue())};
        m_colours->SetTypedTuple(i, rgb);
    }
    // Sprite size: the base size, grown with the score (up to 1.8×) when colouring by score.
    m_sizes = vtkSmartPointer<vtkFloatArray>::New();
    m_sizes->SetName("olensPointSize");
    m_sizes->SetNumberOfTuples(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        float s = baseSize;
        if (by == ColourBy::Score && panel) {
            const double t = m_style.decisionOnly ? (result->scores(i) > m_threshold ? 0.6 : 0.1) : ranks(i);
            s = baseSize * float(0.8 + t);
        } else if (by == ColourBy::Score && result && result->scores.size() == n) {
            const double t = colourPosition(m_scoreScale, result->scores(i));
            s = baseSize * float(0.8 + t);
        }
        m_sizes->SetValue(i, s);
    }
}

} // namespace olens
