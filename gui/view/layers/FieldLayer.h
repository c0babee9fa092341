#pragma once
// The sampled score field: in 2D a translucent score image under the points, thin grey contour
// lines at the training scores' quartiles and 90 %, and the decision threshold as a thick black
// line; in 3D the iso-surface of the score at the threshold (adjustable opacity).
#include "view/layers/ViewLayer.h"

#include <vtkNew.h>
#include <vtkType.h>
#include <vtkSmartPointer.h>

class vtkActor;
class vtkImageActor;
class vtkImageData;
class vtkImageMapToColors;
class vtkPolyData;

namespace olens {

class FieldLayer : public ViewLayer {
public:
    explicit FieldLayer(const PointColouring* colouring);
    ~FieldLayer() override;
    void attach(vtkRenderer* scene, vtkRenderer* overlay) override;
    void update(const ViewContext& ctx, unsigned changes) override;

    /// Polyline cells of the threshold contour (2D) / triangles of the iso-surface (3D).
    vtkIdType thresholdCells() const;

private:
    void drawField(const ViewContext& ctx);
    void drawThreshold(const ViewContext& ctx);
    void applyVisibility(const ViewContext& ctx);

    vtkRenderer* m_scene = nullptr;
    vtkSmartPointer<vtkImageData> m_scoreImage;
    vtkNew<vtkImageMapToColors> m_imageColours;
    vtkNew<vtkImageActor> m_image;
    vtkSmartPointer<vtkActor> m_contours;   // quantile levels, thin grey
    vtkSmartPointer<vtkActor> m_threshold;  // decision threshold, emphasised
    vtkSmartPointer<vtkPolyData> m_thresholdPoly;
};

} // namespace olens
