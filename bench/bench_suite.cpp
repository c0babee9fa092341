// The benchmark suite (issue "Reliability and benchmarks"): medians over repeated runs of
//   - loading a 1e6 × 10 CSV file (written to a temporary directory first, not timed);
//   - fit and score of every registered detector on a seeded Gaussian blob with 5 % uniform
//     outliers, n = 1000 and 10 000, p = 2 and 10 (detectors whose cost grows too fast are skipped
//     at n = 10 000, with the estimate that made the decision);
//   - ACDT on the Swiss roll, n = 5000, k = 15, d = 2 (the slides' 389 s / 123 s);
//   - KIC (RBF) fit + score on 4601 × 57 (Spambase-sized, KIC paper Table 1);
//   - Q-FULL training throughput, points per second per epoch, p = 64, m = 50;
//   - contour-grid evaluation per detector: a 512² 2-D grid and a 64³ 3-D grid scored in chunks
//     of 1024 points after fitting on 1000 points (what gui/jobs/FieldComputer.cpp does).
// Every run is printed to stderr as it finishes; --json and --markdown write the results with the
// machine description. A detector that fails on the bench data is recorded with its error.
//
//   olens_bench_suite [--runs 3] [--json F] [--markdown F] [--only load,detectors,acdt,kic,quadrics,grid]
//                     [--budget SECONDS] [--quick]
#include "BenchCommon.h"

#include "data/CsvWriter.h"
#include "data/DataLoader.h"
#include "base/Errors.h"
#include "data/Generators.h"

#include <nlohmann/json.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <unistd.h>

using namespace olens;
using namespace olens::bench;
using nlohmann::json;

namespace {

struct Options {
    int runs = 3;
    std::string jsonPath, markdownPath;
    std::set<std::string> only;
    double budget = 10.0;  ///< estimated seconds per run above which a case is skipped
    double maxSeconds = 60.0; ///< a single fit (or grid pass) is abandoned after this
    bool quick = false;    ///< tiny sizes, to check the program itself
    bool want(const std::string& s) const { return only.empty() || only.count(s) > 0; }
};

/// One benchmark row: per-run values, their median, and a note or an error.
struct Row {
    std::string section, name, unit = "s";
    json params = json::object();
    std::vector<double> runs;
    std::string note, error;
    json extra = json::object();

