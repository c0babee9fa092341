#include "dialogs/FigureExportDialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <algorithm>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>

namespace olens {

FigureExportDialog::FigureExportDialog(const QStringList& targets, QSize viewSize, QWidget* parent)
    : QDialog(parent), m_target(new QComboBox(this)), m_format(new QComboBox(this)), m_width(new QSpinBox(this)),
      m_height(new QSpinBox(this)), m_scale(new QDoubleSpinBox(this)), m_transparent(new QCheckBox(this)),
      m_sizeLabel(new QLabel(tr("Size"), this)), m_scaleLabel(new QLabel(tr("Scale"), this)),
      m_text(new QDoubleSpinBox(this)), m_textLabel(new QLabel(tr("Text size"), this))
{
    setWindowTitle(tr("Export figure"));
    m_target->setObjectName("figureTarget");
    m_target->addItems(targets);
    m_format->setObjectName("figureFormat");
    m_format->addItem(tr("PNG image"), "png");
    m_format->addItem(tr("SVG vector drawing (plots)"), "svg");
    m_format->addItem(tr("PDF"), "pdf");
    m_format->setToolTip(tr("SVG and PDF of a plot keep text as text and lines as vectors; the view's PDF (VTK's "
                            "GL2PS exporter) has vector text and frame over the rendered scene as one image"));
    for (QSpinBox* s : {m_width, m_height}) {
        s->setRange(64, 8192);
        s->setSuffix(tr(" px"));
    }
    m_width->setObjectName("figureWidth");
    m_height->setObjectName("figureHeight");
    m_width->setValue(std::max(64, viewSize.width()));
    m_height->setValue(std::max(64, viewSize.height()));
    m_width->setToolTip(tr("The figure's size: the view rendered at it, a plot laid out at it (PNG pixels; SVG and "
                           "PDF at 96 per inch); text keeps the size below"));
    m_height->setToolTip(m_width->toolTip());
    m_scale->setObjectName("figureScale");
    m_scale->setRange(1.0, 8.0);
    m_scale->setSingleStep(0.5);
    m_scale->setDecimals(1);
    m_scale->setValue(2.0);
    m_scale->setSuffix(QStringLiteral(" ×"));
    m_scale->setToolTip(tr("The plot drawn this many times as large: the same figure with sharper text and lines"));
    m_text->setObjectName("figureTextScale");
    m_text->setRange(0.5, 4.0);
    m_text->setSingleStep(0.25);
    m_text->setDecimals(2);
    m_text->setValue(1.0);
    m_text->setSuffix(QStringLiteral(" ×"));
    m_text->setToolTip(tr("Text of the exported figure (axes, ticks, legend, colour bar, titles) this many times the "
                          "default size: 2 × gives ~22 px tick labels, readable in a 1920 × 1080 figure"));
    m_transparent->setObjectName("figureTransparent");
    m_transparent->setText(tr("Transparent background"));
    m_transparent->setToolTip(tr("PNG with alpha (the view: antialiased edges and translucent surfaces keep their "
                                 "coverage); SVG without the white rectangle"));
    auto* size = new QHBoxLayout;
    size->addWidget(m_width);
    size->addWidget(new QLabel(QStringLiteral("×"), this));
    size->addWidget(m_height);
    auto* form = new QFormLayout;
    form->addRow(tr("Export"), m_target);
    form->addRow(tr("Format"), m_format);
    form->addRow(m_sizeLabel, size);
    form->addRow(m_scaleLabel, m_scale);
    form->addRow(m_textLabel, m_text);
    form->addRow(QString(), m_transparent);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Export…"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);
    connect(m_target, &QComboBox::currentIndexChanged, this, &FigureExportDialog::updateState);
    connect(m_format, &QComboBox::currentIndexChanged, this, &FigureExportDialog::updateState);
    // The last export's choices (a series of slides shares them): they reset every time before.
    const QSettings settings;
    if (settings.contains(kWidthKey)) {
        m_width->setValue(settings.value(kWidthKey).toInt());
        m_height->setValue(settings.value(kHeightKey).toInt());
    }
    if (settings.contains(kScaleKey))
        m_scale->setValue(settings.value(kScaleKey).toDouble());
    if (settings.contains(kFormatKey) && m_format->findData(settings.value(kFormatKey)) >= 0)
        m_format->setCurrentIndex(m_format->findData(settings.value(kFormatKey)));
    m_transparent->setChecked(settings.value(kTransparentKey, false).toBool());
    connect(this, &QDialog::accepted, this, &FigureExportDialog::remember);
    updateState();
}

void FigureExportDialog::remember() const
{
    QSettings settings;
    settings.setValue(kWidthKey, m_width->value());
    settings.setValue(kHeightKey, m_height->value());
    settings.setValue(kScaleKey, m_scale->value());
    settings.setValue(kTextKey, m_text->value());
    settings.setValue(kFormatKey, m_format->currentData());
    settings.setValue(kTransparentKey, m_transparent->isChecked());
}

void FigureExportDialog::updateState()
{
    // The view: PNG at a size, or SVG; plots: PNG at a scale, or SVG.
    const bool view = m_target->currentIndex() == 0;
    if (view && m_format->currentData().toString() == "svg")
        m_format->setCurrentIndex(m_format->findData("pdf"));
    if (auto* model = qobject_cast<QStandardItemModel*>(m_format->model()))
        model->item(m_format->findData("svg"))->setEnabled(!view);
    // A size and a text size for every figure (the view's PDF too: its page is the size asked);
    // a plot's PNG may also be drawn larger than its size for sharpness.
    const bool png = m_format->currentData().toString() == "png";
    m_scale->setVisible(!view && png);
    m_scaleLabel->setVisible(!view && png);
}

void FigureExportDialog::setTextScale(double scale)
{
    // The one last exported with, else the view's own.
    m_text->setValue(QSettings().value(kTextKey, scale).toDouble());
}

FigureOptions FigureExportDialog::options() const
{
    FigureOptions o;
    o.target = m_target->currentIndex();
    o.format = m_format->currentData().toString();
    o.size = QSize(m_width->value(), m_height->value());
    o.scale = m_scale->value();
    o.transparent = m_transparent->isChecked();
    o.textScale = m_text->value();
    return o;
}

QString FigureExportDialog::suffix() const
{
    return options().format;
}

} // namespace olens
