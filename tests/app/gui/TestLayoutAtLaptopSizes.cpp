// Issue #35 item 1 and 7: the window on a laptop's screen. The app opens on an Xvfb screen of
// 1280×720 and of 1024×600 (its own server per size, so the window takes the screen as on a
// laptop), loads a real labelled set (Shuttle rows), trains knn and writes --layout-report: the
// Ranking shows ≥ 12 rows at 1280×720 and ≥ 6 at 1024×600, and no control is clipped or reachable
// only through a scroll bar.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>

class TestLayoutAtLaptopSizes : public QObject {
    Q_OBJECT
private slots:
    void rankingAndControlsFit_data()
    {
        QTest::addColumn<QSize>("screen");
        QTest::addColumn<int>("minRows");
        QTest::newRow("1280x720") << QSize(1280, 720) << 12;
        QTest::newRow("1024x600") << QSize(1024, 600) << 6;
    }

    void rankingAndControlsFit()
    {
        QFETCH(QSize, screen);
        QFETCH(int, minRows);
        QTemporaryDir dir;
        const QString report = dir.filePath("layout.json");
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("XDG_CONFIG_HOME", dir.filePath("config")); // the first start's layout
        env.insert("OLENS_STATE_DIR", dir.filePath("state"));
        p.setProcessEnvironment(env);
        p.start("xvfb-run", {"-a", "-s", QString("-screen 0 %1x%2x24").arg(screen.width()).arg(screen.height()),
                             QStringLiteral(OLENS_GUI_PATH), "--load", QStringLiteral(OLENS_SOURCE_DIR "/tests/data/shuttle300.csv"),
                             "--detector", "knn", "--train", "--layout-report", report, "--exit"});
        QVERIFY(p.waitForFinished(120000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        QFile f(report);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject j = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(j["window"].toObject()["width"].toInt(), screen.width());
        QCOMPARE(j["window"].toObject()["height"].toInt(), screen.height());
        const int rows = j["ranking_visible_rows"].toInt();
        QVERIFY2(rows >= minRows, qPrintable(QString("%1 Ranking rows visible").arg(rows)));
        // Issue #52: rank, row, score, label and flag in sight without a sideways scroll.
        QVERIFY(j.contains("ranking_columns_cut"));
        const QJsonArray cut = j["ranking_columns_cut"].toArray();
        QVERIFY2(cut.isEmpty(), QJsonDocument(cut).toJson(QJsonDocument::Compact).constData());
        const QJsonArray clipped = j["controls_clipped"].toArray();
        QVERIFY2(clipped.isEmpty(), QJsonDocument(clipped).toJson(QJsonDocument::Compact).constData());
        // One scroll bar per direction: the Detector dock's parameters scrolled inside the
        // scrolling dock, the loss plot below the outer fold.
        QVERIFY(j.contains("nested_scrolling"));
        const QJsonArray nested = j["nested_scrolling"].toArray();
        QVERIFY2(nested.isEmpty(), QJsonDocument(nested).toJson(QJsonDocument::Compact).constData());
    }

    void trainStaysAboveTheFoldWithManyParameters()
    {
        // Quadrics (13 parameters) at 1024×600: the Detector dock must scroll, but Train and
        // Cancel come before the parameters, and the dock is the only scroller (the parameters
        // had a scroll area of their own inside it, and Train was below both folds).
        QTemporaryDir dir;
        const QString report = dir.filePath("layout.json");
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("XDG_CONFIG_HOME", dir.filePath("config"));
        env.insert("OLENS_STATE_DIR", dir.filePath("state"));
        p.setProcessEnvironment(env);
        p.start("xvfb-run", {"-a", "-s", "-screen 0 1024x600x24", QStringLiteral(OLENS_GUI_PATH), "--preset", "1",
                             "--layout-report", report, "--exit"});
        QVERIFY(p.waitForFinished(120000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        QFile f(report);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject j = QJsonDocument::fromJson(f.readAll()).object();
        QVERIFY(j.contains("nested_scrolling"));
        QVERIFY2(j["nested_scrolling"].toArray().isEmpty(),
                 QJsonDocument(j["nested_scrolling"].toArray()).toJson(QJsonDocument::Compact).constData());
        const QJsonArray clipped = j["controls_clipped"].toArray();
        QVERIFY2(!clipped.isEmpty(), "13 parameters in 600 px: some must be below the fold (the check checks)");
        for (const auto& c : clipped)
            QVERIFY2(!c.toString().contains("Train") && !c.toString().contains("Cancel"), qPrintable(c.toString()));
    }
};

QTEST_GUILESS_MAIN(TestLayoutAtLaptopSizes)
#include "TestLayoutAtLaptopSizes.moc"
