#include "dialogs/ImportDialog.h"

#include "data/PlyReader.h"

#include <QComboBox>
#include <QCryptographicHash>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QTableWidget>
#include <QTextStream>
#include <QVBoxLayout>

#include <algorithm>
#include <cstring>

namespace olens {

namespace {

const char* kSigmaPrefix = "sigma_";

QString settingsKey(const QString& path)
{
    const QByteArray abs = QFileInfo(path).absoluteFilePath().toUtf8();
    return QStringLiteral("importRoles/") + QCryptographicHash::hash(abs, QCryptographicHash::Sha1).toHex();
}

QStringList splitRow(const QString& line)
{
    if (line.contains('\t'))
        return line.split('\t');
    if (line.contains(','))
        return line.split(',');
    if (line.contains(';'))
        return line.split(';');
    return line.split(QRegularExpression("\\s+"), Qt::SkipEmptyParts);
}

QString unquote(QString s)
{
    s = s.trimmed();
    if (s.size() >= 2 && s.startsWith('"') && s.endsWith('"'))
        s = s.mid(1, s.size() - 2);
    return s;
}

} // namespace

ImportDialog::ImportDialog(const QString& path, QWidget* parent)
    : QDialog(parent), m_path(path), m_table(new QTableWidget(this)), m_note(new QLabel(this))
{
    setWindowTitle(tr("Import %1").arg(QFileInfo(path).fileName()));
    std::vector<QStringList> rows;
    QString error;
    QFile file(path);
    const bool ply = file.open(QIODevice::ReadOnly) && looksLikePly(file.peek(8).toStdString());
    if (ply) {
        // PLY: the core reader's columns (x, y, z, then the other scalar properties) with their
        // names; only the file's beginning is read (a preview of a 1M-point cloud stays instant).
        m_ply = true;
        m_header = true;
        const QByteArray head = file.read(kPlyPreviewBytes);
        try {
            const PlyPreview p = previewPly(std::string_view(head.constData(), std::size_t(head.size())),
                                            QFileInfo(path).fileName().toStdString(), kPreviewRows);
            for (const std::string& name : p.data.featureNames)
                m_names << QString::fromStdString(name);
            for (Eigen::Index i = 0; i < p.data.rows(); ++i) {
                QStringList r;
                for (Eigen::Index j = 0; j < p.data.cols(); ++j)
                    r << QString::number(p.data.X(i, j), 'g', 8);
                rows.push_back(r);
            }
            m_plyVertices = qint64(p.vertices);
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        }
    } else {
        file.close();
        if (file.open(QIODevice::ReadOnly | QIODevice::Text)) {
            QTextStream in(&file);
            while (!in.atEnd() && int(rows.size()) < kPreviewRows + 1) {
                const QString line = in.readLine().trimmed();
                if (line.isEmpty() || line.startsWith('#'))
                    continue;
                QStringList fields = splitRow(line);
                for (QString& f : fields)
                    f = unquote(f);
                rows.push_back(fields);
            }
        }
        int width = 0;
        for (const QStringList& r : rows)
            width = std::max(width, int(r.size()));
        if (!rows.empty())
            for (const QString& f : rows.front()) {
                bool number = false;
                f.toDouble(&number);
                m_header = m_header || !number;
            }
        for (int j = 0; j < width; ++j)
            m_names << (m_header && j < rows.front().size() ? rows.front()[j] : tr("column %1").arg(j + 1));
        if (m_header)
            rows.erase(rows.begin());
        if (int(rows.size()) > kPreviewRows)
            rows.resize(kPreviewRows);
    }
    const int columns = int(m_names.size());

    // Row 0: the role of each column; then the preview rows.
    m_table->setColumnCount(columns);
    m_table->setRowCount(int(rows.size()) + 1);
    m_table->setHorizontalHeaderLabels(m_names);
    m_table->setVerticalHeaderItem(0, new QTableWidgetItem(tr("role")));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    bool labelChosen = false;
    for (int j = 0; j < columns; ++j) {
        auto* box = new QComboBox;
        const bool sigma = m_header && m_names[j].startsWith(kSigmaPrefix) && m_names[j].size() > int(strlen(kSigmaPrefix));
        // PLY's x, y and z are always the first three features (the reader requires them).
        const bool fixed = m_ply && j < 3;
        if (fixed) {
            box->addItem(tr("feature"), int(Role::Feature));
        } else if (sigma) {
            box->addItem(tr("sigma"), int(Role::Sigma));
        } else {
            box->addItem(tr("feature"), int(Role::Feature));
            box->addItem(tr("label"), int(Role::Label));
        }
        if (!fixed)
            box->addItem(tr("ignore"), int(Role::Ignore));
        box->setToolTip(fixed ? tr("x, y and z of a PLY cloud are always features")
                        : sigma ? tr("Standard deviation of feature '%1' (uncertainty-aware methods), or ignored")
                                    .arg(m_names[j].mid(int(strlen(kSigmaPrefix))))
                              : tr("feature: a coordinate; label: ground truth (1/0 outlier flags or class ids); "
                                   "ignore: not loaded"));
        // The loader's default label column: "label" (PLY: also "class", the first of them).
        if (!sigma && !fixed && !labelChosen && (m_names[j] == "label" || (m_ply && m_names[j] == "class"))) {
            box->setCurrentIndex(1);
            labelChosen = true;
        }
        m_table->setCellWidget(0, j, box);
        m_roles.push_back(box);
        connect(box, &QComboBox::activated, this, [this, j, box] { setRole(j, Role(box->currentData().toInt())); });
    }
    for (int r = 0; r < int(rows.size()); ++r) {
        m_table->setVerticalHeaderItem(r + 1, new QTableWidgetItem(QString::number(r + 1))); // data row numbers
        for (int j = 0; j < rows[std::size_t(r)].size(); ++j)
            m_table->setItem(r + 1, j, new QTableWidgetItem(rows[std::size_t(r)][j]));
    }
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    applyRemembered();

    m_note->setWordWrap(true);
    if (!error.isEmpty())
        m_note->setText(tr("Cannot preview %1: %2").arg(QFileInfo(path).fileName(), error));
    else if (rows.empty())
        m_note->setText(tr("No rows could be read from %1.").arg(path));
    else if (m_ply)
        m_note->setText(tr("The first %1 of %2 vertices of %3 (PLY; its scalar properties are the columns). "
                           "Choose what each column is; the choice is remembered for this file (File → Open uses it too).")
                            .arg(rows.size()).arg(m_plyVertices).arg(QFileInfo(path).fileName()));
    else
        m_note->setText(tr("The first %1 rows of %2. Choose what each column is; the choice is "
                           "remembered for this file (File → Open uses it too).")
                            .arg(rows.size()).arg(QFileInfo(path).fileName()));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Import"));
    buttons->button(QDialogButtonBox::Ok)->setEnabled(columns > 0 && error.isEmpty());
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_note);
    layout->addWidget(m_table, 1);
    layout->addWidget(buttons);
    resize(760, 480);
}

