#include "CloudView.h"

#include "DataDocument.h"
#include "Pca.h"

#include <QToolTip>

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkCubeAxesActor.h>
#include <vtkLegendBoxActor.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkProperty2D.h>
#include <vtkRegularPolygonSource.h>
#include <vtkRenderer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkUnsignedCharArray.h>

#include <map>

namespace olens {

namespace {
vtkSmartPointer<vtkPolyData> vertexCloud(const Eigen::MatrixX3d& P)
{
    auto poly = vtkSmartPointer<vtkPolyData>::New();
    vtkNew<vtkPoints> pts;
    pts->SetDataTypeToDouble();
    pts->SetNumberOfPoints(P.rows());
    vtkNew<vtkCellArray> verts;
    verts->AllocateExact(P.rows(), P.rows());
    for (Eigen::Index i = 0; i < P.rows(); ++i) {
        pts->SetPoint(i, P(i, 0), P(i, 1), P(i, 2));
        const vtkIdType id = i;
        verts->InsertNextCell(1, &id);
    }
    poly->SetPoints(pts);
    poly->SetVerts(verts);
    return poly;
}

void styleText(vtkTextProperty* t, int size)
{
    t->SetColor(0.1, 0.1, 0.1);
    t->SetFontSize(size);
    t->SetFontFamilyToArial();
    t->ShadowOff();
    t->BoldOff();
    t->ItalicOff();
}
} // namespace

CloudView::CloudView(DataDocument* document, QWidget* parent) : VtkView(parent), m_doc(document)
{
    vtkNew<vtkPolyDataMapper> mapper;
    mapper->SetInputData(m_poly);
    mapper->SetScalarModeToUsePointData();
    mapper->SetColorModeToDirectScalars();
    m_points->SetMapper(mapper);
    m_points->GetProperty()->SetRepresentationToPoints();
    m_points->GetProperty()->RenderPointsAsSpheresOn();
    m_points->GetProperty()->SetPointSize(9);
    m_points->GetProperty()->LightingOff();

    vtkNew<vtkPolyDataMapper> selMapper;
    selMapper->SetInputData(m_selPoly);
    selMapper->ScalarVisibilityOff();
    m_selection->SetMapper(selMapper);
    m_selection->GetProperty()->SetRepresentationToPoints();
    m_selection->GetProperty()->RenderPointsAsSpheresOn();
    m_selection->GetProperty()->SetPointSize(17);
    m_selection->GetProperty()->SetColor(1.0, 0.75, 0.0);
    m_selection->PickableOff();
    m_selection->VisibilityOff();

    m_axes->SetCamera(renderer()->GetActiveCamera());
    m_axes->SetGridLineLocation(vtkCubeAxesActor::VTK_GRID_LINES_FURTHEST);
    m_axes->SetFlyModeToOuterEdges();
    m_axes->SetScreenSize(11.0);
    m_axes->SetLabelOffset(12.0);
    m_axes->SetTitleOffset(14.0);
    for (int i = 0; i < 3; ++i) {
        m_axes->GetTitleTextProperty(i)->SetColor(0.15, 0.15, 0.15);
        m_axes->GetLabelTextProperty(i)->SetColor(0.15, 0.15, 0.15);
    }
    m_axes->GetXAxesLinesProperty()->SetColor(0.3, 0.3, 0.3);
    m_axes->GetYAxesLinesProperty()->SetColor(0.3, 0.3, 0.3);
    m_axes->GetZAxesLinesProperty()->SetColor(0.3, 0.3, 0.3);
    m_axes->PickableOff();

    m_legend->SetNumberOfEntries(0);
    m_legend->BorderOn();
    m_legend->BoxOn();
    m_legend->GetBoxProperty()->SetColor(1, 1, 1);
    m_legend->SetBackgroundColor(1, 1, 1);
    m_legend->SetBackgroundOpacity(0.85);
    m_legend->UseBackgroundOn();
    m_legend->GetEntryTextProperty()->SetColor(0.1, 0.1, 0.1);
    m_legend->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
    m_legend->GetPosition2Coordinate()->SetCoordinateSystemToNormalizedViewport();
    m_legend->PickableOff();

    styleText(m_noteActor->GetTextProperty(), 14);
    m_noteActor->SetDisplayPosition(10, 10);

    renderer()->AddActor(m_points);
    renderer()->AddActor(m_selection);
    renderer()->AddActor(m_axes);
    renderer()->AddActor2D(m_legend);
    renderer()->AddActor2D(m_noteActor);
    setPickTarget(m_points);

    connect(m_doc, &DataDocument::datasetChanged, this, &CloudView::rebuild);
    connect(m_doc, &DataDocument::selectionChanged, this, &CloudView::showSelection);
    connect(this, &VtkView::pointPicked, m_doc, &DataDocument::setSelectedPoint);
    connect(this, &VtkView::pointHovered, this, &CloudView::onHover);
    rebuild();
}

CloudView::~CloudView() = default;

QColor CloudView::colourFor(double label)
{
    if (std::isnan(label))
        return QColor(40, 110, 180); // unlabelled: one calm blue
    if (label == 0.0)
        return QColor(70, 130, 180);  // inlier
    if (label == 1.0)
        return QColor(220, 50, 40);   // outlier
    // Other class ids: a qualitative palette (Tableau-like), cycling.
    static const QColor palette[] = {{44, 160, 44}, {148, 103, 189}, {255, 127, 14}, {140, 86, 75},
                                     {227, 119, 194}, {127, 127, 127}, {188, 189, 34}, {23, 190, 207}};
    const long k = std::lround(std::fabs(label));
    return palette[k % 8];
}

void CloudView::setPointSize(double pixels)
{
    m_points->GetProperty()->SetPointSize(static_cast<float>(pixels));
    update();
}

void CloudView::rebuild()
{
    const Dataset& d = m_doc->dataset();
    const Eigen::Index n = d.rows(), p = d.cols();
    m_display.setZero(n, 3);
    m_note.clear();
    std::array<std::string, 3> titles = {"x", "y", "z"};
    bool twoD = true;
    if (n > 0) {
        if (p <= 3) {
            m_display.leftCols(p) = d.X;
            for (Eigen::Index j = 0; j < p; ++j)
                titles[static_cast<std::size_t>(j)] = d.featureNames[static_cast<std::size_t>(j)];
            twoD = p <= 2;
            if (p == 1)
                m_note = tr("1 feature: points shown along the x axis");
        } else {
            const PcaResult r = pca(d.X);
            m_display = pcaProject(r, d.X, 3);
            const double total = r.variances.sum();
            const double shown = r.variances.head(3).sum();
            titles = {"PC1", "PC2", "PC3"};
            twoD = false;
            m_note = tr("PCA projection of %1 features onto PC1-PC3 (%2% of the variance)")
                         .arg(p)
                         .arg(total > 0 ? 100.0 * shown / total : 100.0, 0, 'f', 1);
        }
    }

    m_poly->DeepCopy(vertexCloud(m_display));
    vtkNew<vtkUnsignedCharArray> colours;
    colours->SetName("colours");
    colours->SetNumberOfComponents(3);
    colours->SetNumberOfTuples(n);
    std::map<double, long> counts;
    for (Eigen::Index i = 0; i < n; ++i) {
        const double lab = d.hasLabels() ? d.labels(i) : std::numeric_limits<double>::quiet_NaN();
        const QColor c = colourFor(lab);
        colours->SetTypedTuple(i, std::array<unsigned char, 3>{static_cast<unsigned char>(c.red()),
                                                              static_cast<unsigned char>(c.green()),
                                                              static_cast<unsigned char>(c.blue())}
                                      .data());
        if (d.hasLabels())
            ++counts[lab];
    }
    m_poly->GetPointData()->SetScalars(colours);
    m_poly->Modified();

    // Legend: one entry per label value (or one for unlabelled data).
    vtkNew<vtkRegularPolygonSource> disk;
    disk->SetNumberOfSides(24);
    disk->SetRadius(0.5);
    disk->Update();
    const bool binary = std::all_of(counts.begin(), counts.end(), [](const auto& kv) { return kv.first == 0.0 || kv.first == 1.0; });
    const int entries = d.hasLabels() ? static_cast<int>(std::min<std::size_t>(counts.size(), 12)) : (n > 0 ? 1 : 0);
    m_legend->SetNumberOfEntries(entries);
    if (!d.hasLabels() && n > 0) {
        const QColor c = colourFor(std::numeric_limits<double>::quiet_NaN());
        double rgb[3] = {c.redF(), c.greenF(), c.blueF()};
        m_legend->SetEntry(0, disk->GetOutput(), tr("points (%1)").arg(n).toUtf8().constData(), rgb);
    } else {
        int e = 0;
        for (const auto& [lab, cnt] : counts) {
            if (e >= entries)
                break;
            const QColor c = colourFor(lab);
            double rgb[3] = {c.redF(), c.greenF(), c.blueF()};
            QString text;
            if (binary)
                text = lab == 1.0 ? tr("outlier (%1)").arg(cnt) : tr("inlier (%1)").arg(cnt);
            else {
                const auto k = static_cast<std::size_t>(lab);
                const QString name = (k < d.labelNames.size() && lab >= 0 && lab == std::floor(lab))
                    ? QString::fromStdString(d.labelNames[k])
                    : QString::number(lab);
                text = QString::fromStdString(d.labelName) + " " + name + QStringLiteral(" (%1)").arg(cnt);
            }
            m_legend->SetEntry(e++, disk->GetOutput(), text.toUtf8().constData(), rgb);
        }
    }
    const double legendH = std::min(0.5, 0.045 * std::max(1, entries));
    m_legend->GetPositionCoordinate()->SetValue(0.78, 0.97 - legendH);
    m_legend->GetPosition2Coordinate()->SetValue(0.21, legendH);
    m_legend->SetVisibility(entries > 0);

    // Axes with numbers, titled by feature names.
    double bounds[6] = {0, 1, 0, 1, 0, 0};
    if (n > 0) {
        for (int j = 0; j < 3; ++j) {
            bounds[2 * j] = m_display.col(j).minCoeff();
            bounds[2 * j + 1] = m_display.col(j).maxCoeff();
        }
    }
    m_axes->SetBounds(bounds);
    m_axes->SetXTitle(titles[0].c_str());
    m_axes->SetYTitle(titles[1].c_str());
    m_axes->SetZTitle(titles[2].c_str());
    m_axes->SetZAxisVisibility(!twoD);
    m_axes->SetDrawZGridlines(false);
    // 2D: one x and one y axis with screen-aligned labels; 3D: the outer edges of the data box.
    m_axes->SetUse2DMode(twoD ? 1 : 0);
    m_axes->SetFlyMode(twoD ? vtkCubeAxesActor::VTK_FLY_CLOSEST_TRIAD : vtkCubeAxesActor::VTK_FLY_OUTER_EDGES);
    m_axes->SetVisibility(n > 0);

    m_noteActor->SetInput(m_note.toUtf8().constData());
    m_noteActor->SetVisibility(!m_note.isEmpty());

    setMode(twoD ? Mode::View2D : Mode::View3D);
    if (!twoD) {
        vtkCamera* cam = renderer()->GetActiveCamera();
        cam->SetFocalPoint(0, 0, 0);
        cam->SetPosition(1.0, -1.6, 1.1);
        cam->SetViewUp(0, 0, 1);
    }
    showSelection(m_doc->selectedPoint());
    resetCamera();
}

void CloudView::showSelection(int index)
{
    if (index < 0 || index >= m_display.rows()) {
        m_selection->VisibilityOff();
    } else {
        Eigen::MatrixX3d one = m_display.row(index);
        m_selPoly->DeepCopy(vertexCloud(one));
        m_selection->VisibilityOn();
    }
    update();
}

QString CloudView::describePoint(int index) const
{
    const Dataset& d = m_doc->dataset();
    QString s = tr("point %1").arg(index);
    const Eigen::Index shown = std::min<Eigen::Index>(d.cols(), 6);
    for (Eigen::Index j = 0; j < shown; ++j)
        s += QStringLiteral("\n%1 = %2").arg(QString::fromStdString(d.featureNames[static_cast<std::size_t>(j)]))
                 .arg(d.X(index, j), 0, 'g', 6);
    if (d.cols() > shown)
        s += tr("\n… %1 more features").arg(d.cols() - shown);
    if (d.hasLabels())
        s += QStringLiteral("\n%1 = %2").arg(QString::fromStdString(d.labelName)).arg(d.labels(index));
    return s;
}

void CloudView::onHover(int index, QPoint globalPos)
{
    if (index < 0 || index >= m_display.rows())
        QToolTip::hideText();
    else
        QToolTip::showText(globalPos, describePoint(index), this);
}

} // namespace olens
