#version 300 es
// The integer stencil route for filled paths (GLPathFill.Route.stencil), kept to measure the
// float sum against: the fan's triangles count the winding into the stencil (colour writes off),
// then one quad writes 1 wherever the count passes the fill rule's test. Binary per pixel centre.
precision highp float;

out vec4 fragColor;

void main() {
    fragColor = vec4(1.0);
}
