// The rounded shapes of layers (backgrounds, borders, clips): shared by layer_quad.frag and
// rounded_batch.frag. Mirrors RoundedRectangle and RoundedShape in Compositor.

// Signed distance to a rounded rectangle (negative inside) and its gradient, in the layer's plane.
// Mirrors RoundedRectangle.signedDistance in Compositor.
vec3 roundedDistance(vec2 l, vec4 rect, vec4 radii, bool continuous) {
    vec2 halfSize = rect.zw * 0.5;
    vec2 d = l - (rect.xy + halfSize);
    float r = d.x >= 0.0 ? (d.y >= 0.0 ? radii.z : radii.y) : (d.y >= 0.0 ? radii.w : radii.x);
    if (continuous) r = min(r * 1.528, min(halfSize.x, halfSize.y));  // RoundedRectangle.continuousExtent
    vec2 q = abs(d) - (halfSize - vec2(r));
    vec2 s = vec2(d.x >= 0.0 ? 1.0 : -1.0, d.y >= 0.0 ? 1.0 : -1.0);
    if (q.x > 0.0 && q.y > 0.0) {
        if (continuous && r > 0.0) {  // a square corner (maskedCorners) has no curve to scale by
            vec2 u = q / r;
            vec2 u4 = u * u * u * u;
            float f = pow(u4.x * u.x + u4.y * u.y, 0.2);
            float g = sqrt(u4.x * u4.x + u4.y * u4.y);
            float f4 = f * f * f * f;
            return vec3((f - 1.0) * f4 * r / g, s * u4 / g);
        }
        float len = length(q);
        return vec3(len - r, s * q / len);
    }
    return q.x > q.y ? vec3(q.x - r, s.x, 0.0) : vec3(q.y - r, 0.0, s.y);
}

// The share of a pixel's square inside a straight edge d pixels away with device normal g, of
// length len. Mirrors RoundedShape.pixelCoverage.
float pixelCoverage(float d, vec2 g, float len) {
    if (len <= 0.0) return clamp(0.5 - d, 0.0, 1.0);
    float a = min(abs(g.x), abs(g.y)) / len, b = max(abs(g.x), abs(g.y)) / len;
    float s = -d, halfWidth = (a + b) * 0.5, linear = (b - a) * 0.5;
    if (s >= halfWidth) return 1.0;
    if (s <= -halfWidth) return 0.0;
    if (abs(s) <= linear) return 0.5 + s / b;
    float corner = (halfWidth - abs(s)) * (halfWidth - abs(s)) / (2.0 * a * b);
    return s > 0.0 ? 1.0 - corner : corner;
}

// The lines of the two straight edges of l's quadrant (|x| = half the width, |y| = half the
// height about the centre) as local distances and gradients: on screen, the nearer of them, or a
// line nearer than a corner's curve measured along its own gradient, bounds the coverage (a
// squashed map). Mirrors RoundedRectangle.straightEdgeLines.
vec3 straightEdgeLineX(vec2 l, vec4 rect) {
    float dx = l.x - (rect.x + rect.z * 0.5);
    return vec3(abs(dx) - rect.z * 0.5, dx >= 0.0 ? 1.0 : -1.0, 0.0);
}
vec3 straightEdgeLineY(vec2 l, vec4 rect) {
    float dy = l.y - (rect.y + rect.w * 0.5);
    return vec3(abs(dy) - rect.w * 0.5, 0.0, dy >= 0.0 ? 1.0 : -1.0);
}

// How far the map carries a step along the plane's x and along its y, in device pixels: the
// lengths of the straight edges' device normals (±1 along one axis), the same for every outline
// at the pixel, so each is worked out once.
struct PlaneDerivatives {
    float dxdx, dxdy, dydx, dydy;
    float lengthX, lengthY;
};

PlaneDerivatives planeDerivatives(float dxdx, float dxdy, float dydx, float dydy) {
    return PlaneDerivatives(dxdx, dxdy, dydx, dydy, length(vec2(dxdx, dxdy)), length(vec2(dydx, dydy)));
}

// A local distance and gradient (d, gx, gy) as device pixels: (distance, device gradient, the
// gradient's length), `len` that length where it is known.
vec4 onScreen(vec3 s, PlaneDerivatives j, float len) {
    vec2 g = vec2(s.y * j.dxdx + s.z * j.dydx, s.y * j.dxdy + s.z * j.dydy);
    return vec4(len > 0.0 ? s.x / len : s.x, g, len);
}
vec4 onScreen(vec3 s, PlaneDerivatives j) {
    vec2 g = vec2(s.y * j.dxdx + s.z * j.dydx, s.y * j.dxdy + s.z * j.dydy);
    return onScreen(s, j, length(g));
}

