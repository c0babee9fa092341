#include "session/Session.h"

#include "pipeline/FitPipeline.h"
#include "session/SessionDataFile.h"

#include "base/Json.h"

#include "base/Errors.h"
#include "base/Messages.h"
#include "data/DataLoader.h"
#include "registry/Registry.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <cstdio>
#include <iomanip>
#include <optional>

namespace olens {

namespace {

using json = nlohmann::json;

[[noreturn]] void fail(const std::string& path, const std::string& why)
{
    throw DataError("session " + (path.empty() ? std::string("/") : path) + ": " + why);
}

const json& member(const json& obj, const std::string& path, const char* key)
{
    const auto it = obj.find(key);
    if (it == obj.end())
        fail(path, std::string("missing \"") + key + "\"");
    return *it;
}

/// Every string of a session has a length limit (a 50 MB lesson title took the GUI 90 s and 2 GB):
/// names, ids and paths up to 4096 bytes, a lesson's title 300 and a step's text 4000.
constexpr std::size_t kMaxSessionString = 4096, kMaxLessonTitle = 300, kMaxLessonText = 4000;

std::string asString(const json& v, const std::string& path, std::size_t maxBytes = kMaxSessionString)
{
    if (!v.is_string()) fail(path, "expected a string, found " + std::string(v.type_name()));
    const std::string& s = v.get_ref<const std::string&>();
    if (s.size() > maxBytes)
        fail(path, "longer than " + std::to_string(maxBytes) + " bytes (" + std::to_string(s.size()) + ")");
    return s;
}

double asNumber(const json& v, const std::string& path)
{
    if (!v.is_number()) fail(path, "expected a number, found " + std::string(v.type_name()));
    const double x = v.get<double>();
    if (!std::isfinite(x)) fail(path, "expected a finite number");
    return x;
}

int asInt(const json& v, const std::string& path, int lo, int hi)
{
    if (!v.is_number_integer()) fail(path, "expected an integer, found " + std::string(v.type_name()));
    const long long x = v.get<long long>();
    if (x < lo || x > hi) fail(path, "value " + std::to_string(x) + " outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return static_cast<int>(x);
}

std::array<double, 3> asVec3(const json& v, const std::string& path)
{
    if (!v.is_array() || v.size() != 3) fail(path, "expected an array of 3 numbers");
    return {asNumber(v[0], path + "/0"), asNumber(v[1], path + "/1"), asNumber(v[2], path + "/2")};
}

Eigen::MatrixXd asMatrix(const json& v, const std::string& path, Eigen::Index cols)
{
    if (!v.is_array()) fail(path, "expected an array of rows");
    Eigen::MatrixXd M(static_cast<Eigen::Index>(v.size()), cols);
    for (std::size_t i = 0; i < v.size(); ++i) {
        const std::string rp = path + "/" + std::to_string(i);
        if (!v[i].is_array() || static_cast<Eigen::Index>(v[i].size()) != cols)
            fail(rp, "expected a row of " + std::to_string(cols) + " numbers");
        for (Eigen::Index c = 0; c < cols; ++c)
            M(static_cast<Eigen::Index>(i), c) = asNumber(v[i][static_cast<std::size_t>(c)], rp + "/" + std::to_string(c));
    }
    return M;
}

json matrixToJson(const Eigen::MatrixXd& M)
{
    json rows = json::array();
    for (Eigen::Index i = 0; i < M.rows(); ++i) {
        json r = json::array();
        for (Eigen::Index c = 0; c < M.cols(); ++c) r.push_back(M(i, c));
        rows.push_back(std::move(r));
    }
    return rows;
}

json detectorToJson(const SessionDetector& d)
{
    return {{"id", d.id}, {"params", d.params.is_null() ? json::object() : d.params}, {"normalization", d.normalization}};
}

SessionDetector parseDetector(const json& v, const std::string& path)
{
    if (!v.is_object()) fail(path, "expected an object");
    SessionDetector d;
    d.id = asString(member(v, path, "id"), path + "/id");
    if (v.contains("normalization")) {
        d.normalization = asString(v["normalization"], path + "/normalization");
        try {
            parseNormalization(d.normalization);
        } catch (const ParamError& e) {
            fail(path + "/normalization", e.what());
        }
    }
    try {
        ParamSet p = Registry::instance().defaultParams(d.id);
        if (v.contains("params") && !v["params"].is_null()) p.setFromJson(v["params"]);
        d.params = p.toJson(); // canonical, complete and validated
    } catch (const ParamError& e) {
        fail(path, e.what());
    }
    return d;
}

void parseData(const json& v, Session& s)
{
    const std::string path = "/data";
    if (!v.is_object()) fail(path, "expected an object");
    if (v.contains("label_column")) s.labelColumn = asString(v["label_column"], path + "/label_column");
    if (v.contains("path")) {
        s.dataPath = asString(v["path"], path + "/path");
        if (s.dataPath.empty()) fail(path + "/path", "empty file name");
    }
    if (v.contains("relative_path")) s.dataRelativePath = asString(v["relative_path"], path + "/relative_path");
    if (v.contains("path") && !v.contains("embedded"))
        return;
    const json& e = member(v, path, "embedded");
    const std::string ep = path + "/embedded";
    if (!e.is_object()) fail(ep, "expected an object");
    s.embedded = true;
    Dataset& d = s.data;
    if (e.contains("source")) d.source = asString(e["source"], ep + "/source");
    const json& names = member(e, ep, "features");
    if (!names.is_array() || names.empty()) fail(ep + "/features", "expected a non-empty array of names");
    for (std::size_t c = 0; c < names.size(); ++c)
        d.featureNames.push_back(asString(names[c], ep + "/features/" + std::to_string(c)));
    const auto p = static_cast<Eigen::Index>(d.featureNames.size());
    d.X = asMatrix(member(e, ep, "rows"), ep + "/rows", p);
    if (d.X.rows() == 0) fail(ep + "/rows", "no samples");
    if (e.contains("labels") && !e["labels"].is_null()) {
        const json& l = e["labels"];
        if (!l.is_array() || static_cast<Eigen::Index>(l.size()) != d.X.rows())
            fail(ep + "/labels", "expected " + std::to_string(d.X.rows()) + " numbers (one per row)");
        d.labels.resize(d.X.rows());
        for (std::size_t i = 0; i < l.size(); ++i)
            d.labels(static_cast<Eigen::Index>(i)) = asNumber(l[i], ep + "/labels/" + std::to_string(i));
        d.labelName = e.contains("label_name") ? asString(e["label_name"], ep + "/label_name") : "label";
        if (e.contains("label_names")) {
            const json& ln = e["label_names"];
            if (!ln.is_array()) fail(ep + "/label_names", "expected an array of strings");
            for (std::size_t i = 0; i < ln.size(); ++i)
                d.labelNames.push_back(asString(ln[i], ep + "/label_names/" + std::to_string(i)));
        }
    }
    if (e.contains("sigma") && !e["sigma"].is_null()) {
        d.sigma = asMatrix(e["sigma"], ep + "/sigma", p);
        if (d.sigma.rows() != d.X.rows()) fail(ep + "/sigma", "expected one row per sample");
        if ((d.sigma.array() < 0).any()) fail(ep + "/sigma", "standard deviations must be non-negative");
    }
}

/// Sorted, distinct, non-negative row indices (their upper bound is the data's, checked on restore).
std::vector<int> asRows(const json& v, const std::string& path)
{
    if (!v.is_array()) fail(path, "expected an array of row indices");
    std::vector<int> rows;
    rows.reserve(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
        rows.push_back(asInt(v[i], path + "/" + std::to_string(i), 0, (1 << 30)));
        if (i > 0 && rows[i] <= rows[i - 1]) fail(path + "/" + std::to_string(i), "rows must be sorted and distinct");
    }
    return rows;
}

} // namespace

namespace {

/// The session's JSON with `model` (its long arrays packed) as the model.
json sessionJson(const Session& s, json model)
{
    json j;
    j["format"] = "outlierlens-session";
    j["version"] = Session::kVersion;
    json data = {{"label_column", s.labelColumn}};
    if (s.embedded) {
        const Dataset& d = s.data;
        json e = {{"source", d.source}, {"features", d.featureNames}, {"rows", matrixToJson(d.X)}};
        if (d.hasLabels()) {
            e["labels"] = std::vector<double>(d.labels.data(), d.labels.data() + d.labels.size());
            e["label_name"] = d.labelName.empty() ? "label" : d.labelName;
            if (!d.labelNames.empty()) e["label_names"] = d.labelNames;
        }
        if (d.hasSigma()) e["sigma"] = matrixToJson(d.sigma);
        data["embedded"] = std::move(e);
        if (!s.dataPath.empty()) data["path"] = s.dataPath; // where the embedded rows came from
    } else {
        data["path"] = s.dataPath;
        if (!s.dataRelativePath.empty()) data["relative_path"] = s.dataRelativePath;
    }
    j["data"] = packArrays(data);
    j["detector"] = s.detector ? detectorToJson(*s.detector) : json();
    j["model"] = std::move(model);
    j["threshold"] = s.threshold ? json(*s.threshold) : json();
    j["top_k"] = s.topK;
    j["fit_on"] = toJson(s.fitOn);
    if (!s.trainingRows.empty()) j["training_rows"] = s.trainingRows;
    j["selection"] = s.selection;
    if (s.camera.valid)
        j["camera"] = {{"position", s.camera.position}, {"focal_point", s.camera.focalPoint},
                       {"view_up", s.camera.viewUp}, {"parallel_scale", s.camera.parallelScale},
                       {"view_angle", s.camera.viewAngle},
                       {"projection", s.camera.parallel ? "parallel" : "perspective"}};
    j["view"] = s.view;
    json cmp = json::array();
    for (const auto& d : s.compare) cmp.push_back(detectorToJson(d));
    j["compare"] = {{"detectors", cmp}, {"quantile", s.compareQuantile}, {"active", s.compareActive}};
    if (s.lesson) {
        json steps = json::array();
        for (const LessonStep& st : s.lesson->steps) {
            json o = {{"text", st.text}};
            if (st.atStep == LessonStep::kLive) o["at_step"] = "trained";
            else if (st.atStep >= 0) o["at_step"] = st.atStep;
            if (st.highlight == LessonStep::kTop) o["highlight"] = "top";
            else if (st.highlight >= 0) o["highlight"] = st.highlight;
            steps.push_back(std::move(o));
        }
        j["lesson"] = {{"title", s.lesson->title}, {"steps", std::move(steps)}, {"current", s.lesson->current}};
    }
    j["classroom"] = {{"active", s.classroom}, {"panels", s.classroomPanels}};
    if (s.shownStep >= 0)
        j["shown_step"] = s.shownStep;
    if (!s.origin.empty())
        j["origin"] = s.origin;
    return j;
}

} // namespace

std::string serializeSession(const Session& s)
{
    return sessionJson(s, packArrays(s.model)).dump(1) + "\n";
}

void writeSession(Session&& s, std::ostream& out)
{
    json model = std::move(s.model);
    s.model = nullptr;
    // The text streams out as it is made: a 20 M-row knn session is ~220 MB of it (#54).
    out << std::setw(1) << sessionJson(s, packArrays(std::move(model))) << '\n';
}

Session parseSession(const std::string& text)
{
    // Copying, dumping and comparing JSON values recurses: a hostile file nested 100 000 levels
    // deep would overflow the stack after parsing. No valid session comes close to the limit.
    const json j = parseUntrustedJson(text, "session");
    if (!j.is_object()) fail("", "expected a JSON object");
    const auto fmt = j.find("format");
    if (fmt == j.end() || !fmt->is_string() || fmt->get<std::string>() != "outlierlens-session")
        fail("/format", "not an OutlierLens session (expected \"format\": \"outlierlens-session\")");
    const int version = asInt(member(j, "", "version"), "/version", 1, 1 << 20);
    if (version > Session::kVersion)
        fail("/version", "version " + std::to_string(version) + " was written by a newer OutlierLens (this one reads up to " +
                             std::to_string(Session::kVersion) + ")");

    Session s;
    parseData(unpackArrays(member(j, "", "data"), "/data"), s);
    if (j.contains("detector") && !j["detector"].is_null())
        s.detector = parseDetector(j["detector"], "/detector");
    if (j.contains("model") && !j["model"].is_null()) {
        if (!j["model"].is_object()) fail("/model", "expected an object");
        // The model may belong to another detector than the form shows (the user switched after
        // training); it is checked in full by restoreSessionModel.
        const auto id = j["model"].find("detector");
        if (id == j["model"].end() || !id->is_string())
            fail("/model/detector", "missing detector id");
        s.model = unpackArrays(j["model"], "/model");
    }
    if (j.contains("threshold") && !j["threshold"].is_null()) s.threshold = asNumber(j["threshold"], "/threshold");
    if (j.contains("top_k")) s.topK = asInt(j["top_k"], "/top_k", 0, 1000000);
    if (j.contains("fit_on") && !j["fit_on"].is_null()) s.fitOn = fitSubsetFromJson(j["fit_on"], "/fit_on");
    if (j.contains("training_rows") && !j["training_rows"].is_null())
        s.trainingRows = asRows(j["training_rows"], "/training_rows");
    if (j.contains("selection") && !j["selection"].is_null()) s.selection = asRows(j["selection"], "/selection");
    if (j.contains("camera") && !j["camera"].is_null()) {
        const json& c = j["camera"];
        if (!c.is_object()) fail("/camera", "expected an object");
        s.camera.position = asVec3(member(c, "/camera", "position"), "/camera/position");
        s.camera.focalPoint = asVec3(member(c, "/camera", "focal_point"), "/camera/focal_point");
        s.camera.viewUp = asVec3(member(c, "/camera", "view_up"), "/camera/view_up");
        if (c.contains("parallel_scale")) s.camera.parallelScale = asNumber(c["parallel_scale"], "/camera/parallel_scale");
        if (c.contains("view_angle")) s.camera.viewAngle = asNumber(c["view_angle"], "/camera/view_angle");
        if (c.contains("projection")) {
            const json& pr = c["projection"];
            if (!pr.is_string() || (pr != "parallel" && pr != "perspective"))
                fail("/camera/projection", "expected \"parallel\" or \"perspective\"");
            s.camera.parallel = pr == "parallel";
        }
        if (s.camera.parallelScale <= 0) fail("/camera/parallel_scale", "must be positive");
        if (s.camera.viewAngle <= 0 || s.camera.viewAngle >= 180) fail("/camera/view_angle", "must be in (0, 180)");
        s.camera.valid = true;
    }
    if (j.contains("view") && !j["view"].is_null()) {
        const json& v = j["view"];
        if (!v.is_object()) fail("/view", "expected an object");
        for (auto it = v.begin(); it != v.end(); ++it)
            if (!it.value().is_primitive()) fail("/view/" + it.key(), "expected a string, number or boolean");
        s.view = v;
    }
    if (j.contains("compare") && !j["compare"].is_null()) {
        const json& c = j["compare"];
        if (!c.is_object()) fail("/compare", "expected an object");
        if (c.contains("detectors")) {
            const json& ds = c["detectors"];
            if (!ds.is_array()) fail("/compare/detectors", "expected an array");
            if (ds.size() > static_cast<std::size_t>(kMaxComparePanels))
                fail("/compare/detectors", std::to_string(ds.size()) + " panels; compare mode shows at most " +
                                               std::to_string(kMaxComparePanels));
            for (std::size_t i = 0; i < ds.size(); ++i)
                s.compare.push_back(parseDetector(ds[i], "/compare/detectors/" + std::to_string(i)));
        }
        if (c.contains("active")) {
            if (!c["active"].is_boolean()) fail("/compare/active", "expected true or false");
            s.compareActive = c["active"].get<bool>();
        }
        if (c.contains("quantile")) {
            s.compareQuantile = asNumber(c["quantile"], "/compare/quantile");
            if (s.compareQuantile <= 0 || s.compareQuantile >= 1) fail("/compare/quantile", "must be in (0, 1)");
        }
    }
    if (j.contains("lesson") && !j["lesson"].is_null()) {
        const json& l = j["lesson"];
        if (!l.is_object()) fail("/lesson", "expected an object");
        Lesson lesson;
        if (l.contains("title")) lesson.title = asString(l["title"], "/lesson/title", kMaxLessonTitle);
        const json& steps = member(l, "/lesson", "steps");
        if (!steps.is_array() || steps.empty() || steps.size() > 200)
            fail("/lesson/steps", "expected an array of 1 to 200 steps");
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const std::string p = "/lesson/steps/" + std::to_string(i);
            const json& o = steps[i];
            if (!o.is_object()) fail(p, "expected an object");
            LessonStep st;
            st.text = asString(member(o, p, "text"), p + "/text", kMaxLessonText);
            // A count, or one word standing for a special value ("trained", "top").
            auto countOr = [&o, &p](const char* key, const char* word, int special) {
                const json& v = o[key];
                if (v.is_string() && v == word)
                    return special;
                if (v.is_string())
                    fail(p + "/" + key, std::string("expected a number or \"") + word + "\"");
                return asInt(v, p + "/" + key, 0, 1 << 30);
            };
            if (o.contains("at_step")) st.atStep = countOr("at_step", "trained", LessonStep::kLive);
            if (o.contains("highlight")) st.highlight = countOr("highlight", "top", LessonStep::kTop);
            lesson.steps.push_back(std::move(st));
        }
        if (l.contains("current"))
            lesson.current = asInt(l["current"], "/lesson/current", 0, static_cast<int>(lesson.steps.size()) - 1);
        s.lesson = std::move(lesson);
    }
    if (j.contains("classroom") && !j["classroom"].is_null()) {
        const json& c = j["classroom"];
        if (!c.is_object()) fail("/classroom", "expected an object");
        if (c.contains("active")) {
            if (!c["active"].is_boolean()) fail("/classroom/active", "expected true or false");
            s.classroom = c["active"].get<bool>();
        }
        if (c.contains("panels")) {
            const json& ps = c["panels"];
            if (!ps.is_array() || ps.size() > 32) fail("/classroom/panels", "expected an array of panel names");
            for (std::size_t i = 0; i < ps.size(); ++i)
                s.classroomPanels.push_back(asString(ps[i], "/classroom/panels/" + std::to_string(i)));
        }
    }
    if (j.contains("shown_step") && !j["shown_step"].is_null())
        s.shownStep = asInt(j["shown_step"], "/shown_step", 0, std::numeric_limits<int>::max());
    if (j.contains("origin") && !j["origin"].is_null())
        s.origin = asString(j["origin"], "/origin");
    return s;
}

RestoredModel restoreSessionModel(const nlohmann::json& model, int inputColumns)
{
    RestoredModel r;
    try {
        if (!model.is_object()) fail("/model", "expected an object");
        const auto n = model.find("normalizer");
        if (n == model.end()) fail("/model", "missing \"normalizer\"");
        r.normalizer = Normalizer::fromJson(*n);
        r.detector = Registry::instance().load(model);
    } catch (const ParamError& e) {
        fail("/model", e.what());
    } catch (const DataError& e) {
        const std::string what = e.what();
        if (what.rfind("session ", 0) == 0) throw;
        fail("/model", what);
    }
    const int normCols = r.normalizer.isFitted() ? r.normalizer.inputColumns() : inputColumns;
    if (normCols != inputColumns)
        fail("/model/normalizer", "fitted on " + std::to_string(normCols) + " features, the data has " +
                                      std::to_string(inputColumns));
    const int kept = r.normalizer.isFitted() ? static_cast<int>(r.normalizer.keptColumns().size()) : inputColumns;
    if (r.detector->inputDimension() != kept)
        fail("/model/dimension", "model expects " + std::to_string(r.detector->inputDimension()) +
                                     " features after normalisation, the data gives " + std::to_string(kept));
    return r;
}


nlohmann::json sessionModelJson(const Detector& detector, const Normalizer& normalizer, const Eigen::MatrixXd* data,
                                const std::vector<int>& trainingRows, bool withHistory)
{
    bool byReference = false;
    if (data && detector.memorisedRows()) {
        const Eigen::Index n = trainingRows.empty() ? data->rows() : static_cast<Eigen::Index>(trainingRows.size());
        if (const auto fingerprint = normalisedRowsFingerprint(normalizer, *data, trainingRows))
            byReference = detector.trainedOn(n, *fingerprint);
    }
    json j = detector.toJson(withHistory, byReference, true);
    j["normalizer"] = packArrays(normalizer.toJson());
    return j;
}

bool modelRefersToData(const nlohmann::json& model)
{
    return model.is_object() && model.contains("rows_by_reference");
}

nlohmann::json modelWithTrainingRows(nlohmann::json model, const Eigen::MatrixXd& data, const std::vector<int>& trainingRows)
{
    if (!modelRefersToData(model))
        return model;
    const json& key = model["rows_by_reference"];
    if (!key.is_string() || key.get<std::string>().empty() || !model.contains("state") || !model["state"].is_object())
        fail("/model/rows_by_reference", "expected the name of a state member");
    const auto fp = model.find("training_fingerprint");
    if (fp == model.end() || !fp->is_string())
        fail("/model/training_fingerprint", "a model that refers to its data needs the fingerprint of its training rows");
    const auto n = model.find("normalizer");
    if (n == model.end()) fail("/model", "missing \"normalizer\"");
    Normalizer normalizer;
    Eigen::MatrixXd rows;
    try {
        normalizer = Normalizer::fromJson(*n);
        for (const int r : trainingRows)
            if (r < 0 || r >= data.rows())
                fail("/training_rows", "row " + std::to_string(r) + " is beyond the data's " + std::to_string(data.rows()));
        auto taken = normalisedRows(normalizer, data, trainingRows);
        if (!taken)
            fail("/model/normalizer", "fitted on " + std::to_string(normalizer.inputColumns()) + " features, the data has " +
                                          std::to_string(data.cols()));
        rows = std::move(*taken);
    } catch (const ParamError& e) {
        fail("/model/normalizer", e.what());
    }
    if (std::to_string(matrixFingerprint(rows)) != fp->get<std::string>())
        throw DataError("session /model: the model's training rows are taken from the session's data, and those "
                        "are not the rows it was fitted on (the data file changed since the session was saved); "
                        "train the detector again");
    // p × n column-major: each training row contiguous (MemorisedRows::rowsKey).
    const Eigen::MatrixXd P = rows.transpose();
    model["state"][key.get<std::string>()] = std::vector<double>(P.data(), P.data() + P.size());
    model.erase("rows_by_reference");
    return model;
}

nlohmann::json sessionModel(const Session& s, const std::string& sessionPath, const DataPermission& permission)
{
    if (!modelRefersToData(s.model))
        return s.model;
    if (s.embedded)
        return modelWithTrainingRows(s.model, s.data.X, s.trainingRows);
    // As the GUI does: the path stored, else the same file relative to the session (moved
    // together). Regular files only, found without opening them: fopen() on a FIFO blocked for
    // ever (#51). A file outside the session's folder is read only when the user allowed it.
    const SessionDataFile where = locateSessionData(s, sessionPath);
    if (where.path.empty())
        throw DataError("session /data/path: the model's training rows are the session's data, and no regular file "
                        "is at '" + displayValue(s.dataPath, 300) + "'" +
                        (where.tried.size() > 1 ? " (nor next to the session)" : std::string()) +
                        "; put the data file next to the session, or save the session with its data");
    if (where.outside && !permission.outsideAllowed)
        throw DataError("session /data/path: " + outsideDataMessage(where, permission.howToAllow));
    const std::string path = where.path;
    LoadOptions lo;
    lo.labelColumn = s.labelColumn;
    Dataset d;
    try {
        d = loadDataset(path, lo);
    } catch (const std::exception& e) {
        throw DataError("session /data/path: the model's training rows are the session's data, which cannot be read: " +
                        std::string(e.what()));
    }
    return modelWithTrainingRows(s.model, d.X, s.trainingRows);
}

} // namespace olens
