#include "docks/ViewControls.h"

#include "metrics/Thresholds.h"
#include "docks/FlowLayout.h"

#include "dialogs/GeometryChooserDialog.h"

#include "view/CloudView.h"
#include "document/DataDocument.h"
#include "pipeline/FitPipeline.h"

#include <QCheckBox>
#include <QComboBox>
#include <QStringListModel>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QSpinBox>
#include <QMenu>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <iterator>

namespace olens {

ViewControls::ViewControls(DataDocument* document, CloudView* view, QWidget* parent)
    : QWidget(parent), m_doc(document), m_view(view), m_colourBy(new QComboBox), m_colourMap(new QComboBox),
      m_pointSize(new QSpinBox), m_res2d(new QSpinBox), m_res3d(new QSpinBox), m_margin(new QSpinBox),
      m_opacity(new QSpinBox), m_projection(new QComboBox), m_grid(new QLabel),
      m_projectionBox(new QWidget), m_clusterBox(new QWidget), m_clusterSlider(new QSlider(Qt::Horizontal)),
      m_clusterSpin(new QSpinBox), m_reconstruction(new QCheckBox(tr("Reconstruction")))
{
    m_colourBy->addItems({tr("auto"), tr("label"), tr("score"), tr("cluster"), tr("agreement")});
    m_colourBy->setToolTip(tr("Colour points by ground-truth label, outlier score or cluster (auto: score "
                              "once a detector is trained); agreement: by how many of the compare panels' "
                              "detectors flag each point (View → Compare detectors; auto until two are trained)"));
    m_colourMap->addItems(CloudView::colourMaps());
    m_colourMap->setCurrentText(m_view->colourMap());
    m_colourMap->setToolTip(tr("Colour map of the score (points, 2D field and scalar bar)"));
    // 1 = automatic: the sprites cover about a quarter of the data's area on screen (2–9 px; smaller
    // for big clouds, larger when zoomed in).
    m_pointSize->setRange(1, 30);
    m_pointSize->setSpecialValueText(tr("auto size"));
    m_pointSize->setValue(1);
    m_pointSize->setSuffix(" px");
    m_pointSize->setToolTip(tr("Point size in pixels; 'auto size' adapts it to the number of points and the zoom"));
    m_res2d->setRange(16, 1024);
    m_res2d->setSingleStep(32);
    m_res2d->setValue(m_view->gridResolution2D());
    m_res2d->setPrefix("2D ");
    m_res2d->setToolTip(tr("Samples per axis of the 2D score grid (contours depend on it)"));
    m_res3d->setRange(8, 128);
    m_res3d->setSingleStep(8);
    m_res3d->setValue(m_view->gridResolution3D());
    m_res3d->setPrefix("3D ");
    m_res3d->setToolTip(tr("Samples per axis of the 3D score volume (iso-surfaces and quadric surfaces)"));
    m_margin->setRange(0, 200);
    m_margin->setValue(int(m_view->gridMargin() * 100));
    m_margin->setSuffix(" %");
    m_margin->setToolTip(tr("Grid extent: the data box enlarged by this fraction per side"));
    // A spin box, not a slider: at 1280 px the row squeezed a slider to a few unusable pixels.
    m_opacity->setObjectName("isoOpacity");
    m_opacity->setRange(0, 100);
    m_opacity->setSingleStep(5);
    m_opacity->setValue(kIsoPercent);
    m_opacity->setPrefix(tr("iso "));
    m_opacity->setSuffix(QStringLiteral(" %"));
    m_opacity->setToolTip(tr("Opacity of the 3D threshold iso-surface"));
    m_grid->setStyleSheet("color: #555;");
    // The grid text grows with the data range: it may be clipped, never widen the window.
    m_grid->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_grid->setMinimumWidth(0);

    // Groups that stay together when the strip wraps (FlowLayout): a narrow window gets another row
    // of controls, never controls behind a scroll bar.
    auto group = [] {
        auto* w = new QWidget;
        auto* l = new QHBoxLayout(w);
        l->setContentsMargins(0, 0, 0, 0);
        return std::make_pair(w, l);
    };
    auto [colourGroup, colourRow] = group();
    colourRow->addWidget(new QLabel(tr("Colour")));
    colourRow->addWidget(m_colourBy);
    colourRow->addWidget(m_colourMap);
    colourRow->addWidget(m_pointSize);
    // Colour range of the score map (and of the colour bar): a mode, its numbers, log.
    auto [rangeGroup, rangeRow] = group();
    m_range = new QComboBox;
    m_range->addItems({tr("auto range"), tr("min–max"), tr("symmetric"), tr("percentile"), tr("manual")});
    m_range->setToolTip(tr("Range of the score colour map: auto = [min, 99th percentile]; min–max of the scores; "
                           "symmetric = ±max |score|; percentile = [100−p, p] percentiles; manual = the two values. "
                           "Scores outside get the end colour and a marker on the colour bar."));
    m_percentile = new QDoubleSpinBox;
    m_percentile->setRange(50.0, 100.0);
    m_percentile->setDecimals(1);
    m_percentile->setValue(99.0);
    m_percentile->setPrefix(QStringLiteral("p "));
    m_percentile->setToolTip(tr("Percentile mode: the map spans the (100 − p)th to the pth percentile"));
    m_lo = new QDoubleSpinBox;
    m_hi = new QDoubleSpinBox;
    for (auto* b : {m_lo, m_hi}) {
        b->setRange(-1e12, 1e12);
        b->setDecimals(4);
        b->setMaximumWidth(95);
    }
    m_lo->setToolTip(tr("Manual range: the score at the bottom of the colour map"));
    m_hi->setToolTip(tr("Manual range: the score at the top of the colour map"));
    m_log = new QCheckBox(tr("log"));
    m_log->setToolTip(tr("Log scale for the score colours (over the positive scores; lower scores get the "
                         "lowest colour)"));
    for (QWidget* w : {static_cast<QWidget*>(m_range), static_cast<QWidget*>(m_percentile),
                       static_cast<QWidget*>(m_lo), static_cast<QWidget*>(m_hi), static_cast<QWidget*>(m_log)})
        rangeRow->addWidget(w);
    m_percentile->setVisible(false);
    m_lo->setVisible(false);
    m_hi->setVisible(false);
    connect(m_range, &QComboBox::currentIndexChanged, this, [this](int mode) {
        if (mode == 4) { // manual starts from what is shown now
            QSignalBlocker b1(m_lo), b2(m_hi);
            m_lo->setValue(m_view->colourScale().lo);
            m_hi->setValue(m_view->colourScale().hi);
        }
        applyColourRange();
    });
    connect(m_percentile, &QDoubleSpinBox::valueChanged, this, &ViewControls::applyColourRange);
    connect(m_lo, &QDoubleSpinBox::valueChanged, this, &ViewControls::applyColourRange);
    connect(m_hi, &QDoubleSpinBox::valueChanged, this, &ViewControls::applyColourRange);
    connect(m_log, &QCheckBox::toggled, this, &ViewControls::applyColourRange);
    struct LayerDef {
        CloudView::Layer layer;
        QString name, tip;
        const char* key;
    };
    const LayerDef layers[] = {
        {CloudView::Layer::ScoreImage, tr("Field"), tr("2D score image under the points"), "layer_field"},
        {CloudView::Layer::Contours, tr("Contours"), tr("Score contour lines; the decision threshold is the thick line"), "layer_contours"},
        {CloudView::Layer::IsoSurface, tr("Iso-surface"), tr("3D surface of the score at the decision threshold"), "layer_isosurface"},
        {CloudView::Layer::Quadrics, tr("Quadrics"), tr("Zero sets of the fitted quadrics"), "layer_quadrics"},
        {CloudView::Layer::Hyperplanes, tr("Hyperplanes"), tr("GODS/BODS hyperplanes, coloured by frame"), "layer_hyperplanes"},
        {CloudView::Layer::Flats, tr("Flats"), tr("Fitted flats (PCA subspace, ACDT clusters) over their extent"), "layer_flats"},
        {CloudView::Layer::Uncertainty, tr("Uncertainty"), tr("Per-point uncertainty from the data's sigma_ columns: an "
            "ellipse (2D) / ellipsoid (3D) with semi-axes σ× the standard deviations; for p > 3 the covariance is "
            "projected like the points. Unavailable without sigma_ columns."), "layer_uncertainty"},
    };
    // Layers in a drop-down of checkable actions: compact, and each action has a tooltip.
    auto* layerButton = new QToolButton;
    layerButton->setText(tr("Layers"));
    layerButton->setToolTip(tr("Show or hide the score field, contours, iso-surface and the detector's geometry"));
    layerButton->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(layerButton);
    menu->setToolTipsVisible(true);
    for (const auto& l : layers) {
        QAction* a = menu->addAction(l.name);
        a->setCheckable(true);
        a->setChecked(m_view->layerVisible(l.layer));
        a->setToolTip(l.tip);
        m_layerActions.emplace_back(QString(l.key), a);
        const auto layer = l.layer;
        connect(a, &QAction::toggled, m_view, [this, layer](bool on) { m_view->setLayerVisible(layer, on); });
    }
    // Many quadrics / frames: which ones are drawn (the legend then says "n of N shown").
    menu->addSeparator();
    m_chooseGeometry = menu->addAction(tr("Choose quadrics and planes…"));
    m_chooseGeometry->setObjectName("actionChooseGeometry");
    m_chooseGeometry->setToolTip(tr("Which of the fitted quadrics and hyperplane frames are drawn (3-D: the first 3 of "
                                    "many quadrics by default; or the ones the selected point violates most)"));
    m_chooseGeometry->setEnabled(false);
    connect(m_chooseGeometry, &QAction::triggered, this, [this] {
        GeometryChooserDialog dialog(m_doc, m_view->geometryChoice(), this);
        if (dialog.exec() == QDialog::Accepted)
            m_view->setGeometryChoice(dialog.choice());
    });
    layerButton->setMenu(menu);
    m_sigmaScale = new QDoubleSpinBox;
    m_sigmaScale->setRange(0.5, 5.0);
    m_sigmaScale->setSingleStep(0.5);
    m_sigmaScale->setDecimals(1);
    m_sigmaScale->setValue(m_view->uncertaintyScale());
    m_sigmaScale->setPrefix(QStringLiteral("σ × "));
    m_sigmaScale->setToolTip(tr("Size of the uncertainty glyphs: semi-axes = this factor × the per-feature standard "
                                "deviations (1 = one-sigma ellipses, 2 ≈ 86 % of the mass in 2D)"));
    connect(m_sigmaScale, &QDoubleSpinBox::valueChanged, m_view, &CloudView::setUncertaintyScale);

    auto [gridGroup, gridRow] = group();
    gridRow->addWidget(new QLabel(tr("Grid")));
    gridRow->addWidget(m_res2d);
    gridRow->addWidget(m_res3d);
    gridRow->addWidget(m_margin);
    gridRow->addWidget(m_opacity); // the 3-D iso-surface's: beside the 3-D grid it is sampled on
    auto* pl = new QHBoxLayout(m_projectionBox);
    pl->setContentsMargins(0, 0, 0, 0);
    pl->addWidget(new QLabel(tr("Projection")));
    m_projection->addItems({tr("PCA 3D"), tr("PCA 2D"), tr("feature axes"), tr("2 feature axes"),
                            tr("chosen PCs"), tr("2 chosen PCs")});
    m_projection->setToolTip(tr("p > 3: show the first principal axes, or any three / two features or principal "
                                "components; fields are evaluated on the slice through the data mean"));
    pl->addWidget(m_projection);
    m_axisNames = new QStringListModel(this);
    for (auto*& a : m_axis) {
        a = new QComboBox;
        a->setModel(m_axisNames);
        a->setToolTip(tr("Feature shown on this axis"));
        a->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon); // long feature names
        a->setMinimumContentsLength(8);
        pl->addWidget(a);
        connect(a, &QComboBox::currentIndexChanged, this, &ViewControls::applyProjection);
    }
    // Clustering results (acdt): cut the recorded merge history at another number of clusters.
    auto* cl = new QHBoxLayout(m_clusterBox);
    cl->setContentsMargins(0, 0, 0, 0);
    cl->addWidget(new QLabel(tr("Clusters L")));
    m_clusterSlider->setToolTip(tr("Number of clusters: re-cuts the merge history instantly (no retraining)"));
    m_clusterSlider->setMinimumWidth(140);
    m_clusterSpin->setToolTip(m_clusterSlider->toolTip());
    cl->addWidget(m_clusterSlider);
    cl->addWidget(m_clusterSpin);
    m_reconstruction->setToolTip(tr("Move each point to its projection on its cluster's flat (the model's "
                                     "reconstruction; MSRE is the mean squared move)"));
    cl->addWidget(m_reconstruction);
    connect(m_reconstruction, &QCheckBox::toggled, m_view, &CloudView::setShowReconstruction);
    m_clusterBox->setVisible(false);
    // Detectors whose score is the maximum of parts (GODS/KODS frames) can draw each part alone.
    m_component = new QComboBox;
    m_component->setToolTip(tr("Field drawn: the score, or one part of it (GODS/KODS: the margin violation of "
                               "frame 1 or frame 2 alone, as in the GODS paper's fig. 1e–f)"));
    m_component->setVisible(false);
    m_component->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_component->setMinimumContentsLength(10);
    connect(m_component, &QComboBox::currentIndexChanged, this,
            [this](int i) { m_view->setFieldComponent(i - 1); });
    connect(m_clusterSlider, &QSlider::valueChanged, m_clusterSpin, &QSpinBox::setValue);
    connect(m_clusterSpin, &QSpinBox::valueChanged, m_clusterSlider, &QSlider::setValue);
    connect(m_clusterSpin, &QSpinBox::valueChanged, this, &ViewControls::applyClusterCount);
    connect(m_doc, &DataDocument::resultChanged, this, &ViewControls::onResult);

