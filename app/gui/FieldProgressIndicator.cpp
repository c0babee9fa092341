#include "FieldProgressIndicator.h"

#include "CloudView.h"

#include <algorithm>
#include <cmath>

namespace olens {

FieldProgressIndicator::FieldProgressIndicator(CloudView* view, QWidget* parent) : QProgressBar(parent)
{
    setObjectName("fieldProgress");
    setRange(0, 100);
    setValue(0);
    setFormat(tr("score field %p %"));
    setMaximumWidth(180);
    setToolTip(tr("The score field (image, contours, iso-surface) is computed in the background; "
                  "a newer request (view change, retraining) replaces it."));
    hide();
    connect(view, &CloudView::fieldBusyChanged, this, [this](bool busy) {
        setValue(0);
        setVisible(busy);
    });
    connect(view, &CloudView::fieldProgress, this,
            [this](double f) { setValue(static_cast<int>(std::lround(100.0 * std::clamp(f, 0.0, 1.0)))); });
}

} // namespace olens
