#pragma once
// Thin main window: owns the document, the central view and the docks; actions delegate to
// small reaction classes (ParaView style).
#include <QMainWindow>

class QLabel;

namespace olens {

class CloudView;
class DataDocument;
class LogPanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    DataDocument* document() const { return m_doc; }
    CloudView* view() const { return m_view; }
    LogPanel* log() const { return m_log; }

    /// Loads a data file; on failure logs the reason, keeps the previous data and returns false.
    bool openFile(const QString& path, QString* error = nullptr);
    /// Interactive use: failures are also shown in a message box.
    void setInteractive(bool on) { m_interactive = on; }

private:
    void buildDocks();
    void buildMenus();
    void updateStatus();

    DataDocument* m_doc;
    CloudView* m_view;
    LogPanel* m_log;
    QLabel* m_status;
    bool m_interactive = true;
};

} // namespace olens