    json toJson() const
    {
        json j = {{"section", section}, {"name", name}, {"unit", unit}, {"params", params}, {"runs", runs}};
        j["median"] = runs.empty() ? json() : json(median(runs));
        if (!note.empty()) j["note"] = note;
        if (!error.empty()) j["error"] = error;
        if (!extra.empty()) j["extra"] = extra;
        return j;
    }
};

std::vector<Row> g_rows;

std::string fmt(double v, const std::string& unit)
{
    char buf[64];
    if (unit == "s") {
        if (v < 1e-3) std::snprintf(buf, sizeof buf, "%.1f µs", v * 1e6);
        else if (v < 1.0) std::snprintf(buf, sizeof buf, "%.1f ms", v * 1e3);
        else std::snprintf(buf, sizeof buf, "%.2f s", v);
    } else if (v >= 100) {
        std::snprintf(buf, sizeof buf, "%.0f %s", v, unit.c_str());
    } else {
        std::snprintf(buf, sizeof buf, "%.3g %s", v, unit.c_str());
    }
    return buf;
}

void record(Row r)
{
    std::cerr << "[" << r.section << "] " << r.name;
    if (!r.runs.empty()) {
        std::cerr << ": median " << fmt(median(r.runs), r.unit) << " (runs:";
        for (double v : r.runs) std::cerr << " " << fmt(v, r.unit);
        std::cerr << ")";
    }
    if (!r.error.empty()) std::cerr << " ERROR: " << r.error;
    if (!r.note.empty()) std::cerr << " [" << r.note << "]";
    std::cerr << std::endl;
    g_rows.push_back(std::move(r));
}

/// A progress callback that cancels the fit after maxSeconds.
ProgressCallback deadline(double maxSeconds)
{
    const auto t0 = Clock::now();
    return [t0, maxSeconds](const ProgressInfo&) { return secondsSince(t0) > maxSeconds; };
}

std::string errorText(const std::exception& e)
{
    if (dynamic_cast<const Cancelled*>(&e)) return "cancelled (exceeded the time limit)";
    if (dynamic_cast<const DataError*>(&e)) return std::string("DataError: ") + e.what();
    if (dynamic_cast<const ParamError*>(&e)) return std::string("ParamError: ") + e.what();
    return std::string("exception: ") + e.what();
}

// ---- CSV load -------------------------------------------------------------------------------

void benchLoad(const Options& o)
{
    const Eigen::Index n = o.quick ? 20000 : 1000000, p = 10;
    Dataset d;
    d.X = gaussian(n, p, 7);
    for (Eigen::Index j = 0; j < p; ++j) d.featureNames.push_back("x" + std::to_string(j + 1));
    Rng rng(8);
    d.labels.resize(n);
    for (Eigen::Index i = 0; i < n; ++i) d.labels(i) = rng.uniform() < 0.05 ? 1.0 : 0.0;
    d.labelName = "label";
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("olens-bench-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "load.csv").string();
    writeCsv(path, d);
    const double mb = static_cast<double>(std::filesystem::file_size(path)) / 1e6;
    Row r;
    r.section = "load";
    r.name = "CSV load " + std::to_string(n) + " × " + std::to_string(p) + " (+label)";
    r.params = {{"n", n}, {"p", p}, {"megabytes", mb}};
    try {
        for (int k = 0; k < o.runs; ++k) {
            const auto t0 = Clock::now();
            const Dataset back = loadDataset(path);
            r.runs.push_back(secondsSince(t0));
            if (back.rows() != n || back.cols() != p) throw std::runtime_error("wrong shape read back");
        }
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.1f MB, %.0f MB/s", mb, mb / median(r.runs));
        r.note = buf;
    } catch (const std::exception& e) {
        r.error = errorText(e);
    }
    std::filesystem::remove_all(dir);
    record(std::move(r));
}

// ---- fit / score per detector ----------------------------------------------------------------

struct FitScore {
    std::vector<double> fit, score;
    std::string error;
};

FitScore fitScore(const std::string& id, const Eigen::MatrixXd& X, int runs, const Options& o,
                  const ParamAssignments& params = {}, bool allRuns = false, const Eigen::MatrixXd* Xscore = nullptr)
{
    FitScore r;
    try {
        for (int k = 0; k < runs; ++k) {
            auto d = Registry::instance().create(id, params);
            const auto t0 = Clock::now();
            d->fit(X, deadline(o.maxSeconds));
            const auto t1 = Clock::now();
            const Eigen::MatrixXd& Q = Xscore ? *Xscore : X;
            const Eigen::VectorXd s = d->score(Q);
            const auto t2 = Clock::now();
            if (s.size() != Q.rows()) throw std::runtime_error("score returned the wrong length");
            if (!s.allFinite()) throw std::runtime_error("non-finite scores");
            r.fit.push_back(seconds(t0, t1));
            r.score.push_back(seconds(t1, t2));
            if (!allRuns && seconds(t0, t2) > o.budget * 1.5) break; // far over budget: one run is enough
        }
    } catch (const std::exception& e) {
        r.error = errorText(e);
    }
    return r;
}

void recordFitScore(const std::string& id, Eigen::Index n, Eigen::Index p, const FitScore& fs, const std::string& note)
{
    const json params = {{"detector", id}, {"n", n}, {"p", p}};
    Row f;
    f.section = "detectors";
    f.name = id + " fit n=" + std::to_string(n) + " p=" + std::to_string(p);
    f.params = params;
    f.params["phase"] = "fit";
    f.runs = fs.fit;
    f.error = fs.error;
    f.note = note;
    record(f);
    Row s = f;
    s.name = id + " score n=" + std::to_string(n) + " p=" + std::to_string(p);
    s.params["phase"] = "score";
    s.runs = fs.score;
    s.error = fs.error.empty() ? "" : "(see fit)";
    s.note = "";
    record(s);
}

void benchDetectors(const Options& o)
{
    const std::vector<Eigen::Index> ps = {2, 10};
    const Eigen::Index small = o.quick ? 200 : 1000, large = o.quick ? 1000 : 10000;
    for (Eigen::Index p : ps) {
        const Eigen::MatrixXd Xs = blobWithOutliers(small, p, 0.05, 11);
        const Eigen::MatrixXd Xd = blobWithOutliers(2 * small, p, 0.05, 11);
        const Eigen::MatrixXd Xl = blobWithOutliers(large, p, 0.05, 11);
        // Scores are timed on fresh points of the same size (a detector may cache its training scores).
        const Eigen::MatrixXd Qs = blobWithOutliers(small, p, 0.05, 12);
        const Eigen::MatrixXd Qd = blobWithOutliers(2 * small, p, 0.05, 12);
        const Eigen::MatrixXd Ql = blobWithOutliers(large, p, 0.05, 12);
        for (const DetectorInfo& info : Registry::instance().detectors()) {
            const FitScore a = fitScore(info.id, Xs, o.runs, o, {}, false, &Qs);
            recordFitScore(info.id, small, p, a, "");
            if (!a.error.empty()) {
                Row r;
                r.section = "detectors";
                r.name = info.id + " fit n=" + std::to_string(large) + " p=" + std::to_string(p);
                r.params = {{"detector", info.id}, {"n", large}, {"p", p}, {"phase", "fit"}};
                r.note = "skipped: failed at n=" + std::to_string(small);
                record(r);
                continue;
            }
            // Growth exponent from one run at 2n: skip n = 10 000 when the extrapolated cost of a
            // run exceeds the budget.
            const FitScore b = fitScore(info.id, Xd, 1, o, {}, false, &Qd);
            const double t1 = median(a.fit) + median(a.score);
            const double t2 = b.error.empty() ? b.fit[0] + b.score[0] : std::nan("");
            double expo = std::isfinite(t2) && t1 > 0 ? std::log2(std::max(t2, 1e-9) / std::max(t1, 1e-9)) : 2.0;
            expo = std::clamp(expo, 1.0, 4.0); // timer noise at the ms level: assume at least linear
            const double est = t1 * std::pow(static_cast<double>(large) / static_cast<double>(small), expo);
            char growth[160];
            std::snprintf(growth, sizeof growth, "cost ~ n^%.1f (measured %ld→%ld), est. %.1f s per run at n=%ld",
                          expo, static_cast<long>(small), static_cast<long>(2 * small), est, static_cast<long>(large));
            if (est > o.budget) {
                Row r;
                r.section = "detectors";
                r.name = info.id + " fit n=" + std::to_string(large) + " p=" + std::to_string(p);
                r.params = {{"detector", info.id}, {"n", large}, {"p", p}, {"phase", "fit"},
                            {"growth_exponent", expo}, {"estimated_seconds", est}};
                r.note = std::string("skipped: ") + growth;
                record(r);
                continue;
            }
            const FitScore c = fitScore(info.id, Xl, o.runs, o, {}, false, &Ql);
            recordFitScore(info.id, large, p, c, "");
        }
    }
}

// ---- ACDT, KIC, quadrics ----------------------------------------------------------------------

void benchAcdt(const Options& o)
{
    const int n = o.quick ? 1000 : 5000;
    const Dataset data = generate("swissroll", n, 1, {{"noise", "0"}});
    Row r;
    r.section = "acdt";
    r.name = "acdt fit, Swiss roll n=" + std::to_string(n) + " k=15 d=2";
    r.params = {{"n", n}, {"k", 15}, {"d", 2}, {"L", 12}};
    try {
        std::map<std::string, double> fig;
        for (int k = 0; k < std::max(o.runs, 5); ++k) {
            auto d = Registry::instance().create("acdt", {{"k", "15"}, {"d", "2"}, {"L", "12"}});
            const auto t0 = Clock::now();
            d->fit(data.X, deadline(o.maxSeconds));
            r.runs.push_back(secondsSince(t0));
            fig = d->figures();
        }
        if (fig.count("msre")) {
            r.extra["msre"] = fig["msre"];
            char buf[64];
            std::snprintf(buf, sizeof buf, "MSRE %.3f at L = 12; slides: 389 s / 123 s", fig["msre"]);
            r.note = buf;
        }
    } catch (const std::exception& e) {
        r.error = errorText(e);
    }
    record(std::move(r));
}

void benchKic(const Options& o)
{
    const Eigen::Index n = o.quick ? 500 : 4601, p = 57;
    const Eigen::MatrixXd X = gaussian(n, p, 1); // as bench/kic_bench.cpp
    const FitScore fs = fitScore("kic", X, o.runs, o, {{"kernel", "rbf"}}, true);
    Row r;
    r.section = "kic";
    r.name = "kic (rbf) fit + score " + std::to_string(n) + " × " + std::to_string(p);
    r.params = {{"n", n}, {"p", p}, {"kernel", "rbf"}};
    for (std::size_t k = 0; k < fs.fit.size(); ++k) r.runs.push_back(fs.fit[k] + fs.score[k]);
    r.error = fs.error;
    r.extra = {{"fit_runs", fs.fit}, {"score_runs", fs.score}};
    if (!fs.fit.empty()) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "fit %.2f s + score %.2f s (medians)", median(fs.fit), median(fs.score));
        r.note = buf;
    }
    record(std::move(r));
}

