// outlierlens._core: the pybind11 layer between NumPy and the Qt-free core.
//
// Deliberately thin: every numeric step (normalisation, fit, scores, thresholds, decisions, model
// JSON) is the core's own function, exactly what outlierlens-cli and the GUI call, so that Python
// scores equal CLI scores bit for bit. The scikit-learn estimator classes are generated in Python
// from detectors() (python/outlierlens/_estimators.py); nothing here names a concrete detector.
//
// Arrays: inputs arrive as NumPy float64 arrays; the core takes `const Eigen::MatrixXd&`
// (column-major), so a C-ordered array is copied once on the way in (an F-ordered float64 array
// is still copied because MatrixXd owns its storage). Outputs are Eigen vectors moved into NumPy
// without a copy (pybind11/eigen.h hands the moved object to a capsule). Long calls release the
// GIL: a fitted detector's const methods are thread-safe (Detector.h), so Dask's threaded
// scheduler can score blocks in parallel.
#include "base/AtomicWriter.h"
#include "base/Json.h"
#include "base/Errors.h"
#include "base/Messages.h"
#include "base/ParallelFor.h"
#include "data/Dataset.h"
#include "data/Generators.h"
#include "data/Normalizer.h"
#include "detectors/Detector.h"
#include "metrics/Agreement.h"
#include "metrics/Metrics.h"
#include "metrics/Thresholds.h"
#include "pipeline/FitPipeline.h"
#include "registry/Registry.h"
#include "detectors/TrainingHistory.h"
#include "session/Session.h"
#include "similarity/Verification.h"

#include <pybind11/eigen.h>
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

namespace py = pybind11;

namespace olens {
namespace {

py::dict specToDict(const ParamSpec& s)
{
    py::dict d;
    d["name"] = s.name;
    d["type"] = toString(s.type);
    d["default"] = s.defaultValue;
    d["min"] = std::isinf(s.minValue) ? py::object(py::none()) : py::object(py::float_(s.minValue));
    d["max"] = std::isinf(s.maxValue) ? py::object(py::none()) : py::object(py::float_(s.maxValue));
    d["choices"] = s.choices;
    d["help"] = s.help;
    d["reference"] = s.reference;
    d["auto"] = s.autoRule;     // non-empty: "auto" is accepted, resolved from the data at fit time
    d["paper"] = paperSetting(s);
    return d;
}

/// The registry as plain Python data: what the estimator classes are generated from.
py::list detectorInfos()
{
    py::list out;
    for (const DetectorInfo& info : Registry::instance().detectors()) {
        py::dict d;
        d["id"] = info.id;
        d["title"] = info.title;
        d["summary"] = info.summary;
        d["reference"] = info.reference;
        d["normalization"] = info.normalization;
        d["leave_one_out"] = info.leaveOneOutTraining;
        // Iterative methods record their training path on request (record_history=True).
        d["history_unit"] = Registry::instance().create(info.id)->historyUnit();
        py::list params;
        for (const ParamSpec& s : info.params)
            params.append(specToDict(s));
        d["params"] = params;
        out.append(d);
    }
    return out;
}

py::list generatorInfos()
{
    py::list out;
    for (const GeneratorInfo& g : generators()) {
        py::dict d;
        d["id"] = g.id;
        d["summary"] = g.summary;
        py::list params;
        for (const ParamSpec& s : g.params)
            params.append(specToDict(s));
        d["params"] = params;
        out.append(d);
    }
    return out;
}

ParamAssignments toAssignments(const std::map<std::string, std::string>& params)
{
    return ParamAssignments(params.begin(), params.end());
}

/// A fitted detector with the normaliser fitted on its training rows: the state that
/// `outlierlens-cli score --save-model` writes and sessions store (Detector::toJson() + "normalizer").
class FittedModel {
public:
    FittedModel(std::shared_ptr<const Detector> detector, Normalizer normalizer)
        : m_detector(std::move(detector)), m_normalizer(std::move(normalizer))
    {
    }