// How the two outlines of a card and its border are worked out (rounded_batch.frag's variants,
// constants there, so the compiler drops what a variant leaves out):
struct OutlineWork {
    bool continuous;  // continuous corners (RoundedRectangle.continuousExtent)
    // Whether a straight edge's line can be nearer on screen than the outline. Under a similarity
    // (a turn, a uniform scale, a mirror) it cannot: the map stretches every direction alike, and
    // in the plane a corner's curve is never nearer than the lines of its sides (its distance
    // len - r is at least q.x - r and q.y - r), so the lines are not worked out (SIMILAR_MAP).
    bool lines;
    // Whether the inner outline is the outer one eroded by the border: one width all round, each
    // corner's radius at least that width and the inner's that much less, circular corners. Then
    // every distance the inner's coverage weighs (the curve or side, each straight edge's line)
    // is the outer's plus the border, along the same gradient (the corners share their centres),
    // so the inner's is the outer's distances shifted, not a second outline (ERODED_RING).
    bool eroded;
};

// A local distance and gradient as device pixels, as onScreen makes them, moved `by` along the
// gradient in the plane: (s.x + by) / len in place of s.x / len.
vec4 shifted(vec4 onScreen, float s, float by) {
    return vec4(onScreen.w > 0.0 ? (s + by) / onScreen.w : s + by, onScreen.yzw);
}

// Device coverage of one rounded rectangle: the outline's distance, or a straight edge's line
// where that is nearer on screen.
float shapeCoverage(vec2 l, vec4 rect, vec4 radii, bool continuous, PlaneDerivatives j, bool lines) {
    vec4 edge = onScreen(roundedDistance(l, rect, radii, continuous), j);
    if (lines) {
        vec4 lineX = onScreen(straightEdgeLineX(l, rect), j, j.lengthX);
        vec4 lineY = onScreen(straightEdgeLineY(l, rect), j, j.lengthY);
        if (lineX.x > edge.x) edge = lineX;
        if (lineY.x > edge.x) edge = lineY;
    }
    return pixelCoverage(edge.x, edge.yz, edge.w);
}

// The outer and inner outlines' coverage (OutlineWork.eroded), the inner `border` in from the outer.
vec2 erodedCoverages(vec2 l, vec4 rect, vec4 radii, float border, PlaneDerivatives j, bool lines) {
    vec3 s = roundedDistance(l, rect, radii, false);
    vec4 outer = onScreen(s, j);
    vec4 inner = shifted(outer, s.x, border);
    if (lines) {
        vec3 x = straightEdgeLineX(l, rect), y = straightEdgeLineY(l, rect);
        vec4 lineX = onScreen(x, j, j.lengthX), lineY = onScreen(y, j, j.lengthY);
        vec4 innerX = shifted(lineX, x.x, border), innerY = shifted(lineY, y.x, border);
        if (lineX.x > outer.x) outer = lineX;
        if (lineY.x > outer.x) outer = lineY;
        if (innerX.x > inner.x) inner = innerX;
        if (innerY.x > inner.x) inner = innerY;
    }
    return vec2(pixelCoverage(outer.x, outer.yz, outer.w), pixelCoverage(inner.x, inner.yz, inner.w));
}

// pixelCoverage for a gradient whose device direction is `unit` (of length 1), its parts that
// depend on the direction alone worked out once for several distances along it, divisions by
// them made multiplications by their reciprocals (a float's rounding apart from pixelCoverage).
struct PixelSquare {
    float halfWidth, linear, overB, overTwoAB;
};

PixelSquare pixelSquare(vec2 unit) {
    float a = min(abs(unit.x), abs(unit.y)), b = max(abs(unit.x), abs(unit.y));
    return PixelSquare((a + b) * 0.5, (b - a) * 0.5, 1.0 / b, 1.0 / (2.0 * a * b));
}

float squareCoverage(float d, PixelSquare q) {
    float s = -d;
    // Where a is 0 (an axis-aligned edge) overTwoAB is infinite, but then linear is halfWidth
    // and the corner's value is never the one chosen.
    float corner = (q.halfWidth - abs(s)) * (q.halfWidth - abs(s)) * q.overTwoAB;
    float c = s > 0.0 ? 1.0 - corner : corner;
    c = abs(s) <= q.linear ? 0.5 + s * q.overB : c;
    c = s <= -q.halfWidth ? 0.0 : c;
    return s >= q.halfWidth ? 1.0 : c;
}

