#pragma once
// File → Import data: a preview of a text data file's first rows and a role per column (feature,
// label, sigma, ignore), turned into the loader's LoadOptions and remembered per file, so a later
// File → Open of the same file uses the same roles.
#include "data/DataLoader.h"

#include <QDialog>
#include <QStringList>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QTableWidget;

namespace olens {

class ImportDialog : public QDialog {
    Q_OBJECT
public:
    enum class Role { Feature, Label, Sigma, Ignore };
    static constexpr int kPreviewRows = 20;
    /// A PLY preview reads at most this much of the file (header + the first vertices).
    static constexpr qint64 kPlyPreviewBytes = 4 << 20;

    /// Reads the first rows of `path`: CSV, TSV, semicolon or whitespace separated, or PLY (by its
    /// magic line; the core reader's columns: x, y, z — always features — then every other scalar
    /// property, named after it). Roles start from the file's remembered roles, else from the
    /// names (label → label (PLY: or class), sigma_<feature> → sigma, everything else a feature).
    explicit ImportDialog(const QString& path, QWidget* parent = nullptr);

    QStringList columnNames() const { return m_names; }
    bool hasHeader() const { return m_header; }
    bool isPly() const { return m_ply; }
    Role role(int column) const;
    /// One label at most (choosing another makes the old one a feature); ignoring a feature also
    /// ignores its sigma column; sigma columns can only be sigma or ignored.
    void setRole(int column, Role role);
    QTableWidget* preview() const { return m_table; }

    /// The loader options for these roles (label column, excluded columns).
    LoadOptions options() const;
    /// Stores the roles for this file (QSettings); File → Open uses them from then on.
    void remember() const;
    /// The roles remembered for a file, if any.
    static std::optional<LoadOptions> remembered(const QString& path);
    /// Stores roles for a file without the dialog (label column and ignored columns).
    static void remember(const QString& path, const LoadOptions& options);

private:
    QString columnSpec(int column) const; // name with a header, 1-based number without
    void applyRemembered();
    QString m_path;
    QStringList m_names;
    bool m_header = false;
    bool m_ply = false;
    qint64 m_plyVertices = 0;
    QTableWidget* m_table;
    std::vector<QComboBox*> m_roles;
    QLabel* m_note;
};

} // namespace olens
