#version 300 es
// Coverage (the area of the pixel inside the instance's rectangle, as layer_quad.frag) times the
// instance's colour, premultiplied, for source-over blending.
precision highp float;

// Rounding to the target's 8-bit steps: half a step and 1/1024 of one (RasterRenderer's
// SourceOver.rounded), so that a value a half step from two (0.5 / 255 apart, as colours made
// from bytes often are) goes up on both backends, whatever float or double make of the half.
const float TIE_BREAK = 0.5009765625;

in vec4 v_edges0;
in vec4 v_edges1;
flat in vec4 v_color;
out vec4 fragColor;

void main() {
    // The polygon is an axis-aligned rectangle, its edges in pairs: left and right, top and
    // bottom (GLQuadBatch.rectangleEdges). The area of the pixel inside is the product of its
    // overlap with each pair, each the sum of the two ramps less one: exact, where a product of
    // all four ramps overstated a rectangle thinner than a pixel (a 0.1-pixel line drew at 0.30).
    vec4 a = clamp(v_edges0 + 0.5, 0.0, 1.0);
    float k = max(a.x + a.y - 1.0, 0.0) * max(a.z + a.w - 1.0, 0.0);
    if (k <= 0.0) {
        discard;
    }
    // Rounded to the target's 8-bit steps here, so every driver blends the same bytes (see
    // the note at the top of layer_quad.frag).
    fragColor = floor(v_color * k * 255.0 + TIE_BREAK) / 255.0;
}
