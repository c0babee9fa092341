// core/display/ViewPresets: each preset looks along its axis with an orthogonal up vector, and the
// camera sits on the opposite side of the focus.
#include "display/ViewPresets.h"

#include <QtTest>

#include <cmath>

using namespace olens;

class TestViewPresets : public QObject {
    Q_OBJECT
private slots:
    void presetsLookAlongTheirAxis()
    {
        const struct {
            ViewPreset p;
            std::array<double, 3> dir, up;
        } expected[] = {{ViewPreset::PlusX, {1, 0, 0}, {0, 0, 1}},  {ViewPreset::MinusX, {-1, 0, 0}, {0, 0, 1}},
                        {ViewPreset::PlusY, {0, 1, 0}, {0, 0, 1}},  {ViewPreset::MinusY, {0, -1, 0}, {0, 0, 1}},
                        {ViewPreset::PlusZ, {0, 0, 1}, {0, 1, 0}},  {ViewPreset::MinusZ, {0, 0, -1}, {0, 1, 0}}};
        for (const auto& e : expected) {
            const ViewOrientation o = viewOrientation(e.p);
            QCOMPARE(o.direction, e.dir);
            QCOMPARE(o.viewUp, e.up);
        }
    }

    void isometricIsAUnitDiagonalWithZUp()
    {
        const ViewOrientation o = viewOrientation(ViewPreset::Isometric);
        double dot = 0, nd = 0, nu = 0;
        for (int k = 0; k < 3; ++k) {
            QVERIFY(std::abs(o.direction[k] + 1 / std::sqrt(3.0)) < 1e-15);
            dot += o.direction[k] * o.viewUp[k];
            nd += o.direction[k] * o.direction[k];
            nu += o.viewUp[k] * o.viewUp[k];
        }
        QVERIFY(std::abs(dot) < 1e-15);
        QVERIFY(std::abs(nd - 1) < 1e-15);
        QVERIFY(std::abs(nu - 1) < 1e-15);
        QVERIFY(o.viewUp[2] > 0.8); // +Z points up on screen
    }

    void positionIsBehindTheFocus()
    {
        const auto pos = presetPosition(ViewPreset::MinusZ, {1, 2, 3}, 10);
        QCOMPARE(pos, (std::array<double, 3>{1, 2, 13})); // looking down -Z from above
        const auto px = presetPosition(ViewPreset::PlusX, {0, 0, 0}, 2);
        QCOMPARE(px, (std::array<double, 3>{-2, 0, 0}));
        QCOMPARE(QString::fromStdString(viewPresetName(ViewPreset::MinusY)), QStringLiteral("-Y"));
    }
};

QTEST_APPLESS_MAIN(TestViewPresets)
#include "TestViewPresets.moc"
