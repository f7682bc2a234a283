#version 300 es
// Coverage (the product of the eight interpolated edge ramps, as layer_quad.frag) times the
// instance's colour, premultiplied, for source-over blending.
precision highp float;

in vec4 v_edges0;
in vec4 v_edges1;
flat in vec4 v_color;
out vec4 fragColor;

void main() {
    vec4 a = clamp(v_edges0 + 0.5, 0.0, 1.0), b = clamp(v_edges1 + 0.5, 0.0, 1.0);
    float k = a.x * a.y * a.z * a.w * b.x * b.y * b.z * b.w;
    if (k <= 0.0) {
        discard;
    }
    // Rounded to the target's 8-bit steps here, so every driver blends the same bytes (see
    // the note at the top of layer_quad.frag).
    fragColor = floor(v_color * k * 255.0 + 0.5) / 255.0;
}
