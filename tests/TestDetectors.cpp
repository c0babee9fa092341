#include <QtTest>
class TestDetectors : public QObject { Q_OBJECT };
QTEST_APPLESS_MAIN(TestDetectors)
#include "TestDetectors.moc"