    auto* flow = new FlowLayout(this, 8, 2);
    flow->setContentsMargins(4, 2, 4, 2);
    for (QWidget* w : {colourGroup, rangeGroup, static_cast<QWidget*>(layerButton), static_cast<QWidget*>(m_sigmaScale),
                       gridGroup, static_cast<QWidget*>(m_projectionBox), static_cast<QWidget*>(m_clusterBox),
                       static_cast<QWidget*>(m_component)})
        flow->addWidget(w);
    // The grid's extent is written in the view's corner note already; the strip keeps the label
    // (its text and tooltip) out of sight instead of a row of its own.
    m_grid->setParent(this);
    m_grid->hide();

    connect(m_colourBy, &QComboBox::currentIndexChanged, this,
            [this](int i) { m_view->setColourBy(static_cast<CloudView::ColourBy>(i)); });
    connect(m_colourMap, &QComboBox::currentTextChanged, m_view, &CloudView::setColourMap);
    connect(m_pointSize, &QSpinBox::valueChanged, m_view, [this](int v) { m_view->setPointSize(v <= 1 ? 0 : v); });
    connect(m_res2d, &QSpinBox::valueChanged, m_view, &CloudView::setGridResolution2D);
    connect(m_res3d, &QSpinBox::valueChanged, m_view, &CloudView::setGridResolution3D);
    connect(m_margin, &QSpinBox::valueChanged, m_view, [this](int v) { m_view->setGridMargin(v / 100.0); });
    connect(m_opacity, &QSpinBox::valueChanged, m_view, [this](int v) {
        m_view->setIsoOpacity(v / 100.0);
        if (!m_settingOpacity)
            m_opacityChosen = true; // the user's (or a session's) choice: new data keep it
    });
    connect(m_view, &CloudView::gridChanged, m_grid, &QLabel::setText);
    connect(m_projection, &QComboBox::currentIndexChanged, this, &ViewControls::applyProjection);
    connect(m_doc, &DataDocument::datasetChanged, this, &ViewControls::onDataset);
    onDataset();
}