    /// The CLI's `score` path: registry parameters, fitPipeline (which fits the normaliser on X).
    static FittedModel fit(const std::string& id, const std::map<std::string, std::string>& params,
                           const std::string& normalization, const Eigen::MatrixXd& X,
                           const ProgressCallback& progress = {}, bool recordHistory = false)
    {
        std::shared_ptr<Detector> detector = Registry::instance().create(id, toAssignments(params));
        detector->setRecordHistory(recordHistory);
        const Normalizer normalizer(parseNormalization(normalization));
        FitOptions options;
        options.explanations = false;
        std::shared_ptr<FitResult> r = fitPipeline(detector, normalizer, X, options, progress);
        FittedModel m(r->detector, r->normalizer);
        m.m_fitSeconds = r->fitSeconds;
        for (const auto& w : r->warnings)
            m.m_warnings.push_back({w.code, w.message});
        return m;
    }

    /// Scores (higher = more outlying) and the detector's own 0/1 decisions for the rows X, by
    /// resultForRows: the stored training scores when X is exactly the training matrix (kNN then
    /// excludes each point from its own neighbours, as the CLI and the GUI do), score(X) otherwise.
    std::pair<Eigen::VectorXd, Eigen::VectorXi> scoreRows(const Eigen::MatrixXd& X) const
    {
        checkColumns(X);
        const std::shared_ptr<FitResult> r = resultForRows(m_detector, m_normalizer, X, false);
        return {r->scores, r->outlier};
    }

    /// Scores of X as new rows, never the stored training scores (scikit-learn's "novelty" use).
    Eigen::VectorXd scoreNew(const Eigen::MatrixXd& X) const
    {
        checkColumns(X);
        Eigen::VectorXd s = m_detector->score(m_normalizer.transform(X));
        requireFiniteScores(s, m_detector->id(), X); // an error naming the cause, never NaN handed out
        return s;
    }

    /// The detector's own 0/1 decisions for X as new rows.
    Eigen::VectorXi predictNew(const Eigen::MatrixXd& X) const
    {
        checkColumns(X);
        return m_detector->isOutlier(m_normalizer.transform(X));
    }

    /// The training scores and decisions of the fit (each training point as the method scores its
    /// own training set, e.g. kNN without the point itself).
    Eigen::VectorXd trainingScores() const { return m_detector->trainingScores(); }
    Eigen::VectorXi trainingDecisions() const
    {
        const Eigen::VectorXd& s = m_detector->trainingScores();
        return (s.array() > m_detector->threshold()).cast<int>();
    }

    std::string toJson(bool withHistory = false) const
    {
        nlohmann::json model = m_detector->toJson(withHistory);
        model["normalizer"] = m_normalizer.toJson();
        return model.dump(1) + "\n"; // the same text as `score --save-model`
    }

    /// Registry::load + Normalizer::fromJson: the readers the GUI's sessions use.
    static FittedModel fromJson(const std::string& text)
    {
        const nlohmann::json j = parseUntrustedJson(text, "model"); // depth-bounded as sessions are
        if (!j.is_object() || !j.contains("normalizer"))
            throw DataError("model: missing \"normalizer\" (expected the JSON of `outlierlens-cli score --save-model`)");
        Normalizer normalizer = Normalizer::fromJson(j.at("normalizer"));
        std::shared_ptr<const Detector> detector = Registry::instance().load(j);
        const int kept = normalizer.isFitted() ? static_cast<int>(normalizer.keptColumns().size())
                                               : detector->inputDimension();
        if (kept != detector->inputDimension())
            throw DataError("model: the normalizer keeps " + std::to_string(kept) + " features, the detector expects "
                            + std::to_string(detector->inputDimension()));
        return FittedModel(std::move(detector), std::move(normalizer));
    }

    int inputColumns() const
    {
        return m_normalizer.isFitted() ? m_normalizer.inputColumns() : m_detector->inputDimension();
    }
    const Detector& detector() const { return *m_detector; }
    const Normalizer& normalizer() const { return m_normalizer; }

