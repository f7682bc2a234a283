#version 300 es
// Coverage (edges times the rounded shape) times the instance's colour: what layer_quad.frag
// draws for a solid fill with a rounded shape, without its other fill kinds. An instance is a
// filled shape (a card), a ring (a border) or both, a card and its border drawn one over the
// other in one fragment: both outlines' coverage is worked out for every pixel anyway (llvmpipe
// runs both sides of a branch), so the border costs no pixels of its own.
precision highp float;

// Rounding to the target's 8-bit steps: half a step and 1/1024 of one (RasterRenderer's
// SourceOver.rounded), so that a value a half step from two (0.5 / 255 apart, as colours made
// from bytes often are) goes up on both backends, whatever float or double make of the half.
const float TIE_BREAK = 0.5009765625;
precision highp int;

in vec2 v_pixel;                       // the device position, near the pixel centre (pixel_centre.glsl)

in vec4 v_edges;
flat in vec4 v_gradients[2];          // the edges' (a, b), two edges to a vector
flat in vec4 v_color;                  // the filled shape's (zero for a ring alone)
flat in vec4 v_ringColor;              // the ring's (zero for a filled shape alone)
flat in vec3 v_toLocal0;
flat in vec3 v_toLocal1;
flat in vec3 v_toLocal2;
flat in vec4 v_outerRect;
flat in vec4 v_outerRadii;
flat in vec4 v_innerRect;
flat in vec4 v_innerRadii;
flat in vec2 v_planeLengths;           // the device gradients' lengths of the plane's x and y, for AFFINE_MAP
out vec4 fragColor;

//! include rounded_shape.glsl

// Continuous corners are a variant of its own (GLQuadBatch.Kind.roundedContinuous): a constant
// lets the compiler drop the superellipse's work from the other, where llvmpipe would run it
// for every pixel, masked off.
#ifdef CONTINUOUS_CORNERS
const bool continuousCorners = true;
#else
const bool continuousCorners = false;
#endif
// Every instance of the draw seen through a similarity (no straight edge's line worked out), and
// every instance's inner outline its outer one eroded by the border (OutlineWork, GLQuadBatch).
#ifdef SIMILAR_MAP
const bool straightLines = false;
#else
const bool straightLines = true;
#endif
#ifdef ERODED_RING
const bool erodedRing = true;
#else
const bool erodedRing = false;
#endif

//! include pixel_centre.glsl

void main() {
#ifdef MIDDLE
    // A filled shape's middle (rounded_batch.vert): the polygon's and both outlines' coverage
    // are exactly 1 there, the ring's 0, so the colour below is v_color itself.
    if (v_color == vec4(0.0)) {
        discard;
    }
    fragColor = floor(v_color * 255.0 + TIE_BREAK) / 255.0;
    return;
#endif
    vec2 p = pixelCentre(v_pixel);
#ifdef UNCLIPPED
    // Every instance's polygon covers wholly each pixel its fragments can reach (GLQuadBatch,
    // CoveragePolygon.coversWholly): each ramp below would clamp to 1, and k be exactly 1.
    const float k = 1.0;
#else
    // The polygon is an axis-aligned rectangle, its edges in pairs: left and right, top and
    // bottom (GLQuadBatch.rectangleEdges). The area of the pixel inside is the product of its
    // overlap with each pair, each the sum of the two ramps less one: exact, where a product of
    // all four ramps overstated a rectangle thinner than a pixel (see solid_batch.frag).
    vec4 a = clamp(edgesAtCentre(v_edges, v_gradients[0], v_gradients[1], p - v_pixel) + 0.5, 0.0, 1.0);
    float k = max(a.x + a.y - 1.0, 0.0) * max(a.z + a.w - 1.0, 0.0);
    if (k <= 0.0) {
        discard;
    }
#endif
#ifdef AFFINE_MAP
    // Every instance of the draw maps the plane affinely with w exactly 1 (GLQuadBatch).
    vec2 c = outlineCoveragesAffine(p, mat3(v_toLocal0, v_toLocal1, v_toLocal2), v_planeLengths, v_outerRect, v_outerRadii,
                                    v_innerRect, v_innerRadii, OutlineWork(continuousCorners, straightLines, erodedRing));
#else
    vec2 c = outlineCoverages(p, mat3(v_toLocal0, v_toLocal1, v_toLocal2), v_outerRect, v_outerRadii,
                              v_innerRect, v_innerRadii, OutlineWork(continuousCorners, straightLines, erodedRing));
#endif
    // By area, as RasterRenderer.drawPair: the ring covers what of the pixel lies between its
    // outlines, over the filled shape there; the rest inside the outer outline shows the filled
    // shape alone. (A ring's alpha times the filled shape's whole coverage, as before, let the
    // filled colour bleed through an opaque border's outer edge.)
    float filled = k * c.x, ringArea = k * max(c.x - c.y, 0.0);
    vec4 ring = v_ringColor * ringArea;
    vec4 color = ring + v_color * (filled - v_ringColor.a * ringArea);
    if (color == vec4(0.0)) {
        discard;
    }
    // Rounded to the target's 8-bit steps here, so every driver blends the same bytes (see
    // the note at the top of layer_quad.frag).
    fragColor = floor(color * 255.0 + TIE_BREAK) / 255.0;
}
