#pragma once
// Shared set-up for GUI tests: the OpenGL surface format VTK needs, set before QApplication.
#include <QColor>
#include <QElapsedTimer>
#include <QTimer>
#include <QSurfaceFormat>
#include <QApplication>
#include <QTemporaryDir>
#include <QTest>
#include <QWidget>
#include <algorithm>
#include <cstdlib>
#include <QtGlobal>

namespace olens::test {

inline void prepareOpenGL()
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "xcb");
    QSurfaceFormat fmt;
    fmt.setRenderableType(QSurfaceFormat::OpenGL);
    fmt.setVersion(3, 2);
    fmt.setProfile(QSurfaceFormat::CoreProfile);
    fmt.setDepthBufferSize(24);
    fmt.setAlphaBufferSize(8);
    QSurfaceFormat::setDefaultFormat(fmt);
}

/// Distance between two colours (max channel difference).
inline int colourDistance(QRgb a, QRgb b)
{
    return std::max({std::abs(qRed(a) - qRed(b)), std::abs(qGreen(a) - qGreen(b)), std::abs(qBlue(a) - qBlue(b))});
}

/// Measures how long the GUI thread's event loop goes without running: a 10 ms timer records the
/// worst gap between its ticks (a blocked loop delivers at most one tick however long it is
/// blocked: timer events coalesce), and how many ticks came.
class GuiGapMeter {
public:
    GuiGapMeter()
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(10);
        QObject::connect(&m_timer, &QTimer::timeout, [this] {
            const qint64 now = m_clock.elapsed();
            if (m_last >= 0)
                m_worst = std::max(m_worst, now - m_last);
            m_last = now;
            ++m_ticks;
        });
    }
    void start()
    {
        m_clock.start();
        m_timer.start();
    }
    void stop() { m_timer.stop(); }
    qint64 worstGapMs() const { return m_worst; }
    int ticks() const { return m_ticks; }
    qint64 elapsedMs() const { return m_clock.elapsed(); }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = -1, m_worst = 0;
    int m_ticks = 0;
};

/// Shows a window and waits until it is exposed and active (window shortcuts need the active
/// window). QVERIFY inside: call it from a test function.
inline void activate(QWidget& w)
{
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.activateWindow();
    QApplication::setActiveWindow(&w);
    QVERIFY(QTest::qWaitForWindowActive(&w));
}

} // namespace olens::test

/// QTEST_MAIN for GUI tests that need a desktop OpenGL context.
#define OLENS_GUI_TEST_MAIN(TestClass)                 \
    int main(int argc, char** argv)                    \
    {                                                  \
        olens::test::prepareOpenGL();                  \
        QTemporaryDir stateDir; /* autosave/lock */    \
        if (qEnvironmentVariableIsEmpty("OLENS_STATE_DIR")) \
            qputenv("OLENS_STATE_DIR", stateDir.path().toUtf8()); \
        /* QSettings (recent files, import roles) of the test and of the app it starts: never the user's */ \
        QTemporaryDir configDir;                       \
        qputenv("XDG_CONFIG_HOME", configDir.path().toUtf8()); \
        QApplication app(argc, argv);                  \
        TestClass tc;                                  \
        return QTest::qExec(&tc, argc, argv);          \
    }
