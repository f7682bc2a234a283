#version 300 es
// A copy of the source at half the size (DownsampleOp): each target pixel the mean of a 2x2
// block of source texels, computed in float and rounded once on writing, as the CPU reference
// does; texels outside the source are transparent. Drawn over the whole target without blending.
precision highp float;

// Rounding to the target's 8-bit steps: half a step and 1/1024 of one (RasterRenderer's
// SourceOver.rounded), so that a value a half step from two (0.5 / 255 apart, as colours made
// from bytes often are) goes up on both backends, whatever float or double make of the half.
const float TIE_BREAK = 0.5009765625;
precision highp int;

in vec2 v_pixel;                       // the device position, near the pixel centre (pixel_centre.glsl)

uniform highp sampler2D u_source;
uniform ivec2 u_origin;                // the target pixel that holds source texels (0, 0)...(1, 1)

out vec4 fragColor;

void main() {
    ivec2 p = 2 * (ivec2(floor(v_pixel)) - u_origin);
    ivec2 size = textureSize(u_source, 0);
    vec4 sum = vec4(0.0);
    for (int j = 0; j < 2; ++j) {
        for (int i = 0; i < 2; ++i) {
            ivec2 q = p + ivec2(i, j);
            if (q.x >= 0 && q.y >= 0 && q.x < size.x && q.y < size.y) {
                sum += texelFetch(u_source, q, 0);
            }
        }
    }
    // Rounded to the target's 8-bit steps here, so every driver blends the same bytes (see
    // the note at the top of layer_quad.frag).
    fragColor = floor(sum * 0.25 * 255.0 + TIE_BREAK) / 255.0;
}
