#version 300 es
// Many solid-colour QuadOps in one instanced draw: each instance is one quad's pixel bounds,
// its colour (premultiplied, times opacity and tint) and up to eight coverage-polygon edges.
// Mirrors layer_quad.vert: the edge distances are affine in device position, computed per vertex
// and interpolated exactly (w is 1).
precision highp float;

const float FAR = 1.0e6;               // an unused edge: always inside

in vec2 a_corner;                      // (0, 0), (1, 0), (0, 1), (1, 1)
in vec4 i_bounds;                      // min x, min y, max x, max y: device pixels
in vec4 i_color;
in vec3 i_edge0;
in vec3 i_edge1;
in vec3 i_edge2;
in vec3 i_edge3;
in vec3 i_edge4;
in vec3 i_edge5;
in vec3 i_edge6;
in vec3 i_edge7;
uniform vec2 u_viewport;
out vec4 v_edges0;
out vec4 v_edges1;
flat out vec4 v_color;

void main() {
    vec2 p = mix(i_bounds.xy, i_bounds.zw, a_corner);
    gl_Position = vec4(p / u_viewport * 2.0 - 1.0, 0.0, 1.0);
    vec3 h = vec3(p, 1.0);
    v_edges0 = vec4(dot(i_edge0, h), dot(i_edge1, h), dot(i_edge2, h), dot(i_edge3, h));
    v_edges1 = vec4(dot(i_edge4, h), dot(i_edge5, h), dot(i_edge6, h), dot(i_edge7, h));
    v_color = i_color;
}
