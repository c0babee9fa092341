#pragma once
// File → Export figure…: what to export (the view or one of the plots), the format (PNG, or SVG
// for the plots), the size (the view: width × height in pixels) or scale (plots: 1×–8×, sharp
// text) and a transparent background — the choices of a figure meant for a slide.
#include <QDialog>
#include <QSize>
#include <QStringList>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace olens {

struct FigureOptions {
    int target = 0;          ///< index into the dialog's targets (0 = the view)
    QString format = "png";  ///< png; svg (plots); pdf (plots: QPdfWriter; the view: VTK's GL2PS)
    QSize size;              ///< the figure's size in pixels (the view rendered, a plot laid out at it); invalid = as shown
    double scale = 2.0;      ///< plots' PNG: drawn this many times as large (sharper, same layout)
    bool transparent = false;
    double textScale = 0.0;  ///< its text size (View → Text size) for this export; 0 = as shown
};

class FigureExportDialog : public QDialog {
    Q_OBJECT
public:
    /// `targets`: display names, the view first; `viewSize` its current size (the default).
    FigureExportDialog(const QStringList& targets, QSize viewSize, QWidget* parent = nullptr);

    FigureOptions options() const;
    /// The view's text size to start from (the one shown).
    void setTextScale(double scale);
    /// The file name suffix the options call for (png, svg or pdf).
    QString suffix() const;

private:
    void updateState();
    void remember() const; // the choices, for the next export (QSettings figure/…)
    static constexpr const char* kWidthKey = "figure/width";
    static constexpr const char* kHeightKey = "figure/height";
    static constexpr const char* kScaleKey = "figure/scale";
    static constexpr const char* kTextKey = "figure/text_scale";
    static constexpr const char* kFormatKey = "figure/format";
    static constexpr const char* kTransparentKey = "figure/transparent";
    QComboBox* m_target;
    QComboBox* m_format;
    QSpinBox* m_width;
    QSpinBox* m_height;
    QDoubleSpinBox* m_scale;
    QDoubleSpinBox* m_text;
    QLabel* m_textLabel;
    QCheckBox* m_transparent;
    QLabel* m_sizeLabel;
    QLabel* m_scaleLabel;
};

} // namespace olens
