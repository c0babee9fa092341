#pragma once
// Small classes that carry out menu actions (ParaView's "reactions"): the window stays thin.
#include "shell/Reaction.h"

#include <QObject>

class QAction;
class QImage;

namespace olens {

class BackgroundOpen;
class DataDocument;
class CompareReaction;
class UnsavedChanges;

/// File → Open: asks (after the unsaved-changes question) for a file and reads it on the executor.
class OpenDataReaction : public Reaction {
    Q_OBJECT
public:
    OpenDataReaction(QAction* action, const ReactionContext& context, BackgroundOpen* opener, UnsavedChanges* unsaved);
    static QString fileFilter();
    /// The open-file dialog for a data file (titled `title`), starting in the folder of the last data
    /// file chosen, which it then remembers (QSettings "lastDataDir"); "" when cancelled.
    static QString askDataFile(QWidget* parent, const QString& title, const QString& filter = fileFilter());

private:
    void onTriggered() override;
    BackgroundOpen* m_opener;
    UnsavedChanges* m_unsaved;
};

/// File → Save screenshot: the central view (its framebuffer) or the whole window, as PNG.
class ScreenshotReaction : public Reaction {
    Q_OBJECT
public:
    enum class Target { View, Window };
    /// `compare`: in compare mode the view's screenshot is the compare figure.
    ScreenshotReaction(QAction* action, const ReactionContext& context, CompareReaction* compare, Target target);
    /// Writes the screenshot; returns an error message or an empty string.
    static QString save(const ReactionContext& context, const CompareReaction* compare, Target target, const QString& path);
    /// Writes an image already captured (e.g. VtkView::captureNextFrame) as the PNG `path`.
    /// `inputs`: files the image must not replace (the loaded data: AtomicWriter refuses the same file).
    static QString saveImage(const QImage& img, const QString& path, const QStringList& inputs = {});
    /// The files no output of the window may replace: the data file it shows.
    static QStringList inputsOf(const DataDocument* document);

private:
    void onTriggered() override;
    CompareReaction* m_compare;
    Target m_target;
};

/// File → Export scores CSV (the CLI's columns) / fitted model JSON; writes are atomic.
class ExportReaction : public Reaction {
    Q_OBJECT
public:
    enum class What { Scores, Model };
    ExportReaction(QAction* action, const ReactionContext& context, What what);
    /// Writes the export of the document's result; returns an error message or an empty string.
    static QString save(const DataDocument* doc, What what, const QString& path);

private:
    void onTriggered() override;
    bool isEnabledNow() const override;
    What m_what;
};

} // namespace olens