void ViewControls::onResult()
{
    const auto r = m_doc->result();
    m_chooseGeometry->setEnabled(r && (!r->geometry.quadrics.empty() || !r->geometry.frames.empty()));
    {
        const auto parts = r && r->detector ? r->detector->scoreComponents() : std::vector<std::string>{};
        QStringList items{tr("field: score")};
        for (const auto& p : parts)
            items << tr("field: %1").arg(QString::fromStdString(p));
        QStringList current;
        for (int i = 0; i < m_component->count(); ++i)
            current << m_component->itemText(i);
        if (current != items) { // a new kind of result: back to the score
            QSignalBlocker block(m_component);
            m_component->clear();
            m_component->addItems(items);
            m_component->setCurrentIndex(0);
            m_view->setFieldComponent(-1);
        }
        m_component->setVisible(!parts.empty());
    }
    const ClusterCut* cut = r && r->detector ? r->detector->clusterCut() : nullptr;
    const int lo = cut ? cut->minClusterCount() : 0;
    const int hi = cut ? cut->maxClusterCount() : 0;
    m_clusterBox->setVisible(hi > 0);
    if (hi <= 0)
        return;
    QSignalBlocker b1(m_clusterSlider), b2(m_clusterSpin);
    // The slider covers the useful range; the spin box reaches every cut.
    m_clusterSlider->setRange(lo, std::min(hi, std::max(lo + 1, 200)));
    m_clusterSpin->setRange(lo, hi);
    m_clusterSpin->setValue(cut->clusterCount());
    m_clusterSlider->setValue(cut->clusterCount());
}

