#pragma once
// The status bar's indicator for the score field that is computed in the background after a
// training or a view change (issue: a KIC field on 3 000 points arrived 20–60 s after "trained,
// 100 %" with nothing on screen). Visible only while a field is being computed.
#include <QProgressBar>

namespace olens {

class CloudView;

class FieldProgressIndicator : public QProgressBar {
    Q_OBJECT
public:
    FieldProgressIndicator(CloudView* view, QWidget* parent = nullptr);
};

} // namespace olens
