#pragma once
// Sessions: everything needed to bring the app back exactly as it was — the data (a file path, or
// the rows themselves when they were generated or edited), the normalisation, the detector and its
// parameters, the fitted model, the threshold, the camera, the view settings and the compare
// layout. Stored as versioned JSON ("format": "outlierlens-session").
//
// Parsing and validation live here, Qt-free, so that the CLI, the GUI and the fuzzer share one
// strict reader: any malformed, truncated or hostile file yields DataError naming the JSON path
// ("session /detector/params: ..."), never a crash. The GUI-only parts (camera, view settings) are
// validated for shape here and interpreted by the GUI.
#include "data/Dataset.h"
#include "data/FitSubset.h"
#include "detectors/Detector.h"
#include "data/Normalizer.h"

#include <array>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace olens {

struct SessionCamera {
    bool valid = false;
    std::array<double, 3> position{0, 0, 1};
    std::array<double, 3> focalPoint{0, 0, 0};
    std::array<double, 3> viewUp{0, 1, 0};
    double parallelScale = 1.0; ///< 2D (parallel projection) zoom
    double viewAngle = 30.0;    ///< 3D (perspective) zoom, degrees
    bool parallel = false;      ///< 3D orthographic projection ("projection": "parallel"; absent = perspective)
};

/// A detector choice: id, its parameters (validated against the registry's schema on parse) and
/// the input normalisation.
struct SessionDetector {
    std::string id;
    nlohmann::json params = nlohmann::json::object();
    std::string normalization = "none";
};

/// One step of a lesson: what to say, and what to show while it is said.
struct LessonStep {
    static constexpr int kTop = -2; ///< highlight: the point ranked first at the shown step
    std::string text;
    /// The recorded training step to show (epoch, iteration, merge; the nearest recorded one at or
    /// before it); -1 = leave the timeline as it is, kLive = the trained model.
    int atStep = -1;
    static constexpr int kLive = -2;
    /// The row to select and centre on, kTop, or -1 = none.
    int highlight = -1;
};

/// A teaching preset's lesson, or one a teacher saved with a session: steps the class goes through
/// with Next / Back (PageDown / PageUp, what a presenter's remote sends).
struct Lesson {
    std::string title;
    std::vector<LessonStep> steps;
    int current = 0; ///< the step shown
    bool empty() const { return steps.empty(); }
};

struct Session {
    /// 2: "fit_on", "training_rows" and "selection" (version-1 files load with all rows, no selection).
    /// 3: long arrays of doubles in "model" and "data" packed as {"f64le": base64, "n"} (base/Json
    /// packArrays; version-2 files, all text, load as before).
    /// 4: a knn or lof model may leave its training rows to the session's data ("rows_by_reference",
    /// put back by modelWithTrainingRows); an older reader refuses the file as newer instead of
    /// failing on a model without its points.
    static constexpr int kVersion = 4;

    /// Data: a file (path + label column), or embedded rows (generated or edited data, or a file's
    /// rows saved with the session so that it can be handed out: dataPath then names where they
    /// came from).
    std::string dataPath;
    /// The data file relative to the session file's folder ("relative_path"): a session moved
    /// together with its data finds them there.
    std::string dataRelativePath;
    std::string labelColumn = "label";
    bool embedded = false;
    Dataset data; ///< only when embedded

    std::optional<SessionDetector> detector;
    /// Detector::toJson() of the fitted model plus "normalizer" (Normalizer::toJson()); null if none.
    nlohmann::json model;
    std::optional<double> threshold;
    int topK = 0;

    /// What the next training fits on (the Detector dock's "Fit on"; Rows without rows = the selection).
    FitSubset fitOn;
    /// The rows the model was fitted on, when a part of the data (FitResult::trainingRows); empty = all.
    std::vector<int> trainingRows;
    /// The selected points (box, lasso, Ranking): sorted, distinct row indices.
    std::vector<int> selection;

    SessionCamera camera;
    /// View settings (colour by, map, point size, grid, layers, ...): a flat object of scalars.
    nlohmann::json view = nlohmann::json::object();