void benchQuadrics(const Options& o)
{
    const long n = o.quick ? 2000 : 20000;
    const int p = 64, m = 50, epochs = 2, batch = 64;
    const Eigen::MatrixXd X = gaussian(n, p, 2024);
    Row r, c;
    r.section = c.section = "quadrics";
    r.name = "quadrics (Q-FULL) training, p=64 m=50 batch 64 (wall)";
    c.name = "quadrics (Q-FULL) training, p=64 m=50 batch 64 (process CPU)";
    r.unit = c.unit = "points/s per epoch";
    r.params = {{"n", n}, {"p", p}, {"m", m}, {"epochs_per_run", epochs}, {"batch", batch}};
    c.params = r.params;
    try {
        for (int k = 0; k < o.runs; ++k) {
            const EpochTimes t = quadricsEpochs(X, m, epochs, batch, k);
            if (t.wall.empty()) throw std::runtime_error("no epoch reports from quadrics");
            r.runs.push_back(static_cast<double>(n) / median(t.wall));
            c.runs.push_back(static_cast<double>(n) / median(t.cpu));
        }
        r.note = "per run: n / median epoch time over " + std::to_string(epochs) + " epochs";
    } catch (const std::exception& e) {
        r.error = c.error = errorText(e);
    }
    record(std::move(r));
    record(std::move(c));
}

