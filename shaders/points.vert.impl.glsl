//VTK::PositionVC::Impl
  gl_PointSize = max(abs(olensPointSize) * olensSizeScale, olensMinSize);
  gl_Position.z -= olensDepthBias * abs(olensPointSize) * gl_Position.w;
  // Front sprites keep their order among themselves in the first 1 % of the depth range.
  if (olensFront > 0.5 && olensPointSize < 0.0)
    gl_Position.z = -gl_Position.w + 0.01 * (gl_Position.z + gl_Position.w);
  if (olensOnTop > 0.5)
    gl_Position.z = -0.99999 * gl_Position.w; // the near plane: over every point, flagged or not
  // Integer modulo: above 2^24 rows a float holds no longer every vertex id (20 M rows).
  if (olensLodStride > 1.5 && olensPointSize >= 0.0 && gl_VertexID % int(olensLodStride + 0.5) != 0)
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0); // outside the clip volume: culled before rasterisation
  if ((olensPass > 0.5 && olensPass < 1.5 && olensPointSize >= 0.0) || (olensPass > 1.5 && olensPointSize < 0.0))
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0); // not this pass's sprite: culled
