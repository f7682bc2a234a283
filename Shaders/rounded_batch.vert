#version 300 es
// Many solid-colour QuadOps with rounded shapes (cards, buttons, their borders) in one instanced
// draw: each instance is one quad's colour (premultiplied, times opacity and tint), up to four
// coverage edges (interpolated as in layer_quad.vert; with the shape that is 15 of the 16
// attributes GLES 3 promises) and its rounded shape, passed on unchanged.
//
// Where each instance is drawn: not its pixel bounds but the shape itself, mapped from the
// layer's plane, grown by a pixel, and for a ring (a border) with the middle of its hole cut
// out: eight vertices, an outer and an inner rectangle, eight triangles between them. Every
// fragment runs the whole shape computation (llvmpipe evaluates both sides of each branch), so
// the pixels of a rotated card's bounds outside it, and of a border's hole, cost as much as its
// edges; those pixels have zero coverage, so leaving them out changes nothing drawn.
//
// A large filled shape's middle, where the fragment stage would work out a coverage of exactly
// 1 for every pixel, is cut out the same way and drawn by a second program that only writes the
// colour (rounded_batch.frag's MIDDLE variant, GLQuadBatch): i_shape.x is 4 more then. Both
// programs run this stage on the same instance, and gl_Position is invariant, so the middle's
// edges are the frame's to the bit and every pixel is drawn by exactly one of them.
precision highp float;

invariant gl_Position;

in vec3 a_corner;                      // x, y: 0 or 1, the corner of a rectangle; z: 0 outer, 1 inner
in vec4 i_bounds;                      // the quad's pixel bounds (min x, min y, max x, max y)
in vec4 i_color;                       // the filled shape's colour, zero for a ring alone
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
in vec2 i_shape;                       // 1 filled, 2 ring, 3 both (a card and its border), 4 more with the middle apart; continuous (0 or 1)
in vec4 i_ringColor;                   // the ring's colour, zero for a filled shape alone (the 16th attribute)
uniform vec2 u_viewport;
out vec4 v_edges;
out vec2 v_pixel;                      // the device position (see layer_quad.vert)
flat out vec4 v_gradients[2];          // the edges' (a, b), two edges to a vector (see solid_batch.vert)
flat out vec4 v_color;
flat out vec4 v_ringColor;
flat out vec3 v_toLocal0;
flat out vec3 v_toLocal1;
flat out vec3 v_toLocal2;
flat out vec4 v_outerRect;
flat out vec4 v_outerRadii;
flat out vec4 v_innerRect;
flat out vec4 v_innerRadii;
flat out vec2 v_planeLengths;          // read by the fragment stage's AFFINE_MAP variant only

// A point of the layer's plane in device pixels (w kept, to tell points behind the eye).
vec3 toDevice(mat3 localToDevice, vec2 l) {
    vec3 h = vec3(l, 1.0) * localToDevice;
    return vec3(h.xy / h.z, h.z);
}

// The derivatives of device -> plane at device point p (as roundedShapeCoverage takes them):
// (dx/dx, dx/dy, dy/dx, dy/dy), plane over device.
vec4 planeDerivatives(mat3 m, vec2 p) {
    vec3 h = vec3(p, 1.0) * m;
    float w2 = h.z * h.z;
    return vec4((m[0][0] * h.z - h.x * m[2][0]) / w2, (m[0][1] * h.z - h.x * m[2][1]) / w2,
                (m[1][0] * h.z - h.y * m[2][0]) / w2, (m[1][1] * h.z - h.y * m[2][1]) / w2);
}

// How far one device pixel reaches along the plane's x and y, from those derivatives.
vec2 pixelReach(vec4 j) {
    return vec2(abs(j.x) + abs(j.y), abs(j.z) + abs(j.w));
}

// Whether the map stretches one way at most twice as much as the other (singular values within
// a factor 2): the estimate of distance to a rounded corner, by its gradient, holds there.
bool evenlyStretched(vec4 j) {
    float t = dot(j, j), det = j.x * j.w - j.y * j.z;
    float spread = sqrt(max(t * t - 4.0 * det * det, 0.0));
    return t + spread <= 4.0 * (t - spread);
}

// The corner `c` (0 or 1 per axis) of `rect` moved outward by `by` (inward where negative).
vec2 corner(vec4 rect, vec2 c, vec2 by) {
    return rect.xy - by + c * (rect.zw + 2.0 * by);
}

