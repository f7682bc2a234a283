#version 300 es
// Coverage times the closed-form blurred shape times the instance's colour: what layer_quad.frag
// draws for a BlurredRoundedRect fill, without its other fill kinds (which cost every pixel of a
// wide shadow something on a software rasterizer).
precision highp float;

// Rounding to the target's 8-bit steps: half a step and 1/1024 of one (RasterRenderer's
// SourceOver.rounded), so that a value a half step from two (0.5 / 255 apart, as colours made
// from bytes often are) goes up on both backends, whatever float or double make of the half.
const float TIE_BREAK = 0.5009765625;

in vec2 v_pixel;                       // the device position, near the pixel centre (pixel_centre.glsl)

flat in vec3 v_edge0;                  // the rectangle's edges: left, right, top, bottom
flat in vec3 v_edge1;
flat in vec3 v_edge2;
flat in vec3 v_edge3;
flat in vec4 v_color;
flat in vec3 v_toLocal0;
flat in vec3 v_toLocal1;
flat in vec3 v_toLocal2;
flat in vec4 v_box;
flat in vec2 v_params;
flat in vec3 v_gridX;
flat in vec3 v_gridY;
flat in vec2 v_gridOrigin;
flat in float v_inside;
out vec4 fragColor;

//! include blurred_rounded_rect.glsl
//! include pixel_centre.glsl

#ifdef PROFILE
uniform highp sampler2D u_profile;     // a wide shadow's profile (blurred_rounded_rect.glsl)
uniform vec3 u_grid;                   // its spacing, last column, last row
#endif

void main() {
    vec2 p = pixelCentre(v_pixel);
#ifdef UNCLIPPED
    // Every instance's polygon is a rectangle of whole pixels and its bounds are exactly those
    // pixels (GLQuadBatch, CoveragePolygon.wholePixelRect): each ramp below would clamp to 1, and
    // k be exactly 1.
    const float k = 1.0;
#else
    // The polygon is an axis-aligned rectangle, its edges in pairs: left and right, top and
    // bottom (GLQuadBatch.rectangleEdges). The area of the pixel inside is the product of its
    // overlap with each pair, each the sum of the two ramps less one: exact, where a product of
    // all four ramps overstated a rectangle thinner than a pixel (see solid_batch.frag).
    // The edges' distances are worked out at the centre, not interpolated: four flat equations
    // cost llvmpipe less than interpolating them (about 0.6 ms of a radius-100 shadow's 4 ms), and
    // they are exact to float rounding, which the snap to 1/1024 absorbs: a shadow drawn as strips
    // (RenderPass.cuttingOccludedShadows) must shade a pixel beside a strip's edge as the whole
    // shadow does, and coverage 1 - 1e-7 there would tip a byte's rounding.
    vec4 e = vec4(dot(v_edge0, vec3(p, 1.0)), dot(v_edge1, vec3(p, 1.0)), dot(v_edge2, vec3(p, 1.0)), dot(v_edge3, vec3(p, 1.0)));
    vec4 a = clamp(floor((e + 0.5) * 1024.0 + 0.5) / 1024.0, 0.0, 1.0);
    float k = max(a.x + a.y - 1.0, 0.0) * max(a.z + a.w - 1.0, 0.0);
    if (k <= 0.0) {
        discard;
    }
#endif
    // Rounded to the target's 8-bit steps here, so every driver blends the same bytes (see
    // the note at the top of layer_quad.frag).
#ifdef PROFILE
    vec2 g = vec2(dot(v_gridX, vec3(p, 1.0)), dot(v_gridY, vec3(p, 1.0)));
    vec4 color = v_color * (k * profiledAt(min(max(abs(g) - v_gridOrigin, 0.0), u_grid.yz), u_profile));
#else
    vec4 color = v_color * (k * blurredRoundedRect(p, mat3(v_toLocal0, v_toLocal1, v_toLocal2), v_box, v_params, v_inside));
#endif
    fragColor = floor(color * 255.0 + TIE_BREAK) / 255.0;
}