    /// The model at recorded training step `index` (Detector::modelAtStep) for the training matrix X.
    FittedModel atStep(int index, const Eigen::MatrixXd& X) const
    {
        checkColumns(X);
        const Eigen::MatrixXd Xn = m_normalizer.transform(X);
        if (!m_detector->trainedOn(Xn))
            throw DataError("at_step needs the matrix the model was fitted on (X differs from it)");
        return FittedModel(std::shared_ptr<const Detector>(m_detector->modelAtStep(index, Xn)), m_normalizer);
    }
    double fitSeconds() const { return m_fitSeconds; }
    /// The fit's label-free warnings (FitDiagnostics) as (code, message); empty for a loaded model.
    const std::vector<std::pair<std::string, std::string>>& warnings() const { return m_warnings; }

private:
    void checkColumns(const Eigen::MatrixXd& X) const
    {
        if (X.cols() != inputColumns())
            throw DataError("X has " + std::to_string(X.cols()) + " features, but the " + m_detector->id()
                            + " model was fitted on " + std::to_string(inputColumns()));
    }

    std::shared_ptr<const Detector> m_detector;
    Normalizer m_normalizer;
    double m_fitSeconds = 0.0;
    std::vector<std::pair<std::string, std::string>> m_warnings;
};

/// JSON → Python via the json module (params and figures are small).
py::object jsonToPy(const nlohmann::json& j)
{
    return py::module_::import("json").attr("loads")(j.dump());
}

Dataset labelledDataset(const Eigen::MatrixXd& X, const Eigen::VectorXd& labels, const Eigen::MatrixXd& sigma)
{
    Dataset d;
    d.source = "python";
    d.X = X;
    d.labels = labels;
    d.labelName = "label";
    d.sigma = sigma;
    for (Eigen::Index j = 0; j < X.cols(); ++j)
        d.featureNames.push_back("x" + std::to_string(j + 1));
    return d;
}

} // namespace
} // namespace olens

