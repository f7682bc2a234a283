#version 300 es
// An edge's signed share of the pixel (polygon_coverage.glsl's edgeShare, as every exact polygon
// coverage here is summed), added by the blend (ONE, ONE) into a float target: no rounding to 8
// bits, the sum is folded and rounded once, by path_cover.frag.
precision highp float;

//! include polygon_coverage.glsl

flat in vec4 v_edge;
flat in float v_inverseSlope;
flat in float v_channel;
in vec2 v_pixel;
out vec4 fragColor;

void main() {
    vec2 corner = floor(v_pixel);
    float share = edgeShare(vec4(v_edge.x - corner.x, v_edge.y - corner.y, v_edge.z - corner.y, v_edge.w), v_inverseSlope);
    fragColor = vec4(share * (1.0 - v_channel), share * v_channel, 0.0, 0.0);
}
