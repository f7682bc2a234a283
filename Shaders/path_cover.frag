#version 300 es
// Covers a filled path's pixel bounds (with layer_quad.vert): each pixel's winding-weighted area
// from the accumulation target, folded by the fill rule as CoverageRasterizer folds it (non-zero:
// min(1, |sum|); even-odd: a triangle wave of period 2), times the colour. Written rounded to the
// 8-bit target's steps (see the note at the top of layer_quad.frag).
precision highp float;
precision highp int;

in vec2 v_pixel;                       // the device position, near the pixel centre

uniform highp sampler2D u_accumulation;
uniform ivec2 u_origin;                // the op's pixel bounds' top-left: texel (0, 0)
uniform vec4 u_color;                  // premultiplied, times tint and opacity
uniform int u_evenOdd;

out vec4 fragColor;

void main() {
    float sum = abs(texelFetch(u_accumulation, ivec2(floor(v_pixel)) - u_origin, 0).r);
    float wrapped = mod(sum, 2.0);
    float coverage = u_evenOdd == 1 ? (wrapped > 1.0 ? 2.0 - wrapped : wrapped) : min(sum, 1.0);
    fragColor = floor(u_color * coverage * 255.0 + 0.5) / 255.0;
}