// ---- contour grids --------------------------------------------------------------------------

Eigen::MatrixXd gridPoints(int dims, int side, double lo, double hi)
{
    Eigen::Index total = 1;
    for (int k = 0; k < dims; ++k) total *= side;
    Eigen::MatrixXd G(total, dims);
    for (Eigen::Index i = 0; i < total; ++i) {
        Eigen::Index rest = i;
        for (int k = 0; k < dims; ++k) {
            G(i, k) = lo + (hi - lo) * static_cast<double>(rest % side) / (side - 1);
            rest /= side;
        }
    }
    return G;
}

void benchGrid(const Options& o)
{
    struct Case { int dims, side; };
    const std::vector<Case> cases = o.quick ? std::vector<Case>{{2, 64}, {3, 16}} : std::vector<Case>{{2, 512}, {3, 64}};
    for (const Case& g : cases) {
        const Eigen::MatrixXd X = blobWithOutliers(1000, g.dims, 0.05, 5);
        const Eigen::MatrixXd G = gridPoints(g.dims, g.side, -6.0, 6.0);
        const std::string label = g.dims == 2 ? std::to_string(g.side) + "² grid" : std::to_string(g.side) + "³ grid";
        for (const DetectorInfo& info : Registry::instance().detectors()) {
            Row r;
            r.section = "grid";
            r.name = info.id + " " + label;
            r.params = {{"detector", info.id}, {"dims", g.dims}, {"side", g.side}, {"points", G.rows()},
                        {"fit_n", 1000}, {"chunk", 1024}};
            try {
                auto d = Registry::instance().create(info.id);
                d->fit(X, deadline(o.maxSeconds));
                for (int k = 0; k < o.runs; ++k) {
                    const auto t0 = Clock::now();
                    bool over = false;
                    for (Eigen::Index first = 0; first < G.rows(); first += 1024) {
                        const Eigen::Index m = std::min<Eigen::Index>(1024, G.rows() - first);
                        const Eigen::VectorXd s = d->score(G.middleRows(first, m));
                        if (s.size() != m) throw std::runtime_error("score returned the wrong length");
                        if (secondsSince(t0) > o.maxSeconds) { over = true; break; }
                    }
                    if (over) {
                        r.note = "stopped: one pass exceeds " + std::to_string(static_cast<int>(o.maxSeconds)) + " s";
                        break;
                    }
                    r.runs.push_back(secondsSince(t0));
                    if (r.runs.back() > o.budget * 1.5) break; // slow: one run is enough
                }
                if (!r.runs.empty()) {
                    char buf[64];
                    std::snprintf(buf, sizeof buf, "%.2f Mpoints/s", G.rows() / median(r.runs) / 1e6);
                    if (r.note.empty()) r.note = buf;
                }
            } catch (const std::exception& e) {
                r.error = errorText(e);
            }
            record(std::move(r));
        }
    }
}

// ---- output ---------------------------------------------------------------------------------

std::string runsText(const Row& r)
{
    std::string s;
    for (double v : r.runs) {
        std::string t = fmt(v, r.unit);
        if (r.unit != "s") t = t.substr(0, t.find(' ')); // the unit is in the median column
        s += (s.empty() ? "" : ", ") + t;
    }
    return s;
}

std::string escapeCell(std::string s)
{
    for (std::size_t i = 0; (i = s.find('|', i)) != std::string::npos; i += 2) s.replace(i, 1, "\\|");
    for (char& c : s) if (c == '\n') c = ' ';
    return s;
}

