#version 300 es
// Many closed-form shadows (BlurredRoundedRect fills) in one instanced draw: each instance is one
// quad's pixel bounds, colour (premultiplied, times opacity and tint), its rectangle's four coverage edges
// (as equations: the fragment stage works out each pixel's distances) and its blurred shape, passed on unchanged,
// drawn over i_quad: its bounds' corners, or for a turned shadow drawn whole its reach quad,
// which its bounds' edges cut (the bounds' corners past its reach are not shaded).
precision highp float;

in vec2 a_corner;
in vec4 i_bounds;                      // the pixel bounds (the quad drawn is i_quad's)
in vec4 i_color;
in vec3 i_edge0;
in vec3 i_edge1;
in vec3 i_edge2;
in vec3 i_edge3;
in vec3 i_toLocal0;                    // the columns of device -> the shape's plane
in vec3 i_toLocal1;
in vec3 i_toLocal2;
in vec4 i_box;                         // centre x, y, half width, half height, in that plane
in vec2 i_params;                      // corner radius, sigma
in vec4 i_quad01;                      // the quad drawn, its points in ring order: 0 and 1, then 2 and 3
in vec4 i_quad23;                      // (the bounds' corners, or a turned shadow's reach: GLQuadBatch.turnedReach)
uniform vec2 u_viewport;
uniform vec3 u_grid;                   // a profile's spacing, last column, last row (the PROFILE variant's)
uniform vec2 u_origin;                 // its first point from the centre
flat out vec3 v_edge0;
flat out vec3 v_edge1;
flat out vec3 v_edge2;
flat out vec3 v_edge3;
out vec2 v_pixel;                      // the device position (see layer_quad.vert)
flat out vec4 v_color;
flat out vec3 v_toLocal0;
flat out vec3 v_toLocal1;
flat out vec3 v_toLocal2;
flat out vec4 v_box;
flat out vec2 v_params;
flat out vec3 v_gridX;                 // device -> the profile's grid, from the shape's centre (PROFILE)
flat out vec3 v_gridY;
flat out vec2 v_gridOrigin;            // the grid's first point, in grid steps
flat out float v_inside;               // the closed form's value inside its constant region

//! include blurred_rounded_rect.glsl

void main() {
    // The strip's corner (0, 0), (1, 0), (1, 1), (0, 1) is the quad's point 0, 1, 2, 3.
    int k = a_corner.x < 0.5 ? (a_corner.y < 0.5 ? 0 : 3) : (a_corner.y < 0.5 ? 1 : 2);
    vec4 pair = k < 2 ? i_quad01 : i_quad23;
    vec2 p = (k == 0 || k == 2) ? pair.xy : pair.zw;
    gl_Position = vec4(p / u_viewport * 2.0 - 1.0, 0.0, 1.0);
    v_pixel = p;
    v_edge0 = i_edge0;
    v_edge1 = i_edge1;
    v_edge2 = i_edge2;
    v_edge3 = i_edge3;
    v_color = i_color;
    v_toLocal0 = i_toLocal0;
    v_toLocal1 = i_toLocal1;
    v_toLocal2 = i_toLocal2;
    v_box = i_box;
    v_params = i_params;
    v_inside = blurredInsideValue(i_params.y);
    // An affine map (GLQuadBatch routes no other here), its w folded in and the centre and the
    // grid's spacing too: the fragment stage's grid position is two dot products, where the
    // whole map, a division by w and one by the spacing were worked out at every pixel.
    float w = i_toLocal2.z;
    v_gridX = vec3(i_toLocal0.xy / w, i_toLocal0.z / w - i_box.x) / u_grid.x;
    v_gridY = vec3(i_toLocal1.xy / w, i_toLocal1.z / w - i_box.y) / u_grid.x;
    v_gridOrigin = u_origin / u_grid.x;
}
