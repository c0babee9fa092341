// Issue #35 item 3: a session a teacher can hand out. `--save-session` (headless, after training)
// embeds the rows of a data file up to the size limit, so the session opens in another folder after
// the data file is deleted, with the same scores; over the limit it refers to the file by its path
// and by its path relative to the session, so a folder moved as a whole still opens; a file that is
// nowhere is refused with a message that names every place looked at (never the old state lost).
// No writer of the GUI replaces the data file it shows.
#include "GuiTestSupport.h"
#include "window/MainWindow.h"
#include "files/SessionManager.h"
#include "document/DataDocument.h"
#include "docks/DetectorPanel.h"
#include "jobs/TrainingController.h"
#include "pipeline/FitPipeline.h"
#include "base/Errors.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <fstream>
#include <sys/stat.h>

using namespace olens;

namespace {

using olens::test::sample;

nlohmann::json readJson(const QString& path)
{
    std::ifstream in(QFile::encodeName(path).toStdString());
    return nlohmann::json::parse(in);
}

} // namespace

class TestPortableSessions : public QObject {
    Q_OBJECT
private slots:
    void aSavedSessionOpensElsewhereWithoutItsDataFile()
    {
        QTemporaryDir root;
        QVERIFY(QDir(root.path()).mkpath("teacher") && QDir(root.path()).mkpath("student"));
        const QString data = root.filePath("teacher/moons.csv");
        QVERIFY(QFile::copy(sample("moons2d.csv"), data));
        const QString session = root.filePath("teacher/lesson.olens.json");
        QProcess p;
        p.start(QStringLiteral(OLENS_GUI_PATH),
                {"--load", data, "--detector", "knn", "--train", "--save-session", session, "--exit"});
        QVERIFY(p.waitForFinished(120000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        const nlohmann::json j = readJson(session);
        QVERIFY(j["data"].contains("embedded")); // 10 KB of rows: inside the session
        QCOMPARE(QString::fromStdString(j["data"]["path"].get<std::string>()), QFileInfo(data).absoluteFilePath());

        const QString moved = root.filePath("student/lesson.olens.json");
        QVERIFY(QFile::rename(session, moved));
        QVERIFY(QFile::remove(data));
        MainWindow w;
        w.setInteractive(false);
        QString error;
        QVERIFY2(w.sessions()->open(moved, &error), qPrintable(error));
        QCOMPARE(w.document()->dataset().rows(), Eigen::Index(300));
        const auto r = w.document()->result();
        QVERIFY(r);
        QCOMPARE(r->detectorId, std::string("knn"));
        // The restored model scores the rows as a fresh fit on the original file does (knn: deterministic).
        MainWindow fresh;
        fresh.setInteractive(false);
        QVERIFY(fresh.openFile(sample("moons2d.csv")));
        QVERIFY(fresh.detectorPanel()->setCurrentDetector("knn"));
        QSignalSpy trained(fresh.trainer(), &TrainingController::finished);
        fresh.detectorPanel()->train();
        QVERIFY(trained.wait(60000));
        QVERIFY(fresh.document()->result());
        QVERIFY((fresh.document()->result()->scores - r->scores).cwiseAbs().maxCoeff() <= 1e-12);
        QVERIFY(!w.document()->isEdited()); // the file's rows, not an edit
        // Saved again there: the file is gone, so the rows stay inside.
        const QString again = root.filePath("student/again.olens.json");
        QVERIFY(w.sessions()->save(again, &error));
        QVERIFY(readJson(again)["data"].contains("embedded"));
    }

    void overTheLimitTheFileIsFoundRelativeToTheSession()
    {
        QSettings().setValue("sessions/embed_limit_mb", 0); // every file is "large"
        QTemporaryDir root;
        QVERIFY(QDir(root.path()).mkpath("course/data"));
        const QString data = root.filePath("course/data/moons.csv");
        QVERIFY(QFile::copy(sample("moons2d.csv"), data));
        const QString session = root.filePath("course/lesson.olens.json");
        {
            MainWindow w;
            w.setInteractive(false);
            QVERIFY(w.openFile(data));
            QString error;
            QVERIFY2(w.sessions()->save(session, &error), qPrintable(error));
        }
        const nlohmann::json j = readJson(session);
        QVERIFY(!j["data"].contains("embedded"));
        QCOMPARE(j["data"]["relative_path"].get<std::string>(), std::string("data/moons.csv"));
        // The whole folder moved: found by the relative path.
        QVERIFY(QDir(root.path()).rename("course", "moved"));
        MainWindow w;
        w.setInteractive(false);
        QString error;
        QVERIFY2(w.sessions()->open(root.filePath("moved/lesson.olens.json"), &error), qPrintable(error));
        QCOMPARE(QFileInfo(w.document()->filePath()).absoluteFilePath(), QFileInfo(root.filePath("moved/data/moons.csv")).absoluteFilePath());
        // Only the session and the file side by side: found next to the session.
        QVERIFY(QFile::rename(root.filePath("moved/data/moons.csv"), root.filePath("moved/moons.csv")));
        QVERIFY2(w.sessions()->open(root.filePath("moved/lesson.olens.json"), &error), qPrintable(error));
        QCOMPARE(QFileInfo(w.document()->filePath()).fileName(), QString("moons.csv"));
        // Nowhere: refused, naming the places, the window keeps its data.
        QVERIFY(QFile::remove(root.filePath("moved/moons.csv")));
        QVERIFY(!w.sessions()->open(root.filePath("moved/lesson.olens.json"), &error));
        QVERIFY2(error.contains("data/moons.csv") && error.contains("Save session with data"), qPrintable(error));
        QCOMPARE(w.document()->dataset().rows(), Eigen::Index(300));
        QSettings().remove("sessions/embed_limit_mb");
    }

    void dataOutsideTheSessionsFolderNeedsTheUsersWord()
    {
        // #51: a session handed over whose data path named any file (another user's data,
        // ../../etc/passwd) was opened without a question. Now: in the session's folder, or a folder
        // the user opened data from, or the user says yes (asked; a scripted run needs
        // --allow-data-outside).
        QSettings().remove("data/trusted_folders");
        QTemporaryDir root;
        QVERIFY(QDir(root.path()).mkpath("elsewhere"));
        QVERIFY(QDir(root.path()).mkpath("handout"));
        const QString data = root.filePath("elsewhere/moons.csv");
        QVERIFY(QFile::copy(sample("moons2d.csv"), data));
        const QString session = root.filePath("handout/s.olens.json");
        auto writeSession = [&session](const nlohmann::json& dataMember) {
            nlohmann::json j = {{"format", "outlierlens-session"}, {"version", 4}, {"data", dataMember}};
            std::ofstream(QFile::encodeName(session).toStdString()) << j.dump();
        };
        writeSession({{"path", data.toStdString()}});
        // Headless: refused with the reason and the flag; with the flag, opened.
        for (const bool allow : {false, true}) {
            QProcess p;
            QStringList args{"--session", session, "--exit"};
            if (allow)
                args << "--allow-data-outside";
            p.start(QStringLiteral(OLENS_GUI_PATH), args);
            QVERIFY(p.waitForFinished(120000));
            const QString err = QString::fromLocal8Bit(p.readAllStandardError());
            if (allow) {
                QVERIFY2(p.exitCode() == 0, qPrintable(err));
            } else {
                QCOMPARE(p.exitCode(), 1);
                QVERIFY2(err.contains("outside the session's folder") && err.contains("--allow-data-outside")
                             && err.contains("elsewhere/moons.csv"),
                         qPrintable(err));
            }
        }
        MainWindow w;
        w.setInteractive(false);
        QString error;
        QVERIFY(!w.sessions()->open(session, &error));
        QVERIFY2(error.contains("outside the session's folder"), qPrintable(error));
        QCOMPARE(w.document()->dataset().rows(), Eigen::Index(0));
        // A relative path that climbs out of the folder: the same refusal, and nothing of the
        // file's content in the message.
        writeSession({{"path", root.filePath("gone.csv").toStdString()}, {"relative_path", "../../../../../../etc/passwd"}});
        QVERIFY(!w.sessions()->open(session, &error));
        QVERIFY2(error.contains("outside the session's folder") && !error.contains("root:"), qPrintable(error));
        // The user opened data from that folder: their own folder, read without asking.
        writeSession({{"path", data.toStdString()}});
        QVERIFY(w.openFile(data));
        QVERIFY2(w.sessions()->open(session, &error), qPrintable(error));
        QCOMPARE(w.document()->dataset().rows(), Eigen::Index(300));
        QVERIFY(QSettings().value("data/trusted_folders").toStringList().contains(QFileInfo(data).canonicalPath()));
        QSettings().remove("data/trusted_folders");
    }

    void aHeadlessRunWhoseModelCannotBeRestoredFails()
    {
        // #51: a scripted `--session` whose by-reference knn model could not be restored (the data
        // file changed since the save) exited 0 with the reason only in the window's Log, and
        // --save-session then wrote the session without its model. The autosave of file data is
        // such a session (the model refers to the file's rows).
        QTemporaryDir root;
        const QString data = root.filePath("moons.csv"), state = root.filePath("state");
        QVERIFY(QFile::copy(sample("moons2d.csv"), data));
        QVERIFY(QFile::setPermissions(data, QFile::ReadOwner | QFile::WriteOwner));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("OLENS_STATE_DIR", state);
        QProcess train;
        train.setProcessEnvironment(env);
        train.start(QStringLiteral(OLENS_GUI_PATH), {"--load", data, "--detector", "knn", "--train", "--exit"});
        QVERIFY(train.waitForFinished(120000));
        QVERIFY2(train.exitCode() == 0, train.readAllStandardError().constData());
        const QString session = QDir(state).filePath("autosave.olens.json");
        QVERIFY(readJson(session)["model"].contains("rows_by_reference"));
        {
            QFile f(data); // one training row changed: the model's rows are no longer the file's
            QVERIFY(f.open(QIODevice::ReadWrite));
            QByteArray text = f.readAll();
            const int secondLine = text.indexOf('\n') + 1;
            text[secondLine] = text[secondLine] == '9' ? '8' : '9';
            f.seek(0);
            f.write(text);
        }
        const QString out = root.filePath("out.olens.json");
        QProcess p;
        p.start(QStringLiteral(OLENS_GUI_PATH),
                {"--session", session, "--allow-data-outside", "--save-session", out, "--exit"});
        QVERIFY(p.waitForFinished(120000));
        const QString err = QString::fromLocal8Bit(p.readAllStandardError());
        QCOMPARE(p.exitCode(), 1);
        QVERIFY2(err.contains("fitted model was not restored") && err.contains("data file changed"), qPrintable(err));
        QVERIFY(!QFile::exists(out));
    }

    void aSessionFileThatIsNotARegularFileOrTooLargeIsRefusedAtOnce()
    {
        // A session handed over is untrusted (#51): a FIFO blocked the GUI's open for ever (the CLI
        // and Python refused it) and a 1 GiB file was read until memory ran out. The GUI now reads
        // sessions as they do: a regular file of at most kMaxSessionFileBytes, refused by name.
        QTemporaryDir dir;
        const QString fifo = dir.filePath("fifo.olens.json");
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        try { // the old code blocked here for ever (no writer ever opens the FIFO)
            SessionManager::readSessionFile(fifo);
            QFAIL("a FIFO was read as a session");
        } catch (const DataError& e) {
            QVERIFY2(QString(e.what()).contains("not a regular file"), e.what());
            QVERIFY2(QString(e.what()).contains("fifo.olens.json"), e.what());
        }
        const QString big = dir.filePath("big.olens.json");
        {
            QFile f(big);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QVERIFY(f.resize(qint64(kMaxSessionFileBytes) + 1)); // sparse: no disk used
        }
        try {
            SessionManager::readSessionFile(big);
            QFAIL("an oversized session was read");
        } catch (const DataError& e) {
            QVERIFY2(QString(e.what()).contains("more than the"), e.what());
        }
        // The window reports it and keeps its state.
        MainWindow w;
        w.setInteractive(false);
        QString error;
        QVERIFY(!w.sessions()->open(fifo, &error));
        QVERIFY2(error.contains("not a regular file"), qPrintable(error));
    }

    void noWriterReplacesTheLoadedData()
    {
        // `--screenshot d.csv` after `--load d.csv` replaced the data with a PNG (issue #34); the
        // GUI's writers now refuse the file they show, like the CLI's: exit 1, the data intact.
        QTemporaryDir dir;
        const QString data = dir.filePath("d.csv");
        QVERIFY(QFile::copy(sample("moons2d.csv"), data));
        QFile f(data);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray before = f.readAll();
        f.close();
        QProcess p;
        p.start(QStringLiteral(OLENS_GUI_PATH), {"--load", data, "--screenshot", data, "--exit"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 1);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), before);
        f.close();
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(w.openFile(data));
        QString error;
        QVERIFY(!w.sessions()->save(data, &error)); // a session over its own data file
        QVERIFY2(!error.isEmpty(), "no reason given");
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), before);
    }
};

OLENS_GUI_TEST_MAIN(TestPortableSessions)
#include "TestPortableSessions.moc"
