// parallelFor (core/base/ParallelFor) and the detectors that use it: every index is visited exactly
// once, errors reach the caller, and results do not depend on the number of threads (issue #16:
// "results stay deterministic"). The knn scores are also checked against a brute-force search.
#include "RandomData.h"
#include "base/Errors.h"
#include "base/ParallelFor.h"
#include "base/Rng.h"
#include "base/Stats.h"
#include "detectors/quadrics/QuadricsDetector.h"
#include "registry/Registry.h"

#include <QtTest>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <condition_variable>
#include <vector>

using namespace olens;
using olens::test::gaussianMatrix;

namespace {
/// Restores the thread count when a test ends, failing or not.
struct ThreadsGuard {
    ~ThreadsGuard() { setWorkerThreads(0); }
};
} // namespace

class TestParallelFor : public QObject {
    Q_OBJECT
private slots:
    void concurrentJobsShareTheThreadBudget()
    {
        // Four jobs at once on a budget of 8 threads: each may use 2 (8 / 4); a job alone all 8;
        // outside any job all 8; a nested guard on the same thread is still one job; and the
        // parallel loops inside a job start no more threads than its share.
        ThreadsGuard guard;
        setWorkerThreads(8);
        QCOMPARE(runningJobs(), 0);
        QCOMPARE(jobThreads(), 8);
        {
            const JobThreads alone;
            QCOMPARE(jobThreads(), 8);
            const JobThreads nested;
            QCOMPARE(runningJobs(), 1);
        }
        QCOMPARE(runningJobs(), 0);
        std::mutex m;
        std::condition_variable cv;
        int arrived = 0;
        std::vector<int> share(4, 0), used(4, 0);
        std::vector<std::thread> jobs;
        for (int j = 0; j < 4; ++j)
            jobs.emplace_back([&, j] {
                const JobThreads budget;
                std::unique_lock<std::mutex> lock(m);
                ++arrived;
                cv.notify_all();
                cv.wait(lock, [&] { return arrived >= 4; }); // all four are running now
                share[static_cast<std::size_t>(j)] = jobThreads();
                lock.unlock();
                std::set<std::thread::id> ids;
                std::mutex idsMutex;
                parallelFor(1000, 1, [&](std::int64_t, std::int64_t) {
                    const std::lock_guard<std::mutex> l(idsMutex);
                    ids.insert(std::this_thread::get_id());
                });
                used[static_cast<std::size_t>(j)] = static_cast<int>(ids.size());
                lock.lock();
                ++arrived; // leave only when all four measured: the share stays 2 for everyone
                cv.notify_all();
                cv.wait(lock, [&] { return arrived == 8; });
            });
        for (auto& t : jobs)
            t.join();
        for (int j = 0; j < 4; ++j) {
            QCOMPARE(share[static_cast<std::size_t>(j)], 2);
            QVERIFY2(used[static_cast<std::size_t>(j)] <= 2, qPrintable(QString::number(used[static_cast<std::size_t>(j)])));
        }
        QCOMPARE(runningJobs(), 0);
        setWorkerThreads(3); // a budget smaller than the jobs: each still gets one thread
        int smallest = -1;
        {
            const JobThreads a;
            std::thread other([&smallest] {
                const JobThreads b;
                std::thread third([&smallest] {
                    const JobThreads c;
                    std::thread fourth([&smallest] {
                        const JobThreads d;
                        smallest = jobThreads(); // 3 / 4 → at least 1
                    });
                    fourth.join();
                });
                third.join();
            });
            other.join();
        }
        QCOMPARE(smallest, 1);
    }

    void rankByScoreIsTheStableDescendingOrderOnAnyThreadCount()
    {
        // The outlier ranking: rows by decreasing score, ties by row, NaN last; independent
        // reference: std::stable_sort of the row indices with NaN mapped to −∞. Large enough
        // (300 000) that two threads sort one half each and merge.
        ThreadsGuard guard;
        Rng rng(8);
        Eigen::VectorXd s(300000);
        for (Eigen::Index i = 0; i < s.size(); ++i)
            s(i) = std::floor(rng.normal() * 50.0) / 50.0; // many ties
        for (Eigen::Index i = 0; i < s.size(); i += 997)
            s(i) = std::numeric_limits<double>::quiet_NaN();
        std::vector<int> ref(static_cast<std::size_t>(s.size()));
        std::iota(ref.begin(), ref.end(), 0);
        const auto key = [&](int i) { return std::isnan(s(i)) ? -std::numeric_limits<double>::infinity() : s(i); };
        std::stable_sort(ref.begin(), ref.end(), [&](int a, int b) { return key(a) > key(b); });
        for (int threads : {1, 2, 3}) {
            setWorkerThreads(threads);
            QVERIFY2(rankByScore(s) == ref, qPrintable(QString("%1 threads").arg(threads)));
        }
        QVERIFY(rankByScore(Eigen::VectorXd()).empty());
        QCOMPARE(rankByScore(Eigen::Vector3d(1.0, 3.0, 2.0)), (std::vector<int>{1, 2, 0}));
    }

