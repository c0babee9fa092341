#include <QtTest>
class TestCli : public QObject { Q_OBJECT };
QTEST_APPLESS_MAIN(TestCli)
#include "TestCli.moc"