// erodedCoverages under a similarity (OutlineWork.lines false), the most common case of all (a
// card turned or scaled alike both ways, with a border or none): the map turns the outline's
// plane gradient n and scales it by the length its columns share, so the device direction is
// the turned n and a distance is the plane's over that length; no square root or division on
// screen. Within a float's rounding of erodedCoverages: a few bytes in a million a step apart
// (FrameShortcutTests).
vec2 similarCoverages(vec2 l, vec4 rect, vec4 radii, float border, PlaneDerivatives j) {
    vec3 s = roundedDistance(l, rect, radii, false);
    float perPlane = 1.0 / j.lengthX;
    PixelSquare square = pixelSquare(vec2(s.y * j.dxdx + s.z * j.dydx, s.y * j.dxdy + s.z * j.dydy) * perPlane);
    return vec2(squareCoverage(s.x * perPlane, square), squareCoverage((s.x + border) * perPlane, square));
}

// The coverage of the outer and of the inner rounded rectangle at plane point l.
vec2 pairCoverages(vec2 l, PlaneDerivatives j, vec4 outerRect, vec4 outerRadii, vec4 innerRect, vec4 innerRadii, OutlineWork work) {
    if (work.eroded && !work.lines) return similarCoverages(l, outerRect, outerRadii, innerRect.x - outerRect.x, j);
    if (work.eroded) return erodedCoverages(l, outerRect, outerRadii, innerRect.x - outerRect.x, j, work.lines);
    return vec2(shapeCoverage(l, outerRect, outerRadii, work.continuous, j, work.lines),
                shapeCoverage(l, innerRect, innerRadii, work.continuous, j, work.lines));
}

// The coverage of the outer and of the inner rounded rectangle at device point p, the same way.
vec2 outlineCoverages(vec2 p, mat3 m, vec4 outerRect, vec4 outerRadii, vec4 innerRect, vec4 innerRadii, OutlineWork work) {
    vec3 h = vec3(p, 1.0) * m;
    if (h.z <= 0.0) return vec2(0.0);
    vec2 l = h.xy / h.z;
    float w2 = h.z * h.z;
    float dxdx = (m[0][0] * h.z - h.x * m[2][0]) / w2, dxdy = (m[0][1] * h.z - h.x * m[2][1]) / w2;
    float dydx = (m[1][0] * h.z - h.y * m[2][0]) / w2, dydy = (m[1][1] * h.z - h.y * m[2][1]) / w2;
    PlaneDerivatives j = planeDerivatives(dxdx, dxdy, dydx, dydy);
    return pairCoverages(l, j, outerRect, outerRadii, innerRect, innerRadii, work);
}

// The same under an affine map whose w is exactly 1 (GLQuadBatch's AFFINE_MAP variant): the
// derivatives are m's own entries and their lengths the vertex stage's, the same bits as the
// general form gives there (w = 1, w^2 = 1, and the terms times m's zero third row vanish),
// without its six divisions and two square roots a pixel.
vec2 outlineCoveragesAffine(vec2 p, mat3 m, vec2 lengths, vec4 outerRect, vec4 outerRadii, vec4 innerRect, vec4 innerRadii,
                            OutlineWork work) {
    vec2 l = (vec3(p, 1.0) * m).xy;
    PlaneDerivatives j = PlaneDerivatives(m[0][0], m[0][1], m[1][0], m[1][1], lengths.x, lengths.y);
    return pairCoverages(l, j, outerRect, outerRadii, innerRect, innerRadii, work);
}

// Coverage of a rounded shape at device point p (shapeKind 1: rounded rectangle, 2: ring):
// distances converted to device pixels with the exact derivative of the projective map m
// (device -> the layer's plane). Mirrors RoundedShape.coverage.
float roundedShapeCoverage(vec2 p, mat3 m, vec4 outerRect, vec4 outerRadii, vec4 innerRect, vec4 innerRadii,
                           int shapeKind, bool continuous) {
    vec3 h = vec3(p, 1.0) * m;
    if (h.z <= 0.0) return 0.0;
    vec2 l = h.xy / h.z;
    // m[column][row]: m[0] = (m11, m21, m31)
    float w2 = h.z * h.z;
    float dxdx = (m[0][0] * h.z - h.x * m[2][0]) / w2, dxdy = (m[0][1] * h.z - h.x * m[2][1]) / w2;
    float dydx = (m[1][0] * h.z - h.y * m[2][0]) / w2, dydy = (m[1][1] * h.z - h.y * m[2][1]) / w2;
    PlaneDerivatives j = planeDerivatives(dxdx, dxdy, dydx, dydy);
    float outside = shapeCoverage(l, outerRect, outerRadii, continuous, j, true);
    if (shapeKind == 2 && outside > 0.0) {
        // The ring is what lies between the outlines: the outer's area less the inner's (the inner
        // lies within the outer), not a product, which overstated a border thinner than a pixel.
        outside = max(outside - shapeCoverage(l, innerRect, innerRadii, continuous, j, true), 0.0);
    }
    return outside;
}