void ViewControls::applyClusterCount(int L)
{
    const auto r = m_doc->result();
    const ClusterCut* cut = r && r->detector ? r->detector->clusterCut() : nullptr;
    if (!cut || cut->clusterCount() == L)
        return;
    try {
        m_doc->setResult(recutResult(*r, m_doc->dataset().X, L));
    } catch (const std::exception&) {
        onResult(); // not a clustering any more: hide the control
    }
}

void ViewControls::applyColourRange()
{
    const int mode = std::clamp(m_range->currentIndex(), 0, 4);
    m_percentile->setVisible(mode == 3);
    m_lo->setVisible(mode == 4);
    m_hi->setVisible(mode == 4);
    ColourRangeSpec spec;
    spec.mode = static_cast<ColourRangeMode>(mode);
    spec.percentile = m_percentile->value();
    spec.lo = m_lo->value();
    spec.hi = m_hi->value();
    spec.log = m_log->isChecked();
    m_view->setColourRange(spec);
}

void ViewControls::onDataset()
{
    const Dataset& d = m_doc->dataset();
    const bool many = d.cols() > 3;
    m_projectionBox->setVisible(many);
    // Projected data (p > 3): the threshold surface is a slice through the mean that wraps most of
    // the cloud; at 35 % it hid which points are flagged (issue #52). Faint there by default, so the
    // flagged points show through; 35 % for 3-D data, whose surface is the decision itself.
    if (!m_opacityChosen && !m_doc->changeIsEdit()) {
        m_settingOpacity = true;
        m_opacity->setValue(isBigCloud(d.rows()) ? kBigCloudIsoPercent : many ? kProjectedIsoPercent : kIsoPercent);
        m_settingOpacity = false;
    }
    m_sigmaScale->setVisible(d.hasSigma());
    for (const auto& [key, action] : m_layerActions)
        if (key == QLatin1String("layer_uncertainty"))
            action->setEnabled(d.hasSigma());
    setAxisChoices(false);
    for (auto* a : m_axis)
        a->setVisible(false);
    QSignalBlocker block(m_projection);
    m_projection->setCurrentIndex(0);
    m_grid->setText(m_view->gridDescription());
    m_grid->setToolTip(m_grid->text());
}

