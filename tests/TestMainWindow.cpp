#include <QtTest>
class TestMainWindow : public QObject { Q_OBJECT };
QTEST_APPLESS_MAIN(TestMainWindow)
#include "TestMainWindow.moc"
