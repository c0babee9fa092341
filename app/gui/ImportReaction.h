#pragma once
// File → Import data with column roles…: pick a text data file, preview it and choose each
// column's role (ImportDialog), then load it; the roles are remembered for that file.
#include <QObject>

class QAction;

namespace olens {

class MainWindow;

class ImportReaction : public QObject {
    Q_OBJECT
public:
    ImportReaction(QAction* action, MainWindow* window);

private:
    void onTriggered();
    MainWindow* m_window;
};

} // namespace olens