void ViewControls::setAxisChoices(bool pcs)
{
    // One list shared by the three combos (10 000 features were 30 000 combo items). Principal
    // components: the first kMaxChosenComponents at most, each computed by linalg/pcaLeading.
    const Dataset& d = m_doc->dataset();
    QStringList names;
    const int count = pcs ? int(std::min<Eigen::Index>(d.cols(), kMaxChosenComponents)) : int(d.cols());
    names.reserve(count);
    for (int j = 0; j < count; ++j)
        names << (pcs ? QStringLiteral("PC%1").arg(j + 1) : QString::fromStdString(d.featureNames[std::size_t(j)]));
    const QSignalBlocker b0(m_axis[0]), b1(m_axis[1]), b2(m_axis[2]);
    m_axisNames->setStringList(names);
    for (int k = 0; k < 3; ++k) {
        m_axis[k]->setCurrentIndex(std::min(k, count - 1));
        m_axis[k]->setProperty("pcs", pcs);
        m_axis[k]->setToolTip(pcs ? tr("Principal component shown on this axis") : tr("Feature shown on this axis"));
    }
}

void ViewControls::applyProjection()
{
    const Dataset& d = m_doc->dataset();
    if (d.cols() <= 3)
        return;
    // Modes: 0 PCA 3D, 1 PCA 2D, 2 three feature axes, 3 two feature axes, 4 three chosen PCs, 5 two.
    const int mode = m_projection->currentIndex();
    const bool pcs = mode >= 4;
    const int shown = mode == 2 || mode == 4 ? 3 : mode == 3 || mode == 5 ? 2 : 0;
    if (shown > 0 && m_axis[0]->property("pcs").toBool() != pcs) // the combos list features or PCs
        setAxisChoices(pcs);
    for (int k = 0; k < 3; ++k)
        m_axis[k]->setVisible(k < shown);
    std::vector<int> chosen;
    for (int k = 0; k < shown; ++k)
        chosen.push_back(m_axis[k]->currentIndex());
    if (mode == 0)
        m_view->setProjection(Projection::pca(d.X, 3));
    else if (mode == 1)
        m_view->setProjection(Projection::pca(d.X, 2));
    else if (pcs)
        m_view->setProjection(Projection::components(d.X, chosen));
    else
        m_view->setProjection(Projection::axes(d.X, d.featureNames, chosen));
}

} // namespace olens

