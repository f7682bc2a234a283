#version 300 es
// Covers one QuadOp's pixel bounds. Positions arrive in device pixels (y down); device y maps to
// the bottom of the framebuffer so that glReadPixels returns rows top-first. The fragment stage
// takes its pixel position from v_pixel, interpolated from the positions, not from gl_FragCoord:
// how a driver places gl_FragCoord depends on state it may keep per program (softpipe shifted it
// by the height difference when a program drew into targets of another height).
//
// The polygon's edge distances are affine in device position, so the first eight are computed
// here and interpolated (exact: w is 1, so interpolation is linear): the fragment stage then
// needs no loop over uniforms, which is most of its cost on llvmpipe.
precision highp float;

const int MAX_EDGES = 32;              // CoveragePolygon.maxEdges
const float FAR = 1.0e6;               // an unused edge: always inside

in vec2 a_position;
uniform vec2 u_viewport;
uniform int u_edgeCount;
uniform vec3 u_edges[MAX_EDGES];
out vec4 v_edges0;
out vec4 v_edges1;
out vec2 v_pixel;                      // the device position; at a fragment, its pixel centre
uniform vec2 u_blurParams;             // a blurred shape's corner radius and sigma (fill kind 2)
flat out float v_blurInside;           // its closed form's value inside its constant region

//! include blurred_rounded_rect.glsl

float edge(int i) {
    return i < u_edgeCount ? dot(u_edges[i], vec3(a_position, 1.0)) : FAR;
}

void main() {
    gl_Position = vec4(a_position / u_viewport * 2.0 - 1.0, 0.0, 1.0);
    v_pixel = a_position;
    v_edges0 = vec4(edge(0), edge(1), edge(2), edge(3));
    v_edges1 = vec4(edge(4), edge(5), edge(6), edge(7));
    v_blurInside = blurredInsideValue(u_blurParams.y);
}
