//VTK::Light::Impl
  // OutlierLens: round, anti-aliased point sprite with a dark outline.
  // gl_PointCoord spans the sprite; r = 1 is its rim.
  {
    vec2 olensPc = gl_PointCoord * 2.0 - 1.0;
    float olensR = length(olensPc);
    float olensAa = max(fwidth(olensR), 1e-3);
    if (olensR > 1.0 + olensAa) discard;
    float olensAlpha = 1.0 - smoothstep(1.0 - olensAa, 1.0 + olensAa, olensR);
    float olensRing = smoothstep(0.74 - olensAa, 0.74 + olensAa, olensR);
    vec3 olensRgb = mix(gl_FragData[0].rgb, vec3(0.12, 0.12, 0.14), olensRing);
    // A soft highlight gives 3D sprites some volume without lighting.
    olensRgb += (1.0 - olensRing) * 0.12 * max(0.0, 1.0 - length(olensPc + vec2(0.35, -0.35)));
    gl_FragData[0] = vec4(olensRgb, gl_FragData[0].a * olensAlpha);
  }
