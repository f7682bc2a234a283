#version 300 es
// Many solid-colour QuadOps with rounded shapes (cards, buttons, their borders) in one instanced
// draw: each instance is one quad's pixel bounds, colour (premultiplied, times opacity and tint),
// up to four coverage edges (interpolated as in layer_quad.vert; with the shape that is 15 of
// the 16 attributes GLES 3 promises) and its rounded shape, passed on unchanged.
precision highp float;

in vec2 a_corner;
in vec4 i_bounds;
in vec4 i_color;
in vec3 i_edge0;
in vec3 i_edge1;
in vec3 i_edge2;
in vec3 i_edge3;
in vec3 i_toLocal0;                    // the columns of device -> the layer's plane
in vec3 i_toLocal1;
in vec3 i_toLocal2;
in vec4 i_outerRect;                   // x, y, width, height
in vec4 i_outerRadii;                  // top left, top right, bottom right, bottom left
in vec4 i_innerRect;
in vec4 i_innerRadii;
in vec2 i_shape;                       // shape kind (1 rounded rectangle, 2 ring), continuous (0 or 1)
uniform vec2 u_viewport;
out vec4 v_edges;
flat out vec4 v_color;
flat out vec3 v_toLocal0;
flat out vec3 v_toLocal1;
flat out vec3 v_toLocal2;
flat out vec4 v_outerRect;
flat out vec4 v_outerRadii;
flat out vec4 v_innerRect;
flat out vec4 v_innerRadii;
flat out vec2 v_shape;

void main() {
    vec2 p = mix(i_bounds.xy, i_bounds.zw, a_corner);
    gl_Position = vec4(p / u_viewport * 2.0 - 1.0, 0.0, 1.0);
    vec3 h = vec3(p, 1.0);
    v_edges = vec4(dot(i_edge0, h), dot(i_edge1, h), dot(i_edge2, h), dot(i_edge3, h));
    v_color = i_color;
    v_toLocal0 = i_toLocal0;
    v_toLocal1 = i_toLocal1;
    v_toLocal2 = i_toLocal2;
    v_outerRect = i_outerRect;
    v_outerRadii = i_outerRadii;
    v_innerRect = i_innerRect;
    v_innerRadii = i_innerRadii;
    v_shape = i_shape;
}
