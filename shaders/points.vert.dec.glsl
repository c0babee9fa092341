//VTK::PositionVC::Dec
// OutlierLens: per-point sprite size in pixels (mapped from the outlier score on the CPU side).
in float olensPointSize;
// A view-wide factor on every size (the automatic size for n and zoom, set before each render).
uniform float olensSizeScale;
// Depth per pixel of sprite size: in 2-D every point lies at z = 0, so without it the draw order
// decides and inliers drawn last hide the outliers; larger (higher-score) sprites win.
uniform float olensDepthBias;
// 3-D: points whose size is negative (those the decision flags) are drawn in front of the rest, so
// the few outliers of a large cloud are never buried inside it; 0 = off (sizes are then all > 0).
uniform float olensFront;
// Level of detail while the camera moves: only every k-th point is drawn (k = 1 or unset: all);
// the points drawn in front (negative size) always are.
uniform float olensLodStride;
// Translucent clouds draw in two passes (PointLayer): 1 = only the sprites with a negative size
// (flagged: opaque, in front), 2 = only the others (translucent); 0 = all.
uniform float olensPass;
// The smallest sprite in pixels (0 = none): the selection's halos stay visible however small the
// points of a big cloud are drawn.
uniform float olensMinSize;
// 1 = every sprite of this actor in front of everything else (the selection's rings).
uniform float olensOnTop;
