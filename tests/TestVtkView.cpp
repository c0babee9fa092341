#include <QtTest>
class TestVtkView : public QObject { Q_OBJECT };
QTEST_APPLESS_MAIN(TestVtkView)
#include "TestVtkView.moc"