ImportDialog::Role ImportDialog::role(int column) const
{
    return Role(m_roles[std::size_t(column)]->currentData().toInt());
}

void ImportDialog::setRole(int column, Role r)
{
    QComboBox* box = m_roles[std::size_t(column)];
    const int i = box->findData(int(r));
    if (i < 0)
        return; // e.g. a sigma column cannot become a feature
    box->setCurrentIndex(i);
    for (int j = 0; j < int(m_roles.size()); ++j) {
        if (j == column)
            continue;
        if (r == Role::Label && role(j) == Role::Label)
            m_roles[std::size_t(j)]->setCurrentIndex(m_roles[std::size_t(j)]->findData(int(Role::Feature)));
        // A sigma column belongs to its feature: it goes when the feature goes.
        if (r != Role::Feature && role(j) == Role::Sigma && m_names[j] == kSigmaPrefix + m_names[column])
            m_roles[std::size_t(j)]->setCurrentIndex(m_roles[std::size_t(j)]->findData(int(Role::Ignore)));
    }
}

QString ImportDialog::columnSpec(int column) const
{
    return m_header ? m_names[column] : QString::number(column + 1);
}

LoadOptions ImportDialog::options() const
{
    LoadOptions o;
    o.labelColumn.clear();
    for (int j = 0; j < int(m_roles.size()); ++j) {
        if (role(j) == Role::Label)
            o.labelColumn = columnSpec(j).toStdString();
        else if (role(j) == Role::Ignore)
            o.excludeColumns.push_back(columnSpec(j).toStdString());
    }
    return o;
}

void ImportDialog::remember() const
{
    remember(m_path, options());
}

void ImportDialog::remember(const QString& path, const LoadOptions& o)
{
    QStringList excluded;
    for (const std::string& e : o.excludeColumns)
        excluded << QString::fromStdString(e);
    QSettings().setValue(settingsKey(path),
                         QVariantMap{{"path", QFileInfo(path).absoluteFilePath()},
                                     {"label", QString::fromStdString(o.labelColumn)},
                                     {"exclude", excluded}});
}

std::optional<LoadOptions> ImportDialog::remembered(const QString& path)
{
    const QVariantMap m = QSettings().value(settingsKey(path)).toMap();
    if (m.isEmpty() || m.value("path").toString() != QFileInfo(path).absoluteFilePath())
        return std::nullopt;
    LoadOptions o;
    o.labelColumn = m.value("label").toString().toStdString();
    for (const QString& e : m.value("exclude").toStringList())
        o.excludeColumns.push_back(e.toStdString());
    return o;
}

void ImportDialog::applyRemembered()
{
    const auto o = remembered(m_path);
    if (!o)
        return;
    for (int j = 0; j < int(m_roles.size()); ++j) {
        const std::string spec = columnSpec(j).toStdString();
        Role r = role(j) == Role::Sigma ? Role::Sigma : Role::Feature;
        if (spec == o->labelColumn)
            r = Role::Label;
        if (std::find(o->excludeColumns.begin(), o->excludeColumns.end(), spec) != o->excludeColumns.end())
            r = Role::Ignore;
        if (const int i = m_roles[std::size_t(j)]->findData(int(r)); i >= 0) // PLY x/y/z stay features
            m_roles[std::size_t(j)]->setCurrentIndex(i);
    }
}

} // namespace olens
