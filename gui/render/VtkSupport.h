#pragma once
// Small VTK building blocks shared by the view's layers.
#include "display/Grid.h"

#include <Eigen/Core>
#include <QColor>
#include <array>
#include <string>
#include <vector>
#include <vtkSmartPointer.h>

class vtkActor;
class vtkImageData;
class vtkPolyData;
class vtkRenderer;
class vtkTextActor;
class vtkTextProperty;
class vtkViewport;

class QWidget;

class vtkPoints;

namespace olens {

/// One vertex cell per row (display coordinates). A new object: take it with ShallowCopy (a deep
/// copy held two copies of a 20 M-row cloud at once).
vtkSmartPointer<vtkPolyData> vertexCloud(const Eigen::Ref<const Eigen::MatrixX3d>& P);
/// The same over P's own columns, not a copy (VTK reads them as a structure of arrays): 24 bytes a
/// point less, 480 MB at 20 M rows (issue #54). P must outlive the result and keep its buffer: after
/// P is assigned anew (a move swaps its buffer), take sharedPoints(P) again before VTK draws.
vtkSmartPointer<vtkPolyData> sharedVertexCloud(const Eigen::Ref<const Eigen::MatrixX3d>& P);
vtkSmartPointer<vtkPoints> sharedPoints(const Eigen::Ref<const Eigen::MatrixX3d>& P);
/// View → Text size: every text the views draw (axes, ticks, legends, colour bars, notes) is
/// `base` pixels × the user's scale × the screen's device pixel ratio (VTK sizes text in device
/// pixels: without the ratio, text shrinks as QT_SCALE_FACTOR grows). One setting for all views.
constexpr double kMinTextScale = 0.5;
constexpr double kMaxTextScale = 4.0;
void setTextScale(double userScale, double devicePixelRatio);
double textScale(); ///< the user's scale (1 = default)
/// A widget's font at the text size: its first font × textScale() (the first font is remembered in
/// the widget's "olensBaseFontPt" property, so applying again does not compound).
void scaleWidgetFont(QWidget* w);
/// Records a widget's first font (as scaleWidgetFont does) without changing it. A parent and its
/// children are all recorded before any is scaled: a child recorded after its parent was scaled
/// took the scaled font as its first and was scaled twice (2.4× text at a 1.56 setting).
void rememberWidgetFont(QWidget* w);
/// The widget property that makes View → Text size reach a widget and its children.
constexpr const char* kScalesWithTextProperty = "olensScalesWithText";
/// A base size in pixels as drawn now.
int fontPx(int base);
/// The view's text style: dark grey Arial of `size` (a base size, fontPx), no shadow, bold or italics.
void styleText(vtkTextProperty* t, int size);
/// Width and height in pixels of a text set in this style, unrotated.
std::array<double, 2> textSize(vtkTextProperty* p, const std::string& s, int dpi = 72);
/// Moves a text actor by whole pixels so that its box lies inside [0, w] × [0, h] of the viewport.
void keepInside(vtkTextActor* a, vtkViewport* vp, double w, double h);
/// A text actor's box [xmin, xmax, ymin, ymax] in viewport pixels.
std::array<double, 4> textBox(vtkTextActor* a, vtkViewport* vp);
/// Grid values as image data (2D grids at height zOffset).
vtkSmartPointer<vtkImageData> makeImage(const GridSpec& g, const Eigen::VectorXd& values, double zOffset);
/// Iso-lines (surface = false) or iso-surfaces with normals (surface = true) at the levels.
vtkSmartPointer<vtkPolyData> contourOf(vtkImageData* img, const std::vector<double>& levels, bool surface);
/// An unpickable actor drawing the poly data in one colour.
vtkSmartPointer<vtkActor> polyActor(vtkPolyData* poly, const QColor& c, double width, double opacity);
/// Removes the actors from the renderer and clears the list.
void removeActors(vtkRenderer* renderer, std::vector<vtkSmartPointer<vtkActor>>& actors);

} // namespace olens