vec2 place() {
    mat3 toLocal = mat3(i_toLocal0, i_toLocal1, i_toLocal2);
    mat3 toScreen = inverse(toLocal);   // the plane -> device pixels
    vec4 outer = i_outerRect;
    vec2 boundsCentre = (i_bounds.xy + i_bounds.zw) * 0.5;
    // One pixel's reach in the plane, the most at any corner: the outline grows by it, the hole
    // shrinks by it, the same for every vertex of the instance (each vertex works it out alike,
    // so shared edges meet exactly).
    vec2 reach = vec2(0.0);
    // The device gradients' lengths of the plane's x and y, the most at any corner.
    vec2 lengths = vec2(0.0);
    bool even = true;
    for (int i = 0; i < 4; ++i) {
        vec4 j = planeDerivatives(toLocal, toDevice(toScreen, outer.xy + vec2(float(i & 1), float(i >> 1)) * outer.zw).xy);
        reach = max(reach, pixelReach(j));
        lengths = max(lengths, vec2(length(j.xy), length(j.zw)));
        even = even && evenlyStretched(j);
    }
    // Pixels off the grown shape have no coverage when a pixel reaches no farther in the plane
    // anywhere over the pixel bounds than at the shape's corners, twice over: device -> plane
    // varies little there (w, hence its derivatives, within a factor 1.78 = 1 / 0.75^2). Under
    // steeper perspective, or near the horizon, where the derivatives blow up and the coverage
    // of pixels far off the shape is not zero (both backends draw the same there), the pixel
    // bounds are drawn, as before.
    float lowest = 1e30, highest = -1e30;
    for (int i = 0; i < 4; ++i) {
        vec2 p = vec2(i_bounds[(i & 1) * 2], i_bounds[1 + (i >> 1) * 2]);
        float w = (vec3(p, 1.0) * toLocal).z;
        lowest = min(lowest, w);
        highest = max(highest, w);
    }
    // A map squashing one way far more than the other (a card flattened edge-on) bends the
    // distance estimate near corners, so coverage can reach past the grown shape: bounds again.
    bool mapped = even && (lowest > 0.0 || highest < 0.0) && min(abs(lowest), abs(highest)) >= 0.75 * max(abs(lowest), abs(highest))
        && all(greaterThan(reach, vec2(0.0)));
    if (!mapped) {
        return a_corner.z < 0.5 ? mix(i_bounds.xy, i_bounds.zw, a_corner.xy) : boundsCentre;
    }
    // Under an affine map the derivatives are the same everywhere, and the margins can be the
    // exact ones, with a little to spare: a pixel centre farther than sqrt 1/2 device pixel
    // outside a straight edge's line has no coverage (a pixel's half width across a line is at
    // most that, and the line bounds the outline's coverage: shapeCoverage), and that is
    // sqrt 1/2 times the gradient's length in the plane, so the outline grows by 0.75 of it;
    // the hole below shrinks by as much, which keeps its corner sqrt 1/2 device pixel inside a
    // circular corner's arc (RoundedFrameMarginTests holds both on random maps and shapes).
    // Otherwise (under perspective, where the derivatives vary over the shape) a pixel's whole
    // reach, twice what is needed at the corners.
    bool affine = i_toLocal2.x == 0.0 && i_toLocal2.y == 0.0;
    vec2 grown = affine ? 0.75 * lengths : reach;
    if (a_corner.z < 0.5) {
        return toDevice(toScreen, corner(outer, a_corner.xy, grown)).xy;
    }
    vec2 middle = toDevice(toScreen, outer.xy + 0.5 * outer.zw).xy;
    // Something filled, its middle not drawn apart: no hole, the inner vertices meet.
    if (i_shape.x < 1.5 || (i_shape.x > 2.5 && i_shape.x < 3.5)) return middle;
    // The hole (or the middle drawn apart, whose every pixel the inner outline covers wholly,
    // and the outer one too: a filled shape's inner rectangle is its outer one): the inner rectangle with its corners cut where the rounding could reach (at 45
    // degrees a circle of radius r is r (1 - 1/sqrt 2) in from the corner on each axis; a
    // continuous corner's curve lies outside that circle), shrunk by a pixel's reach.
    vec4 hole = i_innerRect;
    float r = max(max(i_innerRadii.x, i_innerRadii.y), max(i_innerRadii.z, i_innerRadii.w));
    if (i_shape.y > 0.5) r = min(r * 1.528, min(hole.z, hole.w) * 0.5);  // RoundedRectangle.continuousExtent
    // (A continuous corner's distance is an estimate: it keeps the whole reach.)
    vec2 inset = vec2(r * (1.0 - 0.70710678)) + (i_shape.y > 0.5 ? reach : grown);
    if (any(lessThanEqual(hole.zw, 2.0 * inset))) return middle;  // no hole worth cutting
    return toDevice(toScreen, corner(hole, a_corner.xy, -inset)).xy;
}

void main() {
    vec2 p = place();
    gl_Position = vec4(p / u_viewport * 2.0 - 1.0, 0.0, 1.0);
    v_pixel = p;
    vec3 h = vec3(p, 1.0);
    v_edges = vec4(dot(i_edge0, h), dot(i_edge1, h), dot(i_edge2, h), dot(i_edge3, h));
    v_gradients[0] = vec4(i_edge0.xy, i_edge1.xy);
    v_gradients[1] = vec4(i_edge2.xy, i_edge3.xy);
    v_color = i_color;
    v_ringColor = i_ringColor;
    v_toLocal0 = i_toLocal0;
    v_toLocal1 = i_toLocal1;
    v_toLocal2 = i_toLocal2;
    v_outerRect = i_outerRect;
    v_outerRadii = i_outerRadii;
    v_innerRect = i_innerRect;
    v_innerRadii = i_innerRadii;
    // An affine map's derivatives are the first two columns' first two entries (planeDerivatives
    // at w = 1), so the lengths rounded_shape.glsl's planeDerivatives takes of them, once.
    v_planeLengths = vec2(length(i_toLocal0.xy), length(i_toLocal1.xy));
}
