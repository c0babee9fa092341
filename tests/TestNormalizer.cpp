#include <QtTest>
class TestNormalizer : public QObject { Q_OBJECT };
QTEST_APPLESS_MAIN(TestNormalizer)
#include "TestNormalizer.moc"
