#include "docks/LessonCaption.h"

#include "document/DataDocument.h"

namespace olens {

LessonCaption::LessonCaption(DataDocument* document, QWidget* parent) : QLabel(parent), m_doc(document)
{
    setObjectName(QStringLiteral("LessonCaption"));
    setWordWrap(true);
    setTextFormat(Qt::RichText);
    setContentsMargins(8, 4, 8, 4);
    setStyleSheet(QStringLiteral("#LessonCaption { background: #fff8dc; border-bottom: 1px solid #d8c890; }"));
    setVisible(false);
    connect(m_doc, &DataDocument::datasetChanged, this, [this] {
        if (m_doc->filePath() != m_path && !m_doc->changeIsEdit())
            setVisible(false);
    });
}

void LessonCaption::setLesson(const QString& title, const QString& text)
{
    m_path = m_doc->filePath();
    m_text = text;
    setText(QStringLiteral("<b>%1.</b> %2").arg(title.toHtmlEscaped(), text.toHtmlEscaped()));
    setToolTip(tr("What this preset shows; it stays while the preset's data are loaded"));
    setVisible(!text.isEmpty());
}

} // namespace olens