void writeMarkdown(std::ostream& out, const json& mach, const Options& o)
{
    out << "# OutlierLens benchmarks\n\n";
    out << "Machine: " << mach["nproc"].get<unsigned>() << " logical CPUs (" << mach["cpu"].get<std::string>() << "), "
        << mach["ram_gib"].get<double>() << " GiB RAM; " << mach["compiler"].get<std::string>() << ", "
        << mach["build_type"].get<std::string>() << " build; 1-minute load average "
        << mach["load_average_1min_at_start"].get<double>() << " at the start (the machine is shared).\n";
    out << "Generated by `scripts/bench.sh` (`olens_bench_suite`); medians over " << o.runs
        << " runs unless a run exceeded the budget; wall-clock times.\n\n";
    const std::vector<std::pair<std::string, std::string>> sections = {
        {"load", "Data loading"},
        {"detectors", "Fit and score per detector (Gaussian blob, 5 % uniform outliers; score = n fresh points)"},
        {"acdt", "ACDT"}, {"kic", "KIC"}, {"quadrics", "Quadrics throughput"},
        {"grid", "Contour grids (fit on 1000 points, score the grid in chunks of 1024)"}};
    for (const auto& [key, title] : sections) {
        bool any = false;
        for (const Row& r : g_rows) any = any || r.section == key;
        if (!any) continue;
        out << "## " << title << "\n\n| benchmark | median | runs | note |\n|---|---|---|---|\n";
        for (const Row& r : g_rows) {
            if (r.section != key) continue;
            const std::string med = r.runs.empty() ? "—" : fmt(median(r.runs), r.unit);
            std::string note = r.note;
            if (!r.error.empty()) note = (note.empty() ? "" : note + "; ") + "**error**: " + r.error;
            out << "| " << escapeCell(r.name) << " | " << med << " | " << escapeCell(runsText(r)) << " | "
                << escapeCell(note) << " |\n";
        }
        out << "\n";
    }
}

} // namespace

int main(int argc, char** argv)
{
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) { std::cerr << a << " needs a value\n"; std::exit(2); }
            return argv[++i];
        };
        if (a == "--runs") o.runs = std::max(3, std::atoi(next().c_str()));
        else if (a == "--json") o.jsonPath = next();
        else if (a == "--markdown") o.markdownPath = next();
        else if (a == "--budget") o.budget = std::atof(next().c_str());
        else if (a == "--quick") o.quick = true;
        else if (a == "--only") {
            std::stringstream ss(next());
            for (std::string s; std::getline(ss, s, ',');) o.only.insert(s);
        } else {
            std::cerr << "usage: olens_bench_suite [--runs R>=3] [--json F] [--markdown F] [--budget S] [--quick]\n"
                         "                         [--only load,detectors,acdt,kic,quadrics,grid]\n";
            return 2;
        }
    }
    const json mach = machine();
    std::cerr << "machine: " << mach.dump() << std::endl;
    std::string ids;
    for (const auto& d : Registry::instance().detectors()) ids += (ids.empty() ? "" : ", ") + d.id;
    std::cerr << "detectors: " << ids << std::endl;

    const auto t0 = Clock::now();
    if (o.want("load")) benchLoad(o);
    if (o.want("acdt")) benchAcdt(o);
    if (o.want("kic")) benchKic(o);
    if (o.want("quadrics")) benchQuadrics(o);
    if (o.want("detectors")) benchDetectors(o);
    if (o.want("grid")) benchGrid(o);

    json out;
    out["suite"] = "olens_bench_suite";
    out["machine"] = mach;
    out["runs"] = o.runs;
    out["budget_seconds_per_run"] = o.budget;
    out["quick"] = o.quick;
    out["total_seconds"] = secondsSince(t0);
    json detectorsJson = json::array();
    for (const auto& d : Registry::instance().detectors()) detectorsJson.push_back(d.id);
    out["detectors"] = detectorsJson;
    json rows = json::array();
    for (const Row& r : g_rows) rows.push_back(r.toJson());
    out["results"] = rows;
    if (!o.jsonPath.empty()) {
        std::ofstream f(o.jsonPath);
        f << out.dump(1) << "\n";
        if (!f) { std::cerr << "cannot write " << o.jsonPath << "\n"; return 1; }
    }
    if (!o.markdownPath.empty()) {
        std::ofstream f(o.markdownPath);
        writeMarkdown(f, mach, o);
        if (!f) { std::cerr << "cannot write " << o.markdownPath << "\n"; return 1; }
    }
    if (o.jsonPath.empty() && o.markdownPath.empty()) writeMarkdown(std::cout, mach, o);
    return 0;
}
