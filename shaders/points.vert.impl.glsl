//VTK::PositionVC::Impl
  gl_PointSize = olensPointSize;
