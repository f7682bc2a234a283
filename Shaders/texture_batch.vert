#version 300 es
// Many textured QuadOps sharing one image in one instanced draw (GLTextureBatch): particles,
// replicated images. Each instance is one quad's pixel bounds, its colour factor (tint times
// opacity), its outline of three or four vertices as polygon_coverage.glsl takes them, and its
// device-to-texture map (three columns, row-vector form as layer_quad.frag's u_deviceToTexture).
precision highp float;

in vec2 a_corner;                      // (0, 0), (1, 0), (0, 1), (1, 1)
in vec4 i_bounds;                      // min x, min y, max x, max y: device pixels
in vec4 i_color;
in vec4 i_edge0;                       // per outline edge: first vertex x, y, the second's y, slope dx/dy
in vec4 i_edge1;
in vec4 i_edge2;
in vec4 i_edge3;
in vec4 i_inverseSlopes;
in vec3 i_map0;                        // u = dot((x, y, 1), i_map0), v and q likewise
in vec3 i_map1;
in vec3 i_map2;
uniform vec2 u_viewport;
out vec2 v_pixel;
flat out vec4 v_color;
flat out vec4 v_edge0;
flat out vec4 v_edge1;
flat out vec4 v_edge2;
flat out vec4 v_edge3;
flat out vec4 v_inverseSlopes;
flat out vec3 v_map0;
flat out vec3 v_map1;
flat out vec3 v_map2;

void main() {
    vec2 p = mix(i_bounds.xy, i_bounds.zw, a_corner);
    gl_Position = vec4(p / u_viewport * 2.0 - 1.0, 0.0, 1.0);
    v_pixel = p;
    v_color = i_color;
    v_edge0 = i_edge0;
    v_edge1 = i_edge1;
    v_edge2 = i_edge2;
    v_edge3 = i_edge3;
    v_inverseSlopes = i_inverseSlopes;
    v_map0 = i_map0;
    v_map1 = i_map1;
    v_map2 = i_map2;
}
