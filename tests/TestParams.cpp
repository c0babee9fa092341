#include <QtTest>
class TestParams : public QObject { Q_OBJECT };
QTEST_APPLESS_MAIN(TestParams)
#include "TestParams.moc"
