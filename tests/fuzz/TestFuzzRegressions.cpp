// Replays the fuzz seed corpus (fuzz/corpus/<target>/) and every input that once crashed a fuzz
// target (fuzz/regressions/<target>/) through the same entry points as the libFuzzer targets
// (fuzz/FuzzEntryPoints.h), in the normal gcc build: only DataError and ParamError may escape.
#include "../../fuzz/FuzzEntryPoints.h"

#include <QDir>
#include <QFile>
#include <QtTest/QtTest>

#include <functional>

class TestFuzzRegressions : public QObject {
    Q_OBJECT

private:
    using Entry = std::function<void(std::string_view)>;

    static QStringList files(const QString& target)
    {
        QStringList out;
        for (const char* kind : {"corpus", "regressions"}) {
            const QDir dir(QStringLiteral(OLENS_SOURCE_DIR "/fuzz/%1/%2").arg(QLatin1String(kind), target));
            for (const QString& f : dir.entryList(QDir::Files, QDir::Name))
                out << dir.filePath(f);
        }
        return out;
    }

    /// Feeds every file; returns how many were accepted (no exception) and rejected (DataError/ParamError).
    static void replay(const QString& target, const Entry& entry, int minFiles)
    {
        const QStringList list = files(target);
        QVERIFY2(list.size() >= minFiles, qPrintable(QStringLiteral("%1: only %2 inputs").arg(target).arg(list.size())));
        int accepted = 0, rejected = 0;
        for (const QString& path : list) {
            QFile f(path);
            QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(path));
            const QByteArray bytes = f.readAll();
            try {
                entry(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
                ++accepted;
            } catch (const olens::DataError& e) {
                QVERIFY2(std::string(e.what()).size() > 0, qPrintable(path));
                ++rejected;
            } catch (const olens::ParamError&) {
                ++rejected;
            } catch (const std::exception& e) {
                QFAIL(qPrintable(QStringLiteral("%1: unexpected exception: %2").arg(path, QString::fromUtf8(e.what()))));
            }
        }
        qInfo("%s: %d inputs accepted, %d rejected with DataError/ParamError", qPrintable(target), accepted, rejected);
        // The seeds include valid real files: some inputs must be accepted, or the harness is broken.
        QVERIFY(accepted > 0);
    }

private slots:
    void loader() { replay(QStringLiteral("fuzz_loader"), olens::fuzz::runLoader, 10); }
    void model() { replay(QStringLiteral("fuzz_model"), olens::fuzz::runModel, 10); }
    void session() { replay(QStringLiteral("fuzz_session"), olens::fuzz::runSession, 10); }
    void ply() { replay(QStringLiteral("fuzz_ply"), olens::fuzz::runPly, 8); }
};

QTEST_APPLESS_MAIN(TestFuzzRegressions)
#include "TestFuzzRegressions.moc"
