#version 300 es
// One axis of a separable Gaussian blur (BlurOp): the weights come from Swift (OpenCoreGraphics'
// GaussianBlur), the same numbers the CPU reference uses; texels outside the source are
// transparent. Drawn over the whole target without blending.
precision highp float;

// Rounding to the target's 8-bit steps: half a step and 1/1024 of one (RasterRenderer's
// SourceOver.rounded), so that a value a half step from two (0.5 / 255 apart, as colours made
// from bytes often are) goes up on both backends, whatever float or double make of the half.
const float TIE_BREAK = 0.5009765625;
precision highp int;

in vec2 v_pixel;                       // the device position, near the pixel centre (pixel_centre.glsl)

const int MAX_TAPS = 129;              // BlurOp.maxTaps

uniform highp sampler2D u_source;
uniform int u_taps;
uniform float u_weights[MAX_TAPS];
uniform int u_horizontal;

out vec4 fragColor;

void main() {
    ivec2 p = ivec2(floor(v_pixel));
    ivec2 size = textureSize(u_source, 0);
    int r = u_taps / 2;
    vec4 sum = vec4(0.0);
    // Bounded by the array's length too (see layer_quad.frag's coverage loop).
    for (int k = 0; k < min(u_taps, MAX_TAPS); ++k) {
        ivec2 q = p + (u_horizontal == 1 ? ivec2(k - r, 0) : ivec2(0, k - r));
        if (q.x >= 0 && q.y >= 0 && q.x < size.x && q.y < size.y) {
            sum += u_weights[k] * texelFetch(u_source, q, 0);
        }
    }
    // Rounded to the target's 8-bit steps here, so every driver blends the same bytes (see
    // the note at the top of layer_quad.frag).
    fragColor = floor(sum * 255.0 + TIE_BREAK) / 255.0;
}
