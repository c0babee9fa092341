#include "detectors/svm/OcSvmDetector.h"

#include "base/Errors.h"
#include "detectors/DetectorInfo.h"
#include "base/Json.h"

#include <nlohmann/json.hpp>
#include <svm.h>

#include <chrono>
#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <tuple>
#include <thread>
#include <memory>
#include <sstream>
#include <vector>

namespace olens {

namespace {
/// One libsvm solve and what it reads, owned jointly by the fit and the solver's thread.
struct SolverJob {
    std::vector<svm_node> nodes;
    std::vector<svm_node*> rows;
    std::vector<double> y;
    svm_problem prob{};
    svm_parameter par{};
    std::mutex mutex;
    std::condition_variable finished;
    svm_model* model = nullptr;
    std::exception_ptr error; // thrown by svm_train (bad_alloc): rethrown to the fit, never terminate()
    bool done = false;
    bool abandoned = false;

    /// Waits until the solve is done, asking `progress` five times a second. When it asks to stop,
    /// an `owned` job is abandoned (it frees its model itself) and the Cancelled is rethrown.
    void wait(const ProgressReporter& progress, const std::string& message, bool owned)
    {
        std::unique_lock<std::mutex> lock(mutex);
        while (!finished.wait_for(lock, std::chrono::milliseconds(200), [this] { return done; })) {
            lock.unlock();
            try {
                progress.report(0.05, message, std::nullopt, nullptr, true);
            } catch (...) {
                lock.lock();
                if (owned) {
                    abandoned = true;
                    if (done && model)
                        svm_free_and_destroy_model(&model);
                }
                throw;
            }
            lock.lock();
        }
    }
};

/// The solve last started: a fit waits for an abandoned one to end before it starts its own, so
/// that cancelled fits (Esc and retrain, Ctrl+C and fit again) never run side by side, each with a
/// core and up to 200 MB of kernel cache.
std::mutex gLastSolveMutex;
std::weak_ptr<SolverJob> gLastSolve;

const char* kPaper = "Schölkopf et al., Neural Computation 13 (2001)";
void silent(const char*) {} // libsvm prints its iterations to stdout otherwise
} // namespace

DetectorInfo OcSvmDetector::info()
{
    DetectorInfo d;
    d.id = "ocsvm";
    d.title = "One-class SVM (libsvm)";
    d.summary = "Score = ρ − Σ α_i k(x_i, x): how far x lies outside the region the ν-one-class SVM "
                "encloses (libsvm's solver, as scikit-learn's OneClassSVM); with rbf also the SVDD.";
    d.reference = std::string(kPaper) + " eq. 3-4; GODS paper sec. 7 (OC-SVM, SVDD baselines)";
    d.normalization = "zscore";
    d.params = {
        makeParamSpec("kernel", ParamType::Choice, "rbf", 0, 0,
                      "rbf exp(−γ‖x−y‖²), poly (γxᵀy + coef0)^degree, linear xᵀy.",
                      "libsvm kernels; scikit-learn default rbf", {"rbf", "poly", "linear"}),
        makeParamSpec("nu", ParamType::Real, "0.5", 1e-6, 1.0,
                      "ν: at most this fraction of the training points lies outside the region and at least "
                      "this fraction are support vectors (prop. 4). 0.5 (scikit-learn's default) ranks the real "
                      "data sets of the README better than ν near the outlier share (mean AUROC 0.71 vs 0.59 at "
                      "0.1: a small ν leaves few support vectors and a coarse score); the decision still flags "
                      "the contamination share.",
                      std::string(kPaper) + " prop. 4; scikit-learn default 0.5"),
        makeParamSpec("gamma", ParamType::Real, "0", 0, 1e12,
                      "Kernel coefficient γ of rbf and poly; 0 = scikit-learn's 'scale', 1 / (p · variance of all "
                      "entries of the training matrix) (the value used is in the figures).",
                      "scikit-learn gamma='scale' (a baseline: its own default, no paper setting)"),
        makeParamSpec("degree", ParamType::Int, "3", 1, 10, "Degree of the poly kernel.", "libsvm default 3"),
        makeParamSpec("coef0", ParamType::Real, "0", -1e6, 1e6, "Constant term of the poly kernel.",
                      "libsvm default 0"),
        makeParamSpec("tol", ParamType::Real, "1e-3", 1e-12, 1.0, "Stopping tolerance of libsvm's SMO solver.",
                      "libsvm / scikit-learn default 1e-3"),
        contaminationParam("score > 0: outside the learned support, Schölkopf et al. eq. 4"),
    };

    d.make = [](ParamSet p) { return std::make_unique<OcSvmDetector>(std::move(p)); };
    return d;
}

Eigen::MatrixXd OcSvmDetector::kernel(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) const
{
    Eigen::MatrixXd G = A * B.transpose();
    if (m_kernel == "linear")
        return G;
    if (m_kernel == "poly") {
        const Eigen::ArrayXXd base = m_gamma * G.array() + m_coef0;
        return base.pow(m_degree).matrix();
    }
    // exp(−γ‖a − b‖²) with ‖a − b‖² = ‖a‖² + ‖b‖² − 2aᵀb, clamped at 0 against rounding.
    const Eigen::VectorXd an = A.rowwise().squaredNorm();
    const Eigen::RowVectorXd bn = B.rowwise().squaredNorm().transpose();
    G *= -2.0;
    G.colwise() += an;
    G.rowwise() += bn;
    return (-m_gamma * G.array().max(0.0)).exp().matrix();
}

Eigen::VectorXd OcSvmDetector::doFit(const Eigen::MatrixXd& X, const Progress& progress)
{
    const Eigen::Index n = X.rows(), p = X.cols();
    const std::string kind = params().getChoice("kernel");
    double gamma = 1.0;
    if (kind != "linear") {
        const double mean = X.mean();
        const double var = (X.array() - mean).square().mean();
        gamma = params().getReal("gamma");
        if (gamma == 0.0)
            gamma = var > 0.0 ? 1.0 / (static_cast<double>(p) * var) : 1.0;
    }
    // libsvm's problem: dense rows as (index, value) nodes terminated by index −1. It lives in a
    // job shared with the solver's thread (below), so that an abandoned solve still owns its data.
    auto job = std::make_shared<SolverJob>();
    job->nodes.resize(static_cast<std::size_t>(n * (p + 1)));
    job->rows.resize(static_cast<std::size_t>(n));
    job->y.assign(static_cast<std::size_t>(n), 1.0);
    for (Eigen::Index i = 0; i < n; ++i) {
        svm_node* r = &job->nodes[static_cast<std::size_t>(i * (p + 1))];
        job->rows[static_cast<std::size_t>(i)] = r;
        for (Eigen::Index j = 0; j < p; ++j)
            r[j] = {static_cast<int>(j + 1), X(i, j)};
        r[p] = {-1, 0.0};
    }
    svm_problem& prob = job->prob;
    prob.l = static_cast<int>(n);
    prob.y = job->y.data();
    prob.x = job->rows.data();
    svm_parameter& par = job->par;
    par.svm_type = ONE_CLASS;
    par.kernel_type = kind == "rbf" ? RBF : (kind == "poly" ? POLY : LINEAR);
    par.degree = params().getInt("degree");
    par.gamma = gamma;
    par.coef0 = params().getReal("coef0");
    par.cache_size = 200;
    par.eps = params().getReal("tol");
    par.nu = params().getReal("nu");
    par.shrinking = 1;
    if (const char* bad = svm_check_parameter(&prob, &par))
        throw ParamError(std::string("ocsvm: libsvm refuses the parameters: ") + bad);
    progress.report(0.05, "ocsvm: libsvm's SMO solver");
    svm_set_print_string_function(&silent);
    // libsvm's solver has no hook to stop it: it runs on its own thread and this one waits, asking
    // the progress callback five times a second. Esc, --timeout and Python's Ctrl+C then stop the
    // fit within a second; the abandoned solve finishes in the background and frees itself (it
    // ignored --timeout and Ctrl+C for minutes on 200 000 rows, #51).
    std::shared_ptr<SolverJob> previous;
    {
        std::lock_guard<std::mutex> lock(gLastSolveMutex);
        previous = gLastSolve.lock();
        gLastSolve = job;
    }
    if (previous)
        previous->wait(progress, "ocsvm: waiting for a cancelled solve to end", false);
    std::thread([job] {
        svm_model* m = nullptr;
        std::exception_ptr error;
        try {
            m = svm_train(&job->prob, &job->par);
        } catch (...) {
            error = std::current_exception();
        }
        std::lock_guard<std::mutex> lock(job->mutex);
        job->model = m;
        job->error = error;
        job->done = true;
        if (job->abandoned && job->model)
            svm_free_and_destroy_model(&job->model);
        job->finished.notify_all();
    }).detach();
    job->wait(progress, "ocsvm: libsvm's SMO solver", true);
    if (job->error)
        std::rethrow_exception(job->error);
    std::unique_ptr<svm_model, void (*)(svm_model*)> model(job->model, [](svm_model* m) {
        if (m)
            svm_free_and_destroy_model(&m);
    });
    job->model = nullptr;
    if (!model || model->l <= 0)
        throw DataError("ocsvm: libsvm returned no support vectors");
    progress.report(0.9, "ocsvm: scoring the training rows");
    Eigen::MatrixXd sv(model->l, p);
    Eigen::VectorXd alpha(model->l);
    for (int s = 0; s < model->l; ++s) {
        sv.row(s).setZero();
        for (const svm_node* e = model->SV[s]; e->index != -1; ++e)
            sv(s, e->index - 1) = e->value;
        alpha(s) = model->sv_coef[0][s];
    }
    // The new model is installed to score with, and the old one put back if the scoring is stopped:
    // a fitted detector keeps its previous state on any exception (Detector::fit).
    auto old = std::make_tuple(m_sv, m_alpha, m_rho, m_gamma, m_coef0, m_degree, m_kernel);
    m_sv = std::move(sv);
    m_alpha = std::move(alpha);
    m_rho = model->rho[0];
    m_gamma = gamma;
    m_coef0 = par.coef0;
    m_degree = par.degree;
    m_kernel = kind;
    // The training rows in blocks, each a stop point (200 000 rows × thousands of support vectors).
    Eigen::VectorXd s(n);
    constexpr Eigen::Index kRows = 2048; // doScore's block: the same sums, bit for bit
    try {
        for (Eigen::Index r0 = 0; r0 < n; r0 += kRows) {
            const Eigen::Index h = std::min(kRows, n - r0);
            s.segment(r0, h) = doScore(X.middleRows(r0, h));
            progress.report(0.9 + 0.1 * static_cast<double>(r0 + h) / static_cast<double>(n),
                            "ocsvm: scoring the training rows");
        }
    } catch (...) {
        std::tie(m_sv, m_alpha, m_rho, m_gamma, m_coef0, m_degree, m_kernel) = std::move(old);
        throw;
    }
    // Outside = f < 0 beyond the solver's tolerance (the margin support vectors have f = 0 only up to it).
    m_outside = static_cast<double>((s.array() > 10.0 * par.eps).count()) / static_cast<double>(n);
    return s;
}

Eigen::VectorXd OcSvmDetector::doScore(const Eigen::MatrixXd& X) const
{
    Eigen::VectorXd out(X.rows());
    constexpr Eigen::Index block = 2048; // bounded kernel blocks
    for (Eigen::Index r0 = 0; r0 < X.rows(); r0 += block) {
        const Eigen::Index h = std::min(block, X.rows() - r0);
        out.segment(r0, h) = (m_rho - (kernel(X.middleRows(r0, h), m_sv) * m_alpha).array()).matrix();
    }
    return out;
}

std::map<std::string, double> OcSvmDetector::figures() const
{
    if (!isFitted())
        return {};
    std::map<std::string, double> f = {{"support_vectors", static_cast<double>(m_sv.rows())},
                                       {"rho", m_rho},
                                       {"fraction_outside", m_outside}};
    if (m_kernel != "linear")
        f["gamma"] = m_gamma;
    return f;
}

nlohmann::json OcSvmDetector::saveState() const
{
    return {{"sv_rows", m_sv.rows()},
            {"sv", std::vector<double>(m_sv.data(), m_sv.data() + m_sv.size())},
            {"alpha", std::vector<double>(m_alpha.data(), m_alpha.data() + m_alpha.size())},
            {"rho", m_rho},
            {"gamma", m_gamma},
            {"fraction_outside", m_outside}};
}

void OcSvmDetector::loadState(const nlohmann::json& state)
{
    const auto l = static_cast<Eigen::Index>(jsonInt(state.at("sv_rows"), "ocsvm model: sv_rows"));
    const auto sv = state.at("sv").get<std::vector<double>>();
    const auto alpha = state.at("alpha").get<std::vector<double>>();
    const int p = inputDimension();
    if (l <= 0 || static_cast<Eigen::Index>(sv.size()) != l * p || static_cast<Eigen::Index>(alpha.size()) != l)
        throw DataError("ocsvm model: " + std::to_string(sv.size()) + " stored values do not form " + std::to_string(l)
                        + " support vectors of dimension " + std::to_string(p));
    m_sv = Eigen::Map<const Eigen::MatrixXd>(sv.data(), l, p);
    m_alpha = Eigen::Map<const Eigen::VectorXd>(alpha.data(), l);
    m_rho = state.at("rho").get<double>();
    m_gamma = state.at("gamma").get<double>();
    m_outside = state.value("fraction_outside", 0.0);
    m_kernel = params().getChoice("kernel");
    m_coef0 = params().getReal("coef0");
    m_degree = params().getInt("degree");
    if (!std::isfinite(m_rho) || !(m_gamma > 0) || !m_sv.allFinite() || !m_alpha.allFinite())
        throw DataError("ocsvm model: non-finite values or gamma <= 0");
}

std::optional<double> OcSvmDetector::naturalThreshold() const
{
    return 0.0; // eq. 4: f(x) = sgn(Σ αᵢ k(xᵢ, x) − ρ); the score is ρ − Σ αᵢ k(xᵢ, x)
}

} // namespace olens