    void everyIndexOnceInContiguousParts()
    {
        ThreadsGuard guard;
        for (int threads : {1, 2, 3, 8})
            for (std::int64_t n : {0, 1, 7, 100, 1001})
                for (std::int64_t minPer : {1, 10, 2000}) {
                    setWorkerThreads(threads);
                    std::vector<std::atomic<int>> hits(static_cast<std::size_t>(n));
                    std::mutex m;
                    std::vector<std::pair<std::int64_t, std::int64_t>> parts;
                    std::set<std::thread::id> ids;
                    parallelFor(n, minPer, [&](std::int64_t b, std::int64_t e) {
                        for (std::int64_t i = b; i < e; ++i)
                            ++hits[static_cast<std::size_t>(i)];
                        const std::lock_guard<std::mutex> lock(m);
                        parts.emplace_back(b, e);
                        ids.insert(std::this_thread::get_id());
                    });
                    for (const auto& h : hits)
                        QCOMPARE(h.load(), 1);
                    // Parts: at most one per thread, none smaller than minPer unless there is only one.
                    const auto expectedParts = n == 0 ? 0
                        : std::min<std::int64_t>(threads, std::max<std::int64_t>(1, n / minPer));
                    QCOMPARE(static_cast<std::int64_t>(parts.size()), expectedParts);
                    QCOMPARE(static_cast<std::int64_t>(ids.size()), expectedParts);
                    std::sort(parts.begin(), parts.end());
                    for (std::size_t i = 0; i < parts.size(); ++i) {
                        QCOMPARE(parts[i].first, i == 0 ? 0 : parts[i - 1].second);
                        if (parts.size() > 1)
                            QVERIFY(parts[i].second - parts[i].first >= std::min<std::int64_t>(minPer, n));
                    }
                }
    }

    void chunksCoverEveryIndexOnceAndASlowThreadTakesFewer()
    {
        ThreadsGuard guard;
        for (int threads : {1, 2, 3})
            for (std::int64_t n : {0, 1, 7, 100, 1001})
                for (std::int64_t chunk : {1, 10, 2000}) {
                    setWorkerThreads(threads);
                    std::vector<std::atomic<int>> hits(static_cast<std::size_t>(n));
                    std::mutex m;
                    std::set<std::pair<std::int64_t, std::int64_t>> parts;
                    std::set<std::thread::id> ids;
                    parallelChunks(n, chunk, [&](std::int64_t b, std::int64_t e) {
                        for (std::int64_t i = b; i < e; ++i)
                            ++hits[static_cast<std::size_t>(i)];
                        const std::lock_guard<std::mutex> lock(m);
                        parts.emplace(b, e);
                        ids.insert(std::this_thread::get_id());
                    });
                    for (const auto& h : hits)
                        QCOMPARE(h.load(), 1);
                    // The chunks are [c·chunk, min(n, (c+1)·chunk)), on at most min(threads, chunks) threads.
                    const std::int64_t chunks = (n + chunk - 1) / chunk;
                    QCOMPARE(static_cast<std::int64_t>(parts.size()), chunks);
                    for (const auto& [b, e] : parts)
                        QVERIFY(b % chunk == 0 && e == std::min(n, b + chunk));
                    QVERIFY(static_cast<std::int64_t>(ids.size()) <= std::min<std::int64_t>(threads, chunks));
                }
        // The caller is held up in its first chunk (as a GUI thread drawing a frame would hold up a
        // core): the other thread does the rest instead of waiting with half the work undone, as
        // an equal split (parallelFor) would leave it.
        setWorkerThreads(2);
        const auto caller = std::this_thread::get_id();
        std::atomic<int> byCaller{0}, byOther{0};
        parallelChunks(200, 1, [&](std::int64_t, std::int64_t) {
            if (std::this_thread::get_id() == caller) {
                if (byCaller++ == 0)
                    std::this_thread::sleep_for(std::chrono::milliseconds(300));
            } else {
                ++byOther;
            }
        });
        QCOMPARE(byCaller.load() + byOther.load(), 200);
        QVERIFY2(byOther.load() >= 150, qPrintable(QString("other thread: %1 of 200 chunks").arg(byOther.load())));
    }

