#version 300 es
// Many solid-colour QuadOps whose polygon is a turned quadrilateral (a layer's background or any
// square-cornered solid under a rotation or skew) in one instanced draw, split as GLCoverageSplit
// splits one: a band between the outline moved out a pixel and moved in a pixel's reach, where the
// fragment stage sums the exact area (turned_batch.frag), and the interior inside it, where every
// pixel's square lies wholly inside and the colour-only MIDDLE variant draws. The same eight
// points and triangles as rounded_batch.vert's frame (a_corner: x, y of a rectangle's corner in
// ring order, z: 0 outer, 1 inner) and the band's and interior's vertices are GLCoverageSplit's,
// so every pixel is drawn by the same one of the two as the general program's two draws.
precision highp float;

invariant gl_Position;

in vec3 a_corner;
in vec4 i_outer01;                     // the band's outer points, in ring order: 0 and 1, then 2 and 3
in vec4 i_outer23;
in vec4 i_inner01;                     // the interior's points, each beside its outer point
in vec4 i_inner23;
in vec4 i_color;                       // the fill's premultiplied colour
in vec4 i_tint;
in float i_opacity;
in vec4 i_edge0;                       // the outline as polygon_coverage.glsl takes it (shaderOutline)
in vec4 i_edge1;
in vec4 i_edge2;
in vec4 i_edge3;
in vec4 i_inverseSlopes;
uniform vec2 u_viewport;
out vec2 v_pixel;
flat out vec4 v_color;
flat out vec4 v_tint;
flat out float v_opacity;
flat out vec4 v_edge0;
flat out vec4 v_edge1;
flat out vec4 v_edge2;
flat out vec4 v_edge3;
flat out vec4 v_inverseSlopes;

void main() {
    // The rectangle corner (0, 0), (1, 0), (1, 1), (0, 1) is the ring's point 0, 1, 2, 3.
    int k = a_corner.x < 0.5 ? (a_corner.y < 0.5 ? 0 : 3) : (a_corner.y < 0.5 ? 1 : 2);
    vec4 pair = a_corner.z < 0.5 ? (k < 2 ? i_outer01 : i_outer23) : (k < 2 ? i_inner01 : i_inner23);
    vec2 p = (k == 0 || k == 2) ? pair.xy : pair.zw;
    gl_Position = vec4(p / u_viewport * 2.0 - 1.0, 0.0, 1.0);
    v_pixel = p;
    v_color = i_color;
    v_tint = i_tint;
    v_opacity = i_opacity;
    v_edge0 = i_edge0;
    v_edge1 = i_edge1;
    v_edge2 = i_edge2;
    v_edge3 = i_edge3;
    v_inverseSlopes = i_inverseSlopes;
}