    /// Compare mode: the detectors shown side by side and the shared threshold quantile.
    std::vector<SessionDetector> compare;
    double compareQuantile = 0.95;
    bool compareActive = false; ///< the compare page was showing

    /// The lesson shown with the data (none: no "lesson" member).
    std::optional<Lesson> lesson;
    /// View → Classroom: on, and the docks kept visible in it (by object name).
    bool classroom = false;
    std::vector<std::string> classroomPanels;
    /// The recorded training step the timeline showed (the detector's step number), -1 = the
    /// trained model: a reopened session shows the same step (issue #52).
    int shownStep = -1;
    /// An autosave's: the session file it stands for (empty: unsaved work). A restored autosave
    /// takes this name back instead of the autosave's own (issue #52: "crashed.olens.json").
    std::string origin;
};

/// Pretty-printed JSON text.
/// The largest session or model file any front end reads (GUI, CLI, Python): a knn model of a
/// million 3-D points is ~100 MB; anything larger is refused before it is read.
constexpr std::uint64_t kMaxSessionFileBytes = std::uint64_t(256) << 20;
/// Compare mode's most panels (a 3 × 3 grid): a session with more is refused, naming the limit (a
/// session with 16 was read and came back with fewer, without a word, #51).
constexpr int kMaxComparePanels = 9;

std::string serializeSession(const Session& session);
/// The same text written to `out` as it is made, consuming the session's model (its long arrays
/// packed in place): for big models, no whole second copy of the model or of the text.
void writeSession(Session&& session, std::ostream& out);
/// Strict parse; throws DataError ("session /path: reason") on anything malformed or unknown.
Session parseSession(const std::string& text);

struct RestoredModel {
    std::unique_ptr<Detector> detector;
    Normalizer normalizer;
};
/// Rebuilds the fitted model of a session for data with `inputColumns` features; throws DataError
/// when the model is garbled or does not fit the data (dimension mismatch).
RestoredModel restoreSessionModel(const nlohmann::json& model, int inputColumns);

/// A fitted model as a session stores it (Detector::toJson + "normalizer"), for a session whose data
/// are `data` (raw; the model fitted on `trainingRows` of them, empty = all): a memorising model
/// (knn, lof) refers to those rows instead of copying them when they are the very rows it was fitted
/// on (checked by fingerprint, O(n·p)); otherwise, or with `data` null, the whole model. Its long
/// arrays are packed as the session file holds them (base/Json.h's packArrays; parseSession gives
/// them back unpacked).
nlohmann::json sessionModelJson(const Detector& detector, const Normalizer& normalizer, const Eigen::MatrixXd* data,
                                const std::vector<int>& trainingRows, bool withHistory = false);
/// True when the model leaves its training rows to the session's data (a knn or lof model saved
/// with Detector::toJson's rowsByReference: the autosave of a million points then holds no copy).
bool modelRefersToData(const nlohmann::json& model);
/// The model with its training rows put back: `data` are the session's rows (raw, all of them), of
/// which the model was fitted on `trainingRows` (empty = all) after its own normaliser. A model that
/// does not refer to its data comes back unchanged. Throws DataError when those rows are not the
/// ones it was fitted on (the training fingerprint differs: the data file changed since the save).
nlohmann::json modelWithTrainingRows(nlohmann::json model, const Eigen::MatrixXd& data, const std::vector<int>& trainingRows);
/// May a session read a data file outside its own folder (#51)? `howToAllow` names the front end's
/// way to say yes ("add --allow-data-outside"), for the refusal.
struct DataPermission {
    bool outsideAllowed = false;
    std::string howToAllow = "allow it";
};
/// For readers without the GUI (CLI --model, Python): the session's model, self-contained; data it
/// refers to are taken from the embedded rows or read from the data file (CSV or PLY; `sessionPath`
/// finds a data file moved together with the session). A data file outside the session's folder
/// (session/SessionDataFile) is refused unless `permission` allows it.
nlohmann::json sessionModel(const Session& s, const std::string& sessionPath, const DataPermission& permission);

} // namespace olens
