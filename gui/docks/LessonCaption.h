#pragma once
// The caption of a teaching preset, above the view: what to look at and the paper's equation or
// figure it illustrates. Shown while the preset's data are loaded; other data hide it.
#include <QLabel>

namespace olens {

class DataDocument;

class LessonCaption : public QLabel {
    Q_OBJECT
public:
    explicit LessonCaption(DataDocument* document, QWidget* parent = nullptr);
    /// Shows `text` for the data now loaded (a preset's); it stays until other data are loaded.
    void setLesson(const QString& title, const QString& text);
    QString lessonText() const { return m_text; }

private:
    DataDocument* m_doc;
    QString m_path; // the document's file path the caption belongs to
    QString m_text;
};

} // namespace olens