    void aFailingChunkStopsTheOthersAndReachesTheCaller()
    {
        ThreadsGuard guard;
        setWorkerThreads(2);
        std::atomic<int> ran{0};
        bool caught = false;
        try {
            parallelChunks(2000, 1, [&](std::int64_t b, std::int64_t) {
                ++ran;
                if (b == 3)
                    throw DataError("chunk 3 failed");
                std::this_thread::sleep_for(std::chrono::microseconds(200)); // all of them: ≥ 0.2 s
            });
        } catch (const DataError& e) {
            caught = QString(e.what()) == "chunk 3 failed";
        }
        QVERIFY(caught);
        QVERIFY2(ran.load() < 1000, qPrintable(QString::number(ran.load()))); // the handing out stopped
    }

    void theCallersThreadRunsTheFirstPart()
    {
        ThreadsGuard guard;
        setWorkerThreads(2);
        std::thread::id first;
        parallelFor(100, 1, [&](std::int64_t b, std::int64_t) {
            if (b == 0)
                first = std::this_thread::get_id();
        });
        QCOMPARE(first, std::this_thread::get_id());
    }

    void anExceptionInAnyPartReachesTheCaller()
    {
        ThreadsGuard guard;
        setWorkerThreads(2);
        bool caught = false;
        try {
            parallelFor(100, 1, [](std::int64_t b, std::int64_t) {
                if (b > 0)
                    throw DataError("second part failed");
            });
        } catch (const DataError& e) {
            caught = QString(e.what()) == "second part failed";
        }
        QVERIFY(caught);
    }

    void environmentAndOverride()
    {
        ThreadsGuard guard;
        setWorkerThreads(3);
        QCOMPARE(workerThreads(), 3);
        setWorkerThreads(0);
        QVERIFY(workerThreads() >= 1);
    }

    void knnScoresAreTheSameOnAnyNumberOfThreadsAndMatchBruteForce()
    {
        ThreadsGuard guard;
        const Eigen::MatrixXd X = gaussianMatrix(6000, 3, 7); // 3 chunks of kRowsPerChunk rows: several threads
        const Eigen::MatrixXd Q = gaussianMatrix(5000, 3, 8);
        const int k = 5;
        Eigen::VectorXd train[2], score[2];
        for (int t : {1, 2}) {
            setWorkerThreads(t);
            auto d = Registry::instance().create("knn", {{"k", std::to_string(k)}});
            d->fit(X);
            train[t - 1] = d->trainingScores();
            score[t - 1] = d->score(Q);
        }
        QVERIFY(train[0] == train[1]);
        QVERIFY(score[0] == score[1]);
        // Brute force (an independent computation) on rows from both halves.
        for (Eigen::Index i : {Eigen::Index(1), Eigen::Index(2999), Eigen::Index(3001), Eigen::Index(5999)}) {
            std::vector<double> dist;
            for (Eigen::Index j = 0; j < X.rows(); ++j)
                if (j != i)
                    dist.push_back((X.row(i) - X.row(j)).norm());
            std::nth_element(dist.begin(), dist.begin() + (k - 1), dist.end());
            QVERIFY(std::abs(train[1](i) - dist[k - 1]) < 1e-12);
            const Eigen::Index q = i * (Q.rows() - 1) / (X.rows() - 1); // rows of both halves of Q too
            std::vector<double> dq;
            for (Eigen::Index j = 0; j < X.rows(); ++j)
                dq.push_back((Q.row(q) - X.row(j)).norm());
            std::nth_element(dq.begin(), dq.begin() + (k - 1), dq.end());
            QVERIFY(std::abs(score[1](q) - dq[k - 1]) < 1e-12);
        }
    }

    void quadricsTrainingIsTheSameOnAnyNumberOfThreads()
    {
        // 20-D with m = 19 quadrics: 4 groups of quadrics, large enough to be split over threads.
        ThreadsGuard guard;
        const Eigen::MatrixXd X = gaussianMatrix(512, 20, 3);
        std::vector<Quadric> fitted[3];
        Eigen::VectorXd train[3];
        for (int t : {1, 2, 3}) {
            setWorkerThreads(t);
            auto d = Registry::instance().create("quadrics", {{"epochs", "3"}, {"batch", "256"}, {"tol", "0"}});
            d->fit(X);
            train[t - 1] = d->trainingScores();
            fitted[t - 1] = dynamic_cast<QuadricsDetector&>(*d).quadrics();
        }
        for (int t : {1, 2}) {
            QVERIFY(train[t] == train[0]);
            QCOMPARE(fitted[t].size(), fitted[0].size());
            for (std::size_t k = 0; k < fitted[0].size(); ++k) {
                QVERIFY(fitted[t][k].A == fitted[0][k].A);
                QVERIFY(fitted[t][k].b == fitted[0][k].b);
                QCOMPARE(fitted[t][k].c, fitted[0][k].c);
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestParallelFor)
#include "TestParallelFor.moc"
