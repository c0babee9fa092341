#include "reactions/Presets.h"
#include "docks/LessonCaption.h"

#include "document/DataDocument.h"
#include "docks/DetectorPanel.h"
#include "data/Generators.h"
#include "docks/LogPanel.h"
#include "shell/UnsavedChanges.h"
#include "data/Normalizer.h"
#include "registry/Registry.h"

#include <QMenu>

namespace olens {

Lesson Preset::lesson() const
{
    Lesson l;
    l.title = title.toStdString();
    if (!caption.isEmpty())
        l.steps.push_back({caption.toStdString(), -1, -1});
    l.steps.insert(l.steps.end(), steps.begin(), steps.end());
    return l;
}

std::vector<Preset> availablePresets()
{
    constexpr int kTop = LessonStep::kTop;
    constexpr int kLive = LessonStep::kLive;
    const std::vector<Preset> all = {
        {"Quadrics: tennis-ball seam curve", "quadrics paper sec. 5.1, fig. 2: 100 points, a = 0.8, b = 0.2, one far outlier",
         "seam", 100, 1, {{"noise", "0.01"}}, "quadrics", {}, "none", "Q-FULL fits m = 2 quadrics whose common zero set is the seam curve, by minibatch descent on the sum of 2-distances with the orthonormality penalty (eq. 14-15). Press P to replay the training: random quadrics settle onto the curve, and the far outlier keeps the highest score (eq. 16). Page Down: the lesson's next step.",
         {{"Epoch 0: the m = 2 quadrics as initialised, before any descent step: their zero sets cut through the cloud anywhere. The highlighted point is the one ranked first by the 2-distance to them now (eq. 16).", 0, kTop},
          {"Epoch 10: minibatch descent on the sum of 2-distances (eq. 14) with the orthonormality penalty (eq. 15) has cut the loss by a quarter and bent the zero sets toward the points, but the far outlier is not ranked first: a half-trained model's ranking is not to be trusted. The loss plot in the Detector dock marks the step.", 10, kTop},
          {"Epoch 40: the common zero set of the two quadrics runs along the seam, and the far outlier is ranked first again.", 40, kTop},
          {"Trained: the two quadrics meet in the seam curve (fig. 2a); the point ranked first is the far outlier, the point off the curve.", kLive, kTop}}},
        {"Quadrics: seam curve, Q-BASE (pulled by the outlier)", "quadrics paper fig. 2b: the exact solution of (7)",
         "seam", 100, 1, {{"noise", "0.01"}}, "quadrics-base", {}, "none", "Q-BASE solves problem (7) exactly: the eigenvectors of the smallest eigenvalues of the moment matrix (eq. 20). Compare with the first preset: the one far outlier pulls the exact solution off the curve (fig. 2b)."},
        {"KIC: 2-D clusters with background outliers", "KIC paper fig. 2: level sets of the score",
         "blobs", 300, 2, {{"centers", "3"}, {"outliers", "0.05"}}, "kic", {{"kernel", "rbf"}}, "zscore", "KIC's score level sets (fig. 2) wrap the three clusters; the thick contour is the decision threshold, and the background points fall outside it. Drag the threshold in the Evaluation dock to move it."},
        {"kNN: two moons with background outliers", "baseline of the KIC paper (k = 5)",
         "moons", 300, 1, {{"outliers", "0.05"}}, "knn", {}, "none", "The distance to the k-th neighbour (k = 5), the KIC paper's baseline (sec. 4, fig. 1a): the contour follows the moons, and the gap between them scores like background noise."},
        {"GODS: Gaussian 2-D data", "GODS paper fig. 1a", "blobs", 300, 3, {{"centers", "1"}, {"spread", "3"}}, "gods", {{"K", "1"}}, "l2", "GODS sandwiches the data between two frames of hyperplanes on the Stiefel manifold (eq. 10, 23). Press P to replay the conjugate-gradient iterations and watch the hyperplanes rotate into place. Page Down: the lesson's next step.",
         {{"Iteration 0: the two frames W1, W2 as initialised; the margins of eq. 10 are far from the data.", 0, -1},
          {"Iteration 5: Riemannian conjugate gradient on the Stiefel manifold (eq. 25-26) has rotated the frames toward the data's edges.", 5, -1},
          {"Trained: the data lie between the two frames; the highlighted point, ranked first, is the one farthest outside the sandwich, the decision rule (23).", kLive, kTop}}},
        {"KODS: ring", "GODS paper fig. 1d (kernelized)", "ring", 300, 4, {{"outliers", "0.05"}}, "kods", {}, "none", "KODS, the kernelized GODS (eq. 17-22): in the kernel's feature space the frames enclose the ring. Press P to replay the iterations; the contour tightens around the ring."},
        {"ACDT: Swiss roll", "ACDT slides: 5000 points, k = 15, d = 2 (here 2000 for speed)",
         "swissroll", 2000, 1, {}, "acdt", {}, "none", "ACDT merges neighbouring tangent spaces greedily (lines 7-13) until L flats remain. Press P to replay the merges (the last 60 one by one): patches join into the flats that cover the roll. Page Down: the lesson's next step.",
         {{"60 merges before the end (72 clusters): many small flats, each fitted to a patch of local tangent spaces (lines 3-6).", 0, -1},
          {"30 merges later (42 clusters): each merge joined the two neighbouring clusters whose flats are most alike (lines 7-13); press ] to step one merge at a time.", 1958, -1},
          {"Trained: L = 12 flats cover the roll (lines 14-17); the highlighted point, ranked first, lies farthest from the nearest flat patch.", kLive, kTop}}},
        {"ACDT: S-curve", "ACDT slides: S-curve, k = 15, d = 2", "scurve", 2000, 1, {}, "acdt", {}, "none", "ACDT on the S-curve: the greedy merging of tangent spaces (lines 7-13) ends with L flats along the curve; replay the merges with P."},
    };
    std::vector<Preset> out;
    for (std::size_t k = 0; k < all.size(); ++k) {
        Preset p = all[k];
        p.number = static_cast<int>(k) + 1;
        try {
            Registry::instance().info(p.detector);
            out.push_back(p);
        } catch (const std::exception&) {
            // detector not implemented yet
        }
    }
    return out;
}

PresetsReaction::PresetsReaction(QMenu* menu, const ReactionContext& context, DetectorPanel* detector,
                                 LessonCaption* caption, UnsavedChanges* unsaved)
    : QObject(menu), m_context(context), m_detector(detector), m_caption(caption), m_unsaved(unsaved)
{
    menu->setToolTipsVisible(true);
    for (const Preset& p : availablePresets()) {
        QAction* a = menu->addAction(p.title);
        a->setToolTip(p.figure);
        connect(a, &QAction::triggered, this, [this, p] {
            if (m_unsaved->confirm(tr("load this preset")))
                apply(p);
        });
    }
}

bool PresetsReaction::apply(const Preset& preset, bool train) const
{
    try {
        Dataset d = generate(preset.generator, preset.n, preset.seed, preset.generatorParams);
        m_context.document->setDataset(std::move(d), QStringLiteral("preset: %1").arg(preset.title));
        m_context.document->setEdited(true); // generated, not from a file: sessions embed the data
        // The figure's settings (the paper's fixed values, not the data-driven `auto`) and the
        // preset's own, into the document's training setup; the Detector dock follows it.
        TrainingSetup setup = m_context.document->trainingSetup();
        ParamSet params = Registry::instance().defaultParams(preset.detector);
        for (const auto& spec : params.schema())
            params.set(spec.name, paperSetting(spec));
        params.set(preset.detectorParams);
        setup.detectorId = preset.detector;
        setup.params = params.assignments();
        setup.normalization = parseNormalization(preset.normalization);
        m_context.document->setTrainingSetup(setup);
        m_context.log->info(tr("preset: %1 (%2)").arg(preset.title, preset.figure));
        m_caption->setLesson(preset.lesson());
        if (train)
            m_detector->train();
        return true;
    } catch (const std::exception& e) {
        m_context.log->error(tr("preset '%1' failed: %2").arg(preset.title, QString::fromUtf8(e.what())));
        return false;
    }
}

} // namespace olens
