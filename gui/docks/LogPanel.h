#pragma once
// The Log dock: timestamped messages (info, warnings, errors), newest at the bottom.
#include <QPlainTextEdit>

namespace olens {

class LogPanel : public QPlainTextEdit {
    Q_OBJECT
public:
    enum class Level { Info, Warning, Error };
    explicit LogPanel(QWidget* parent = nullptr);

public slots:
    void info(const QString& text) { append(Level::Info, text); }
    void warning(const QString& text) { append(Level::Warning, text); }
    void error(const QString& text) { append(Level::Error, text); }
    void append(Level level, const QString& text);
};

} // namespace olens
