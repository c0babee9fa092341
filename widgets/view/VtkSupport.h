#pragma once
// Small VTK building blocks shared by the view's layers.
#include "display/Grid.h"

#include <Eigen/Dense>
#include <QColor>
#include <vector>
#include <vtkSmartPointer.h>

class vtkActor;
class vtkImageData;
class vtkPolyData;
class vtkRenderer;
class vtkTextProperty;

namespace olens {

/// One vertex cell per row (display coordinates).
vtkSmartPointer<vtkPolyData> vertexCloud(const Eigen::MatrixX3d& P);
/// The view's text style: dark grey Arial of this size, no shadow, bold or italics.
void styleText(vtkTextProperty* t, int size);
/// Grid values as image data (2D grids at height zOffset).
vtkSmartPointer<vtkImageData> makeImage(const GridSpec& g, const Eigen::VectorXd& values, double zOffset);
/// Iso-lines (surface = false) or iso-surfaces with normals (surface = true) at the levels.
vtkSmartPointer<vtkPolyData> contourOf(vtkImageData* img, const std::vector<double>& levels, bool surface);
/// An unpickable actor drawing the poly data in one colour.
vtkSmartPointer<vtkActor> polyActor(vtkPolyData* poly, const QColor& c, double width, double opacity);
/// Removes the actors from the renderer and clears the list.
void removeActors(vtkRenderer* renderer, std::vector<vtkSmartPointer<vtkActor>>& actors);

} // namespace olens