namespace olens {

namespace {
const char* const kColourBy[] = {"auto", "label", "score", "cluster", "agreement"};
constexpr int kColourByCount = int(std::size(kColourBy));
const char* const kRange[] = {"auto", "minmax", "symmetric", "percentile", "manual"};
}

QVariantMap ViewControls::settings() const
{
    QVariantMap m;
    m["colour_by"] = QString(kColourBy[std::clamp(m_colourBy->currentIndex(), 0, kColourByCount - 1)]);
    m["colour_map"] = m_colourMap->currentText();
    m["point_size"] = m_pointSize->value();
    m["grid_2d"] = m_res2d->value();
    m["grid_3d"] = m_res3d->value();
    m["margin_percent"] = m_margin->value();
    m["opacity_percent"] = m_opacity->value();
    for (const auto& [key, action] : m_layerActions)
        m[key] = action->isChecked();
    if (!m_clusterBox->isHidden())
        m["clusters"] = m_clusterSpin->value();
    m["reconstruction"] = m_reconstruction->isChecked();
    m["uncertainty_scale"] = m_sigmaScale->value();
    m["field_component"] = m_component->currentIndex() - 1;
    m["colour_range"] = QString(kRange[std::clamp(m_range->currentIndex(), 0, 4)]);
    m["colour_percentile"] = m_percentile->value();
    m["colour_lo"] = m_lo->value();
    m["colour_hi"] = m_hi->value();
    m["colour_log"] = m_log->isChecked();
    return m;
}

void ViewControls::applySettings(const QVariantMap& m)
{
    auto intOf = [&](const char* key, QSpinBox* box) {
        if (m.contains(key))
            box->setValue(m.value(key).toInt());
    };
    if (m.contains("colour_by"))
        for (int i = 0; i < kColourByCount; ++i)
            if (m.value("colour_by").toString() == kColourBy[i])
                m_colourBy->setCurrentIndex(i);
    if (m.contains("colour_map") && m_colourMap->findText(m.value("colour_map").toString()) >= 0)
        m_colourMap->setCurrentText(m.value("colour_map").toString());
    intOf("point_size", m_pointSize);
    intOf("grid_2d", m_res2d);
    intOf("grid_3d", m_res3d);
    intOf("margin_percent", m_margin);
    if (m.contains("uncertainty_scale"))
        m_sigmaScale->setValue(m.value("uncertainty_scale").toDouble());
    if (m.contains("opacity_percent"))
        m_opacity->setValue(m.value("opacity_percent").toInt());
    for (const auto& [key, action] : m_layerActions)
        if (m.contains(key))
            action->setChecked(m.value(key).toBool());
    if (m.contains("clusters") && !m_clusterBox->isHidden())
        m_clusterSpin->setValue(m.value("clusters").toInt());
    if (m.contains("field_component") && m.value("field_component").toInt() + 1 < m_component->count())
        m_component->setCurrentIndex(std::max(0, m.value("field_component").toInt() + 1));
    {
        // The numbers first, then the mode (switching to manual would otherwise take the shown range).
        QSignalBlocker b1(m_range), b2(m_percentile), b3(m_lo), b4(m_hi), b5(m_log);
        if (m.contains("colour_percentile"))
            m_percentile->setValue(m.value("colour_percentile").toDouble());
        if (m.contains("colour_lo"))
            m_lo->setValue(m.value("colour_lo").toDouble());
        if (m.contains("colour_hi"))
            m_hi->setValue(m.value("colour_hi").toDouble());
        if (m.contains("colour_log"))
            m_log->setChecked(m.value("colour_log").toBool());
        for (int i = 0; i < 5; ++i)
            if (m.value("colour_range").toString() == kRange[i])
                m_range->setCurrentIndex(i);
    }
    if (m.contains("colour_range") || m.contains("colour_log"))
        applyColourRange();
    if (m.contains("reconstruction") && m_reconstruction->isEnabled())
        m_reconstruction->setChecked(m.value("reconstruction").toBool());
}

} // namespace olens
