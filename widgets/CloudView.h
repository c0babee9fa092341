#pragma once
// The central point-cloud view: shows the document's data (2D for p<=2, 3D for p=3, the first
// three PCA axes for p>3 with an on-screen note), coloured by label, with axes and a legend.
#include "VtkView.h"

#include <Eigen/Dense>
#include <QColor>
#include <vtkNew.h>

class vtkActor;
class vtkCubeAxesActor;
class vtkLegendBoxActor;
class vtkPolyData;
class vtkTextActor;

namespace olens {

class DataDocument;

class CloudView : public VtkView {
    Q_OBJECT
public:
    explicit CloudView(DataDocument* document, QWidget* parent = nullptr);
    ~CloudView() override;

    /// n×3 display coordinates of the samples (z = 0 in 2D).
    const Eigen::MatrixX3d& displayPoints() const { return m_display; }
    /// Colour used for a label value (inliers 0, outliers 1, other class ids from a palette),
    /// or for unlabelled data when label is NaN.
    static QColor colourFor(double label);
    /// Text of the projection note (empty when the data are shown as they are).
    QString projectionNote() const { return m_note; }

    void setPointSize(double pixels);

public slots:
    void rebuild();
    void showSelection(int index);

private:
    void onHover(int index, QPoint globalPos);
    QString describePoint(int index) const;

    DataDocument* m_doc;
    Eigen::MatrixX3d m_display;
    QString m_note;
    vtkNew<vtkPolyData> m_poly;
    vtkNew<vtkActor> m_points;
    vtkNew<vtkPolyData> m_selPoly;
    vtkNew<vtkActor> m_selection;
    vtkNew<vtkCubeAxesActor> m_axes;
    vtkNew<vtkLegendBoxActor> m_legend;
    vtkNew<vtkTextActor> m_noteActor;
};

} // namespace olens
