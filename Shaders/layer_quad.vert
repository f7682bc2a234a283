#version 300 es
// Covers one QuadOp's pixel bounds. Positions arrive in device pixels (y down); device y maps to
// the bottom of the framebuffer so that glReadPixels returns rows top-first and gl_FragCoord is
// the device pixel centre in the fragment stage.
precision highp float;

in vec2 a_position;
uniform vec2 u_viewport;

void main() {
    gl_Position = vec4(a_position / u_viewport * 2.0 - 1.0, 0.0, 1.0);
}
