#version 300 es
// Covers a filled path's pixel bounds (with layer_quad.vert): each pixel's winding-weighted areas
// from the accumulation target (red: the fill's, green: its stroke's), folded as
// CoverageRasterizer folds them (non-zero: min(1, |sum|); even-odd: a triangle wave of period 2),
// the stroke's colour over the fill's (PathOp.composite), times opacity. Written rounded to the
// 8-bit target's steps (see the note at the top of layer_quad.frag).
precision highp float;

// Rounding to the target's 8-bit steps: half a step and 1/1024 of one (RasterRenderer's
// SourceOver.rounded), so that a value a half step from two (0.5 / 255 apart, as colours made
// from bytes often are) goes up on both backends, whatever float or double make of the half.
const float TIE_BREAK = 0.5009765625;
precision highp int;

in vec2 v_pixel;                       // the device position, near the pixel centre

uniform highp sampler2D u_accumulation;
uniform ivec2 u_origin;                // the op's pixel bounds' top-left: texel (0, 0)
uniform ivec2 u_size;                  // their size: outside them every sum is 0 (a destination-in
                                       // path covers its whole target)
uniform vec4 u_color;                  // the fill's, premultiplied, times tint
uniform vec4 u_strokeColor;            // the stroke's, likewise (0: none)
uniform float u_opacity;
uniform int u_evenOdd;

out vec4 fragColor;

void main() {
    ivec2 texel = ivec2(floor(v_pixel)) - u_origin;
    bool inside = all(greaterThanEqual(texel, ivec2(0))) && all(lessThan(texel, u_size));
    vec2 sums = inside ? abs(texelFetch(u_accumulation, clamp(texel, ivec2(0), u_size - 1), 0).rg) : vec2(0.0);
    float wrapped = mod(sums.x, 2.0);
    float fill = u_evenOdd == 1 ? (wrapped > 1.0 ? 2.0 - wrapped : wrapped) : min(sums.x, 1.0);
    float stroke = min(sums.y, 1.0);
    vec4 color = u_strokeColor * stroke + u_color * (fill * (1.0 - u_strokeColor.a * stroke));
    fragColor = floor(color * u_opacity * 255.0 + TIE_BREAK) / 255.0;
}
