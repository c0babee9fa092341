//VTK::PositionVC::Dec
// OutlierLens: per-point sprite size in pixels (mapped from the outlier score on the CPU side).
in float olensPointSize;