PYBIND11_MODULE(_core, m)
{
    using namespace olens;
    m.doc() = "OutlierLens core (C++): registry, fit pipeline, models, generators, metrics, verification. "
              "Use the package 'outlierlens', which builds scikit-learn estimators on top of this.";

    // Errors: bad data and bad parameters are ValueErrors in Python (scikit-learn's convention);
    // NotFittedError becomes outlierlens.NotFittedError (a subclass of sklearn's when present).
    static py::exception<NotFittedError> notFitted(m, "CoreNotFittedError", PyExc_AttributeError);
    static py::exception<DataError> dataError(m, "DataError", PyExc_ValueError);
    static py::exception<ParamError> paramError(m, "ParamError", PyExc_ValueError);
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p)
                std::rethrow_exception(p);
        } catch (const NotFittedError& e) {
            notFitted(displayMessage(e.what()).c_str());
        } catch (const DataError& e) {
            // Messages quote values from files (a detector id with ESC sequences in a session
            // reached the terminal raw, #51): escaped and bounded as the CLI's stderr.
            dataError(displayMessage(e.what()).c_str());
        } catch (const ParamError& e) {
            paramError(displayMessage(e.what()).c_str());
        } catch (const Cancelled& e) {
            PyErr_SetString(PyExc_KeyboardInterrupt, displayMessage(e.what()).c_str());
        }
    });

    m.attr("__version__") = OLENS_VERSION;

    m.def("detectors", &detectorInfos, "The registry: one dict per detector (id, title, summary, reference, "
                                       "normalization, params with name/type/default/min/max/choices/help/reference).");
    m.def("generators", &generatorInfos, "The toy-data generators with their parameter schemas.");
    // The CLI's and the GUI's guarded I/O (base/AtomicWriter) for save_model / load_model.
    m.def(
        "write_text_atomically",
        [](const std::string& path, const std::string& text) {
            py::gil_scoped_release release;
            writeFileAtomically(path, [&](std::ostream& out) { out << text; });
        },
        py::arg("path"), py::arg("text"),
        "Writes text to path through a temporary file and a rename; refuses symlinks, devices, FIFOs, "
        "directories and read-only targets (DataError).");
    m.def(
        "read_text_file",
        [](const std::string& path, std::uint64_t maxBytes) { return readRegularFile(path, maxBytes, "model"); },
        py::arg("path"), py::arg("max_bytes") = kMaxSessionFileBytes,
        "A regular file's text, at most max_bytes; a FIFO, device or directory is refused without blocking "
        "(DataError).");

    py::class_<FittedModel>(m, "FittedModel", "A fitted detector and its fitted input normaliser.")
        .def_static(
            "fit",
            [](const std::string& id, const std::map<std::string, std::string>& params, const std::string& normalization,
               const Eigen::MatrixXd& X, int threads, bool recordHistory) {
                // Ctrl+C in a notebook or shell stops a long fit (kods on 1000 points takes a minute):
                // the core's progress callback polls Python's signal handlers (at most every 100 ms,
                // with the GIL) and asks for cancellation; Cancelled becomes KeyboardInterrupt.
                std::atomic<long long> last{0};
                const ProgressCallback poll = [&last](const ProgressInfo&) {
                    const long long now = std::chrono::duration_cast<std::chrono::milliseconds>(
                                              std::chrono::steady_clock::now().time_since_epoch())
                                              .count();
                    long long prev = last.load();
                    if (now - prev < 100 || !last.compare_exchange_strong(prev, now))
                        return false;
                    py::gil_scoped_acquire gil;
                    if (PyErr_CheckSignals() != 0) {
                        PyErr_Clear();
                        return true;
                    }
                    return false;
                };
                py::gil_scoped_release release;
                const ThreadLimit limit(threads); // n_jobs (0 = every core)
                return FittedModel::fit(id, params, normalization, X, poll, recordHistory);
            },
            py::arg("detector"), py::arg("params"), py::arg("normalization"), py::arg("X"), py::arg("threads") = 0,
            py::arg("record_history") = false,
            "Normalise (fitted on X), fit, training scores and threshold: the CLI's `score` pipeline.")
        .def("score_rows", &FittedModel::scoreRows, py::arg("X"), py::call_guard<py::gil_scoped_release>(),
             "(scores, outlier 0/1) for X; the training scores when X is the training matrix.")
        .def(
            "score_new",
            [](const FittedModel& f, const Eigen::MatrixXd& X, int threads) {
                const ThreadLimit limit(threads);
                return f.scoreNew(X);
            },
            py::arg("X"), py::arg("threads") = 0, py::call_guard<py::gil_scoped_release>(),
            "scores of X treated as new rows (kNN does not exclude a training point from its own neighbours).")
        .def(
            "predict_new",
            [](const FittedModel& f, const Eigen::MatrixXd& X, int threads) {
                const ThreadLimit limit(threads);
                return f.predictNew(X);
            },
            py::arg("X"), py::arg("threads") = 0, py::call_guard<py::gil_scoped_release>(),
            "the detector's own 0/1 decisions for X treated as new rows.")
        .def("training_decisions", &FittedModel::trainingDecisions,
             "0/1 decisions of the training rows (training score > threshold).")
        .def("at_step", &FittedModel::atStep, py::arg("index"), py::arg("X"), py::call_guard<py::gil_scoped_release>(),
             "The model at recorded training step `index` (history), for its training matrix X.")
        .def_property_readonly("history",
                               [](const FittedModel& f) -> py::object {
                                   const auto h = f.detector().history();
                                   if (!h)
                                       return py::none();
                                   py::list steps;
                                   for (const HistoryStep& s : h->steps)
                                       steps.append(py::make_tuple(s.step, s.loss));
                                   py::dict d;
                                   d["unit"] = h->unit;
                                   d["steps"] = steps;
                                   d["bytes"] = h->bytes;
                                   return std::move(d);
                               })
        .def("to_json", &FittedModel::toJson, py::arg("with_history") = false,
             "The model JSON of `outlierlens-cli score --save-model` (with the recorded path when asked).")
        .def_static("from_json", &FittedModel::fromJson, py::arg("text"))
        .def_property_readonly("detector_id", [](const FittedModel& f) { return f.detector().id(); })
        .def_property_readonly("params", [](const FittedModel& f) { return jsonToPy(f.detector().params().toJson()); })
        .def_property_readonly("resolved_params",
                               [](const FittedModel& f) { return jsonToPy(f.detector().params().resolvedJson()); })
        .def_property_readonly("normalization", [](const FittedModel& f) { return toString(f.normalizer().kind()); })
        .def_property_readonly("threshold", [](const FittedModel& f) { return f.detector().threshold(); })
        .def_property_readonly("training_scores", [](const FittedModel& f) { return f.detector().trainingScores(); })
        .def_property_readonly("n_features_in", &FittedModel::inputColumns)
        .def_property_readonly("dimension", [](const FittedModel& f) { return f.detector().inputDimension(); })
        .def_property_readonly("kept_columns", [](const FittedModel& f) { return f.normalizer().keptColumns(); })
        .def_property_readonly("normalizer_warnings", [](const FittedModel& f) { return f.normalizer().warnings(); })
        .def_property_readonly("fit_seconds", &FittedModel::fitSeconds)
        .def_property_readonly("warnings", &FittedModel::warnings,
                               "Label-free warnings of the fit: (code, message) pairs (inverted, duplicates, singular).")
        .def_property_readonly("figures", [](const FittedModel& f) { return f.detector().figures(); })
        .def_property_readonly("traces",
                               [](const FittedModel& f) {
                                   std::map<std::string, std::vector<double>> t;
                                   for (const auto& tr : f.detector().traces())
                                       t[tr.name] = tr.values;
                                   return t;
                               })
        .def("explain",
             [](const FittedModel& f, const Eigen::MatrixXd& X) {
                 return f.detector().explain(f.normalizer().transform(X));
             },
             py::arg("X"));

    // Sessions (core/session): the GUI's file format, so that a notebook can hand data and a
    // fitted model to the explorer (`outlierlens --session`) and read back what was trained there.
    m.def(
        "make_session",
        [](const Eigen::MatrixXd& X, const Eigen::VectorXd& labels, const std::vector<std::string>& names,
           const std::string& detectorId, const std::string& paramsJson, const std::string& normalization,
           const std::string& modelJson) {
            Session s;
            s.embedded = true;
            s.data.source = "python";
            s.data.X = X;
            s.data.featureNames = names;
            if (labels.size() > 0) {
                s.data.labels = labels;
                s.data.labelName = "label";
            }
            if (!detectorId.empty()) {
                SessionDetector d;
                d.id = detectorId;
                d.params = parseUntrustedJson(paramsJson, "params");
                d.normalization = normalization;
                s.detector = d;
            }
            if (!modelJson.empty()) {
                s.model = parseUntrustedJson(modelJson, "model");
                s.threshold = s.model.at("threshold").get<double>();
            }
            // Strict round trip through the core's reader: what we hand the GUI must parse there.
            const std::string text = serializeSession(s);
            parseSession(text);
            return text;
        },
        py::arg("X"), py::arg("labels"), py::arg("feature_names"), py::arg("detector_id"), py::arg("params_json"),
        py::arg("normalization"), py::arg("model_json"),
        "Session JSON (format outlierlens-session) with the rows embedded and, optionally, a detector and a model.");
    m.def(
        "session_model",
        [](const std::string& text, const std::string& sessionPath, bool allowDataOutside) {
            const Session s = parseSession(text);
            DataPermission permission;
            permission.outsideAllowed = allowDataOutside;
            permission.howToAllow = "pass allow_data_outside=True";
            return s.model.is_null() ? std::string() : sessionModel(s, sessionPath, permission).dump();
        },
        py::arg("text"), py::arg("session_path") = std::string(), py::arg("allow_data_outside") = false,
        "The model JSON stored in a session (empty when none), read by the core's strict parser; a knn or lof "
        "model that refers to the session's data gets its training rows back from them.");

    m.def(
        "generate",
        [](const std::string& id, int n, std::uint64_t seed, const std::map<std::string, std::string>& params) {
            Dataset d = generate(id, n, seed, toAssignments(params));
            return py::make_tuple(d.X, d.labels, d.featureNames, d.sigma);
        },
        py::arg("id"), py::arg("n"), py::arg("seed"), py::arg("params"));

    // Metrics (Metrics.h): labels 1 = outlier = positive, scores higher = more outlying.
    m.def(
        "agreement",
        [](const std::vector<Eigen::VectorXd>& scores, const std::vector<Eigen::VectorXi>& flags, Eigen::Index k) {
            const AgreementTable t = agreement(scores, flags, k);
            return py::make_tuple(t.spearman, t.topOverlap, t.flaggedBy);
        },
        py::arg("scores"), py::arg("flags"), py::arg("k"),
        "(spearman, top_overlap, flagged_by) of several detectors' scores and 0/1 decisions on the same rows.");
    m.def(
        "label_free_threshold",
        [](const Eigen::VectorXd& scores, const std::string& rule) {
            return labelFreeThreshold(scores, parseThresholdRule(rule));
        },
        py::arg("scores"), py::arg("rule"), "A threshold from the scores alone: rule = mad, iqr or otsu.");
    m.def("auroc", &auroc, py::arg("scores"), py::arg("labels"));
    m.def("average_precision", &averagePrecision, py::arg("scores"), py::arg("labels"));
    m.def("roc_curve", [](const Eigen::VectorXd& s, const Eigen::VectorXi& y) {
        const Curve c = rocCurve(s, y);
        return py::make_tuple(c.x, c.y, c.thresholds);
    });
    m.def("precision_recall_curve", [](const Eigen::VectorXd& s, const Eigen::VectorXi& y) {
        const Curve c = precisionRecallCurve(s, y);
        return py::make_tuple(c.x, c.y, c.thresholds);
    });
    m.def("confusion", [](const Eigen::VectorXi& pred, const Eigen::VectorXi& y) {
        const Confusion c = confusion(pred, y);
        py::dict d;
        d["tp"] = c.tp, d["fp"] = c.fp, d["tn"] = c.tn, d["fn"] = c.fn;
        d["precision"] = precision(c), d["recall"] = recall(c), d["f1"] = f1(c);
        d["tnr"] = tnr(c), d["npv"] = npv(c), d["f1_bar"] = f1Bar(c);
        return d;
    });
    m.def("equal_error_rate", &equalErrorRate, py::arg("similarity"), py::arg("genuine"));
    m.def("fnr_at_fpr", &fnrAtFpr, py::arg("similarity"), py::arg("genuine"), py::arg("target_fpr"));
    m.def("msre", &msre, py::arg("X"), py::arg("X_hat"));

    m.def(
        "verify",
        [](const Eigen::MatrixXd& trainX, const Eigen::VectorXd& trainY, const Eigen::MatrixXd& trainSigma,
           const Eigen::MatrixXd& testX, const Eigen::VectorXd& testY, const Eigen::MatrixXd& testSigma,
           const std::string& method, int dim, long long pairs, std::uint64_t seed, int maxIter, double tol) {
            VerificationOptions vo;
            if (method == "uajb")
                vo.model.method = JointBayesianParams::Method::UaJb;
            else if (method == "jb")
                vo.model.method = JointBayesianParams::Method::Jb;
            else
                throw ParamError("method: expected uajb or jb, got '" + method + "'");
            vo.model.dim = dim;
            vo.model.maxIter = maxIter;
            vo.model.tol = tol;
            vo.maxPairs = pairs;
            vo.seed = seed;
            VerificationResult r;
            {
                py::gil_scoped_release release;
                r = runVerification(labelledDataset(trainX, trainY, trainSigma),
                                    labelledDataset(testX, testY, testSigma), vo);
            }
            py::dict d;
            d["eer"] = r.eer, d["fnr_at_fpr_0.001"] = r.fnrAtFpr001, d["auc"] = r.auc;
            d["dim"] = r.dim, d["n_pairs"] = static_cast<long long>(r.pairs.size());
            d["total_pairs"] = r.totalPairs, d["genuine_pairs"] = r.genuinePairs, d["sampled"] = r.sampled;
            d["similarity"] = r.similarity, d["genuine"] = r.genuine;
            d["fit_seconds"] = r.fitSeconds, d["score_seconds"] = r.scoreSeconds;
            Eigen::Matrix<long long, Eigen::Dynamic, 2, Eigen::RowMajor> idx(static_cast<Eigen::Index>(r.pairs.size()), 2);
            for (std::size_t i = 0; i < r.pairs.size(); ++i)
                idx(static_cast<Eigen::Index>(i), 0) = r.pairs[i].first,
                                                 idx(static_cast<Eigen::Index>(i), 1) = r.pairs[i].second;
            d["pairs"] = idx;
            return d;
        },
        py::arg("train_X"), py::arg("train_labels"), py::arg("train_sigma"), py::arg("test_X"),
        py::arg("test_labels"), py::arg("test_sigma"), py::arg("method"), py::arg("dim"), py::arg("pairs"),
        py::arg("seed"), py::arg("max_iter"), py::arg("tol"));
}
