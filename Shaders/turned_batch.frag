#version 300 es
// A turned solid quad's pixels (turned_batch.vert): in the band, the area of the pixel inside its
// outline (polygon_coverage.glsl) times its opacity; in the interior (MIDDLE), its opacity alone,
// every pixel's square being wholly inside. Either times the colour and tint in the order
// layer_quad.frag's SOLID_FILL variants multiply them, in the target's 8-bit steps: the same bytes
// as the general program's two draws of the quad.
precision highp float;

const float TIE_BREAK = 0.5009765625;  // see solid_batch.frag

//! include pixel_centre.glsl
//! include polygon_coverage.glsl

in vec2 v_pixel;
flat in vec4 v_color;
flat in vec4 v_tint;
flat in float v_opacity;
flat in vec4 v_edge0;
flat in vec4 v_edge1;
flat in vec4 v_edge2;
flat in vec4 v_edge3;
flat in vec4 v_inverseSlopes;
out vec4 fragColor;

void main() {
#ifdef MIDDLE
    float k = v_opacity;
#else
    vec2 p = pixelCentre(v_pixel);
    vec4 corner = vec4(p - 0.5, p.y - 0.5, 0.0);
    float area = clamp(edgeShare(v_edge0 - corner, v_inverseSlopes.x) + edgeShare(v_edge1 - corner, v_inverseSlopes.y)
                       + edgeShare(v_edge2 - corner, v_inverseSlopes.z) + edgeShare(v_edge3 - corner, v_inverseSlopes.w),
                       0.0, 1.0);
    float k = area * v_opacity;
#endif
    if (k <= 0.0) {
        discard;
    }
    fragColor = floor(v_color * v_tint * k * 255.0 + TIE_BREAK) / 255.0;
}
