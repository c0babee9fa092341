#include "DataDocument.h"

#include "DataLoader.h"
#include "Errors.h"

#include <QFileInfo>

#include <vtkNew.h>
#include <vtkPLYReader.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>

namespace olens {

void DataDocument::setDataset(Dataset data, const QString& path)
{
    m_data = std::move(data);
    m_path = path;
    m_selected = -1;
    emit datasetChanged();
    emit selectionChanged(-1);
}

void DataDocument::setSelectedPoint(int index)
{
    if (index < -1 || index >= m_data.rows())
        index = -1;
    if (index == m_selected)
        return;
    m_selected = index;
    emit selectionChanged(index);
}

Dataset loadCloudFile(const QString& path)
{
    const QFileInfo info(path);
    if (!info.exists())
        throw DataError("cannot open '" + path.toStdString() + "': no such file");
    if (info.suffix().compare("ply", Qt::CaseInsensitive) != 0)
        return loadDataset(path.toStdString());

    vtkNew<vtkPLYReader> reader;
    const QByteArray file = QFile::encodeName(path);
    if (!reader->CanReadFile(file.constData()))
        throw DataError(path.toStdString() + ": not a readable PLY file");
    reader->SetFileName(file.constData());
    reader->Update();
    vtkPolyData* poly = reader->GetOutput();
    if (!poly || poly->GetNumberOfPoints() == 0)
        throw DataError(path.toStdString() + ": PLY file has no vertices");
    Dataset d;
    d.source = path.toStdString();
    d.featureNames = {"x", "y", "z"};
    d.X.resize(poly->GetNumberOfPoints(), 3);
    for (vtkIdType i = 0; i < poly->GetNumberOfPoints(); ++i) {
        double p[3];
        poly->GetPoint(i, p);
        for (int j = 0; j < 3; ++j) {
            if (!std::isfinite(p[j]))
                throw DataError(path.toStdString() + ": vertex " + std::to_string(i) + " has a non-finite coordinate");
            d.X(i, j) = p[j];
        }
    }
    return d;
}

} // namespace olens
