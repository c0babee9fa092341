#include "document/DataDocument.h"

#include <atomic>

#include "base/Stats.h"

#include "data/DataLoader.h"
#include "base/Errors.h"
#include "detectors/TrainingHistory.h"
#include "display/SelectionGeometry.h"

#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <vector>
#include <utility>
#include <limits>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace olens {

void DataDocument::setDataset(Dataset data, const QString& path)
{
    setDataset(std::make_shared<const Dataset>(std::move(data)), path);
}

void DataDocument::setDataset(std::shared_ptr<const Dataset> data, const QString& path)
{
    if (!data)
        throw std::invalid_argument("DataDocument::setDataset: no data");
    // A transaction: the views build their projections and statistics from the new data inside
    // datasetChanged. If any of them fails (bad_alloc in a projection, …) the previous data,
    // result, threshold and selection come back, every observer rebuilds from them, and the error
    // reaches the caller (File → Open reports it): the document never holds data the window does
    // not show.
    const bool stepWasShown = leaveStepViews();
    std::shared_ptr<const Dataset> oldData = m_data;
    const QString oldPath = m_path;
    const bool oldEdited = m_edited;
    const int oldSelected = m_selected;
    std::vector<int> oldSelection = m_selection;
    const double oldThreshold = m_threshold;
    std::shared_ptr<const FitResult> oldResult = m_result;
    m_data = std::move(data);
    m_path = path;
    m_edited = false;
    m_userThreshold = false;
    m_selected = -1;
    m_selection.clear();
    m_result.reset();
    m_live.reset();
    m_liveNorm.reset();
    m_ranking.clear();
    Agreement oldAgreement = std::exchange(m_agreement, Agreement{}); // counted on the previous rows
    try {
        emit datasetChanged();
    } catch (...) {
        m_data = std::move(oldData);
        m_path = oldPath;
        m_edited = oldEdited;
        installResult(std::move(oldResult));
        m_threshold = oldThreshold;
        m_selected = oldSelected;
        m_selection = std::move(oldSelection);
        m_agreement = std::move(oldAgreement);
        emit datasetChanged();
        emit resultChanged();
        emit thresholdChanged(m_threshold);
        emit selectionChanged(m_selected);
        emit pointSelectionChanged();
        throw;
    }
    emit resultChanged();
    emit selectionChanged(-1);
    emit pointSelectionChanged();
    if (stepWasShown)
        emit shownStepChanged(-1);
    if (oldAgreement.detectors.size() > 0)
        emit agreementChanged();
}

void DataDocument::setAgreement(Agreement a)
{
    if (a.detectors.size() < 2 || a.flaggedBy.size() != m_data->rows())
        a = Agreement{};
    if (a.detectors == m_agreement.detectors && a.quantile == m_agreement.quantile
        && a.flaggedBy.size() == m_agreement.flaggedBy.size() && a.flaggedBy == m_agreement.flaggedBy)
        return;
    m_agreement = std::move(a);
    emit agreementChanged();
}

void DataDocument::editDataset(Dataset data, std::shared_ptr<const FitResult> adjusted)
{
    editDataset(std::make_shared<const Dataset>(std::move(data)), std::move(adjusted));
}

void DataDocument::editDataset(std::shared_ptr<const Dataset> shared, std::shared_ptr<const FitResult> adjusted)
{
    if (!shared)
        throw std::invalid_argument("DataDocument::editDataset: no data");
    const Dataset& data = *shared;
    const int selected = m_selected < data.rows() ? m_selected : -1;
    // Rows that still exist stay selected (points added, moved, or the last ones removed); an
    // edit that renumbers rows (delete) sets its own selection afterwards.
    std::vector<int> selection = normalizedSelection(m_selection, static_cast<int>(data.rows()));
    // An edit adjusts the trained result (its callers adjust trainedResult()), not a shown step.
    const bool stepWasShown = leaveStepViews();
    if (stepWasShown) {
        m_threshold = m_trainedThreshold;
        m_userThreshold = m_trainedUserThreshold;
    }
    const double threshold = m_threshold;
    m_data = std::move(shared);
    m_edited = true;
    m_live.reset();
    m_liveNorm.reset();
    // The adjusted result is in place before anyone hears of the new data, so views never see the
    // data without their result (no flicker of legends and colour bars while dragging).
    installResult(std::move(adjusted), true); // an edit keeps the threshold (and whether the user set it)
    if (m_result)
        m_threshold = threshold;
    m_selected = selected;
    m_selection = std::move(selection);
    // The compare panels' counts were of the rows before the edit (a moved point keeps its row):
    // dropped until the panels, which retrain on the edit, publish new ones.
    const bool hadAgreement = std::exchange(m_agreement, Agreement{}).detectors.size() > 0;
    m_inEdit = true;
    emit datasetChanged();
    m_inEdit = false;
    if (hadAgreement)
        emit agreementChanged();
    emit resultChanged();
    emit thresholdChanged(m_threshold);
    emit selectionChanged(m_selected);
    emit pointSelectionChanged();
    if (stepWasShown)
        emit shownStepChanged(-1);
}

