#pragma once
// What a newcomer sees before any data: instead of an empty white view, a welcome page with
// Open / Import / New data / Open session, the recent files, and the papers' presets as a
// gallery (a thumbnail and a line on what each teaches). It gives way to the view as soon as
// data are loaded, and comes back when the data are closed.
#include "shell/ReactionContext.h"

#include <QWidget>

class QListWidget;

namespace olens {

class PresetsReaction;
class RecentFilesMenu;

class StartPage : public QWidget {
    Q_OBJECT
public:
    /// Covers `parent` (the view's frame) while the window has no data.
    /// Its buttons trigger the window's actions; `recent` lists and opens the recent files, `presets`
    /// applies a gallery entry.
    StartPage(const ReactionContext& context, RecentFilesMenu* recent, const PresetsReaction* presets, QWidget* parent);
    /// The recent files list (for tests).

protected:
    void showEvent(QShowEvent* e) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void fillRecent();
    void updateShown();

    ReactionContext m_context;
    RecentFilesMenu* m_recentFiles;
    const PresetsReaction* m_presets;
    QListWidget* m_recent;
};

} // namespace olens
