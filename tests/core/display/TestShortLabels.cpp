// Feature names shortened for the scatter-plot matrix (display/ShortLabels). The width test here
// counts code points, so every expected label is worked out by hand from the rule: whole if it
// fits; else cut the longest word (the last of equals) a letter at a time down to 3; then cut the
// end with "…"; labels that collide for different names keep both ends.
#include "display/ShortLabels.h"

#include <QtTest>

using namespace olens;

namespace {
std::function<bool(const std::string&)> atMost(int n)
{
    return [n](const std::string& s) { return QString::fromStdString(s).toUcs4().size() <= n; };
}
} // namespace

class TestShortLabels : public QObject {
    Q_OBJECT
private slots:
    void wordsAreCutNotTheEnd()
    {
        // The case: every name used to become "mea…".
        const auto out = shortLabels({"mean radius", "mean texture", "worst radius", "a0"}, atMost(8));
        QCOMPARE(out, (std::vector<std::string>{"mean rad", "mean tex", "wors rad", "a0"}));
    }

    void wordsBeforeTheLastGoDownToTheirInitial()
    {
        // "fea_alp_1" (9) after the 3-letter cut; then "alp" → "al" (the last of equal non-last
        // words) fits 8. At 5: "m_rad".
        QCOMPARE(shortLabels({"feature_alpha_1", "feature_alpha_2"}, atMost(8)),
                 (std::vector<std::string>{"fea_al_1", "fea_al_2"}));
        QCOMPARE(shortLabels({"mean_radius", "worst_radius"}, atMost(5)), (std::vector<std::string>{"m_rad", "w_rad"}));
    }

    void namesThatFitStayWhole()
    {
        const std::vector<std::string> names{"x", "sepal length", "petal_width"};
        QCOMPARE(shortLabels(names, atMost(12)), names);
    }

    void collisionsKeepBothEnds()
    {
        // One word each: cut to "abcdef" (6) both, so both are cut in the middle instead:
        // 3 + "…" + 2 code points.
        const auto out = shortLabels({"abcdefgh1", "abcdefgh2"}, atMost(6));
        QCOMPARE(out, (std::vector<std::string>{"abc\u2026h1", "abc\u2026h2"}));
        // Equal names stay equal (a file may repeat a column name): nothing to tell apart.
        const auto same = shortLabels({"feature_alpha", "feature_alpha"}, atMost(8));
        QCOMPARE(same[0], same[1]);
    }

    void utf8IsCutBetweenCharacters()
    {
        const auto out = shortLabels({"temp\u00e9rature moyenne"}, atMost(10));
        QCOMPARE(out.front(), std::string("temp\u00e9 moye"));
        QVERIFY(QString::fromStdString(out.front()).toStdString() == out.front()); // valid UTF-8
    }

    void alwaysFitsWhenAnythingCan()
    {
        for (int n = 2; n < 20; ++n)
            for (const auto& s : shortLabels({"a_very_long_feature_name", "another_quite_long_one"}, atMost(n)))
                QVERIFY2(atMost(n)(s), s.c_str());
    }
};

QTEST_GUILESS_MAIN(TestShortLabels)
#include "TestShortLabels.moc"
