#pragma once
// A short animated camera move to a point (split from CloudView: "go to" a ranked or selected
// point): the focal point glides there in 350 ms, the camera keeping its direction and distance.
#include <Eigen/Core>

namespace olens {

class CameraHost;

class CameraFlight {
public:
    /// Moves `view`'s focal point to `to`; `keepDepth` (2-D) keeps the focal point's z.
    static void fly(CameraHost* view, Eigen::Vector3d to, bool keepDepth);
};

} // namespace olens