std::shared_ptr<const FitResult> adjustResult(const FitResult& r, const Dataset& data, const std::vector<int>& keep)
{
    try {
        return rescoreAfterEdit(r, data.X, keep);
    } catch (const std::exception&) {
        return nullptr; // e.g. the detector cannot score the new point: show no result until retrained
    }
}

void DataDocument::setResult(std::shared_ptr<const FitResult> result, ThresholdPolicy policy)
{
    leaveTraining();
    if (leaveStep()) {
        m_threshold = m_trainedThreshold; // the policy applies to the trained result's threshold
        m_userThreshold = m_trainedUserThreshold;
    }
    installResult(std::move(result), policy == ThresholdPolicy::KeepUserThreshold && m_userThreshold);
    m_live.reset(); // a new result ends what a training streamed
    m_liveNorm.reset();
    emit resultChanged();
    emit thresholdChanged(m_threshold);
    if (m_step < 0)
        emit shownStepChanged(-1);
}

bool DataDocument::leaveStep()
{
    if (m_step < 0)
        return false;
    m_result = std::move(m_trained);
    m_trained.reset();
    m_step = -1;
    return true;
}

bool DataDocument::leaveStepViews()
{
    const bool training = leaveTraining();
    return leaveStep() || training;
}

bool DataDocument::leaveTraining()
{
    if (!m_trainingView)
        return false;
    m_trainingView = false;
    installResult(std::exchange(m_setAside, nullptr), true); // the training goes on underneath (a replay while paused)
    return true;
}

DataDocument::Shown DataDocument::shown() const
{
    if (m_trainingView)
        return m_trainingStep;
    Shown s;
    const auto trained = trainedResult();
    if (!trained)
        return s;
    s.kind = m_step >= 0 ? Shown::Kind::Recorded : Shown::Kind::Trained;
    const auto history = trained->detector ? trained->detector->history() : nullptr;
    if (history && !history->empty()) {
        s.unit = QString::fromStdString(history->unit);
        s.of = history->steps.back().step;
        s.step = m_step >= 0 && m_step < history->size() ? history->steps[static_cast<std::size_t>(m_step)].step : s.of;
    }
    return s;
}

void DataDocument::showTrainingStep(int step, int of, const QString& unit)
{
    const bool entering = !m_trainingView;
    if (!entering && m_trainingStep.step == step && m_trainingStep.of == of && m_trainingStep.unit == unit)
        return;
    if (entering) {
        if (leaveStep()) {
            m_threshold = m_trainedThreshold;
            m_userThreshold = m_trainedUserThreshold;
        }
        m_setAside = m_result;
        m_result.reset(); // the trained model's scores are not the training's: none until it ends
        m_ranking.clear();
        m_trainingView = true;
    }
    m_trainingStep = {Shown::Kind::Training, step, of, unit};
    if (entering)
        emit resultChanged();
    emit shownStepChanged(-1);
}

void DataDocument::endTrainingView()
{
    if (!leaveTraining())
        return;
    emit resultChanged();
    emit thresholdChanged(m_threshold);
    emit shownStepChanged(m_step);
}

void DataDocument::showStep(int index, std::shared_ptr<const FitResult> stepResult)
{
    const bool trainingWasShown = leaveTraining(); // a replay during a paused step training
    if (index < 0 || !stepResult || stepResult->scores.size() != m_data->rows()) {
        if (!leaveStep()) {
            if (trainingWasShown) {
                emit resultChanged();
                emit shownStepChanged(-1);
            }
            return;
        }
        installResult(m_result, true);
        m_threshold = m_trainedThreshold;
        m_userThreshold = m_trainedUserThreshold;
    } else {
        if (m_step < 0) {
            m_trained = m_result;
            m_trainedThreshold = m_threshold;
            m_trainedUserThreshold = m_userThreshold;
        }
        installResult(std::move(stepResult)); // a paused step-by-step training's live geometry stays, hidden
        m_step = index;
    }
    emit resultChanged();
    emit thresholdChanged(m_threshold);
    emit shownStepChanged(m_step);
}

