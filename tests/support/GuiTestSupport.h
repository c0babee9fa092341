#pragma once
// Shared set-up for GUI tests: the OpenGL surface format VTK needs, set before QApplication; and
// the helpers that let a GUI test wait for a state instead of sleeping (issue #50: GUI tests that
// cannot flake on a loaded machine).
#include <QAction>
#include <QColor>
#include <QElapsedTimer>
#include <QImage>
#include <QKeyEvent>
#include <QKeySequence>
#include <QRect>
#include <QString>
#include <QTimer>
#include <QSurfaceFormat>
#include <QApplication>
#include <QTemporaryDir>
#include <QTest>
#include <QWidget>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <vector>
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

/// Shows a window, waits until it is exposed, and asks for it to be the active window. Exposure is
/// required; activation is best effort: the GUI tests share one X server without a window manager
/// under `ctest -j2`, and another test's window may hold the focus for a minute (a fresh-clone run
/// failed TestFigures that way twice). No test depends on it: window shortcuts are reached with
/// QAction::trigger, and the few key clicks go to the widget that handles the key.
inline void activate(QWidget& w)
{
    constexpr int kExposedMs = 60000;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w, kExposedMs));
    w.activateWindow();
    QApplication::setActiveWindow(&w);
    (void)QTest::qWaitForWindowActive(&w, 2000);
}

/// A file of the repository's samples/ folder.
inline QString sample(const char* name)
{
    return QStringLiteral(OLENS_SOURCE_DIR "/samples/") + name;
}

/// Where point `index` of a view (a CloudView: displayPoints, worldToWidget and a widget size)
/// lands in an image grabbed from it (device pixels).
template <class View>
QPoint devicePixel(View& view, int index, const QImage& img)
{
    const auto& P = view.displayPoints();
    const QPointF w = view.worldToWidget(P(index, 0), P(index, 1), P(index, 2));
    const double sx = double(img.width()) / view.width();
    const double sy = double(img.height()) / view.height();
    return QPoint(int(std::lround(w.x() * sx)), int(std::lround(w.y() * sy)));
}

/// Pixels of `img` in the square of half-width `radius` around `centre` that are the selection's
/// magenta (SelectionLayer::kColour, 235 0 170, antialiased): a ring drawn there.
inline int selectionPixelsNear(const QImage& img, QPoint centre, int radius)
{
    int n = 0;
    for (int dy = -radius; dy <= radius; ++dy)
        for (int dx = -radius; dx <= radius; ++dx) {
            const QPoint q = centre + QPoint(dx, dy);
            if (!img.rect().contains(q))
                continue;
            const QRgb c = img.pixel(q);
            n += qRed(c) > 170 && qGreen(c) < 90 && qBlue(c) > 110;
        }
    return n;
}

/// The action among `window`'s children bound to `keys`, or null. Tests fire a window shortcut
/// with QAction::trigger() and check the binding with QAction::shortcut(): a key click reaches a
/// window shortcut only while the window is active, which a loaded machine (or another test's
/// window on the same X server) can take away at any moment.
inline QAction* actionWithShortcut(const QWidget& window, const QKeySequence& keys)
{
    for (QAction* a : window.findChildren<QAction*>())
        if (a->shortcuts().contains(keys))
            return a;
    return nullptr;
}

/// Whether `focus` lets the window shortcut `keys` through: Qt first offers the key to the focus
/// widget (and its parents) as a ShortcutOverride event, and one that accepts it keeps the key
/// (a line edit keeps plain letters). True when none does, i.e. the shortcut fires with the focus
/// there. Needs no active window.
inline bool passesShortcut(QWidget* focus, const QKeySequence& keys)
{
    const QKeyCombination k = keys[0];
    const Qt::KeyboardModifiers mods = k.keyboardModifiers();
    QString text;
    if (!(mods & ~Qt::ShiftModifier) && k.key() < Qt::Key_Escape)
        text = QChar(int(k.key())).toLower();
    QKeyEvent e(QEvent::ShortcutOverride, int(k.key()), mods, text);
    QCoreApplication::sendEvent(focus, &e);
    return !e.isAccepted();
}

/// Delivers every call and event queued so far in the GUI thread (zero-delay timers such as a
/// window's first dock layout, queued signals, posted layout requests): a zero-delay call queued
/// now on `context` runs after all of them. False when it did not run within `timeoutMs`.
inline bool processQueued(QObject* context, int timeoutMs = 20000)
{
    auto ran = std::make_shared<bool>(false);
    QTimer::singleShot(0, context, [ran] { *ran = true; });
    return QTest::qWaitFor([&] { return *ran; }, timeoutMs);
}

/// Delivers what is queued until a whole round of it moves, resizes, shows or hides no widget of
/// `window` (a layout pass posts further ones): the layout a user sees. False on timeout.
inline bool settleLayout(QWidget& window, int timeoutMs = 20000)
{
    auto geometry = [&window] {
        std::vector<QRect> g;
        for (QWidget* c : window.findChildren<QWidget*>())
            g.push_back(c->isVisible() ? QRect(c->mapTo(&window, QPoint(0, 0)), c->size()) : QRect());
        g.push_back(window.geometry());
        return g;
    };
    QElapsedTimer clock;
    clock.start();
    for (;;) {
        const auto before = geometry();
        if (!processQueued(&window, timeoutMs))
            return false;
        if (geometry() == before)
            return true;
        if (clock.elapsed() > timeoutMs)
            return false;
    }
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
