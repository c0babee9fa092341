//VTK::PositionVC::Impl
  gl_PointSize = olensPointSize * olensSizeScale;
  gl_Position.z -= olensDepthBias * olensPointSize * gl_Position.w;