void DataDocument::installResult(std::shared_ptr<const FitResult> result, bool keepThreshold)
{
    if (result && result->scores.size() != m_data->rows())
        result.reset(); // a result for other data must never be shown
    m_result = std::move(result);
    std::vector<int>().swap(m_ranking); // its memory too (80 MB at 20 M rows)
    if (m_result) {
        // Descending score, ties by row: computed with the scores on the worker when it could be
        // (a million rows: 0.1 s no longer on the GUI thread), else here.
        const Eigen::VectorXd& s = m_result->scores;
        // The result's own is used as it is (ranking()): a copy was 80 MB at 20 M rows (issue #54).
        if (m_result->ranking.size() != static_cast<std::size_t>(s.size()))
            m_ranking = rankByScore(s);
        if (!keepThreshold) {
            m_threshold = m_result->threshold;
            m_userThreshold = false;
        }
    }
}

const std::vector<int>& DataDocument::ranking() const
{
    if (m_result && m_result->ranking.size() == static_cast<std::size_t>(m_result->scores.size()))
        return m_result->ranking;
    return m_ranking;
}

void DataDocument::setThreshold(double t)
{
    if (t == m_threshold)
        return;
    m_threshold = t;
    m_userThreshold = m_result && t != m_result->threshold;
    emit thresholdChanged(t);
}

void DataDocument::setTrainingSetup(const TrainingSetup& setup)
{
    if (setup == m_setup)
        return;
    m_setup = setup;
    emit trainingSetupChanged();
}

void DataDocument::setTopK(int k)
{
    k = std::max(0, k);
    if (k == m_topK)
        return;
    m_topK = k;
    emit topKChanged(k);
}

void DataDocument::setLiveGeometry(std::shared_ptr<const Geometry> g, std::shared_ptr<const Normalizer> normalizer)
{
    m_live = std::move(g);
    m_liveNorm = m_live ? std::move(normalizer) : nullptr;
    emit liveGeometryChanged();
}

void DataDocument::setSelectedPoint(int index)
{
    if (index < -1 || index >= m_data->rows())
        index = -1;
    std::vector<int> selection;
    if (index >= 0)
        selection.push_back(index);
    const bool setChanged = selection != m_selection;
    const bool currentChanged = index != m_selected;
    m_selection = std::move(selection);
    m_selected = index;
    if (setChanged)
        emit pointSelectionChanged();
    if (currentChanged)
        emit selectionChanged(index);
}

bool DataDocument::isSelected(int index) const
{
    return std::binary_search(m_selection.begin(), m_selection.end(), index);
}

void DataDocument::setPointSelection(std::vector<int> rows, int current)
{
    rows = normalizedSelection(std::move(rows), static_cast<int>(m_data->rows()));
    if (current == kKeepCurrent)
        current = m_selected;
    if (!std::binary_search(rows.begin(), rows.end(), current))
        current = -1;
    const bool setChanged = rows != m_selection;
    const bool currentChanged = current != m_selected;
    m_selection = std::move(rows);
    m_selected = current;
    if (setChanged)
        emit pointSelectionChanged();
    if (currentChanged)
        emit selectionChanged(current);
}

namespace {
std::atomic<std::uint64_t> g_inputLimit{LoadOptions{}.maxBytes};
} // namespace

std::uint64_t inputLimitBytes() { return g_inputLimit.load(); }
void setInputLimitBytes(std::uint64_t bytes) { g_inputLimit.store(bytes); }

Dataset loadCloudFile(const QString& path)
{
    if (!QFileInfo::exists(path))
        throw DataError("cannot open '" + path.toStdString() + "': no such file");
    // One loader for CLI and GUI: PLY (core/data/PlyReader) and text tables, bounded and validated.
    LoadOptions o;
    o.maxBytes = inputLimitBytes();
    return loadDataset(QFile::encodeName(path).toStdString(), o);
}

} // namespace olens
