#version 300 es
// Many closed-form shadows (BlurredRoundedRect fills) in one instanced draw: each instance is one
// quad's pixel bounds, colour (premultiplied, times opacity and tint), up to eight coverage edges
// (interpolated as in layer_quad.vert) and its blurred shape, passed on unchanged.
precision highp float;

in vec2 a_corner;
in vec4 i_bounds;
in vec4 i_color;
in vec3 i_edge0;
in vec3 i_edge1;
in vec3 i_edge2;
in vec3 i_edge3;
in vec3 i_edge4;
in vec3 i_edge5;
in vec3 i_edge6;
in vec3 i_edge7;
in vec3 i_toLocal0;                    // the columns of device -> the shape's plane
in vec3 i_toLocal1;
in vec3 i_toLocal2;
in vec4 i_box;                         // centre x, y, half width, half height, in that plane
in vec2 i_params;                      // corner radius, sigma
uniform vec2 u_viewport;
out vec4 v_edges0;
out vec4 v_edges1;
out vec2 v_pixel;                      // the device position (see layer_quad.vert)
flat out vec4 v_color;
flat out vec3 v_toLocal0;
flat out vec3 v_toLocal1;
flat out vec3 v_toLocal2;
flat out vec4 v_box;
flat out vec2 v_params;

void main() {
    vec2 p = mix(i_bounds.xy, i_bounds.zw, a_corner);
    gl_Position = vec4(p / u_viewport * 2.0 - 1.0, 0.0, 1.0);
    v_pixel = p;
    vec3 h = vec3(p, 1.0);
    v_edges0 = vec4(dot(i_edge0, h), dot(i_edge1, h), dot(i_edge2, h), dot(i_edge3, h));
    v_edges1 = vec4(dot(i_edge4, h), dot(i_edge5, h), dot(i_edge6, h), dot(i_edge7, h));
    v_color = i_color;
    v_toLocal0 = i_toLocal0;
    v_toLocal1 = i_toLocal1;
    v_toLocal2 = i_toLocal2;
    v_box = i_box;
    v_params = i_params;
}
