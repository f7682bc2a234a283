// The exact area of a pixel's square inside a polygon: Compositor's PolygonCoverage, step for step
// (read it for the why). Shared by layer_quad.frag and the batch programs, which sum edgeShare
// over their polygon's vertices, given relative to the pixel's top-left corner.

const float REACH = 0.70711;           // PolygonCoverage.reach

// The integral of clamp(x, 0, 1) from 0 to x.
float integralClamped(float x) {
    float c = clamp(x, 0.0, 1.0);
    return c * c * 0.5 + max(x - 1.0, 0.0);
}

// One edge's signed share of the unit square: the height it spans there (negative going up)
// times the mean of clamp(x, 0, 1) along it, which is the difference of that integral over the
// run in x: (F(x1) - F(x0)) / dx, and dx = dy * slope, so the share is (F(x1) - F(x0)) / slope,
// with 1 / slope worked out once per edge (`edge`: the edge's first vertex relative to the
// square, the other's y, and slope; `inverseSlope`). A nearly vertical edge, whose run in x is
// too short to divide by, shares dy times clamp at the middle. No division or branch per pixel:
// a software rasterizer runs every branch for a whole group of pixels, and a division per edge
// cost a perspective-tilted page (star-wars-crawl) a third of its time on llvmpipe.
float edgeShare(vec4 edge, float inverseSlope) {
    float y0 = clamp(edge.y, 0.0, 1.0), y1 = clamp(edge.z, 0.0, 1.0);
    float dy = y1 - y0;
    float x0 = edge.x + (y0 - edge.y) * edge.w, x1 = edge.x + (y1 - edge.y) * edge.w;
    float steep = dy * clamp((x0 + x1) * 0.5, 0.0, 1.0);
    float sloped = (integralClamped(x1) - integralClamped(x0)) * inverseSlope;
    // Wholly right of the square the share is the whole height; wholly left, none. Worked out
    // by the formula there, the difference of two large integrals times a steep edge's large
    // inverse slope lost what float keeps: a near-vertical mask edge 500 pixels away took 6% off
    // every 16th row of a frame (lottie-ios's issue_769; doubles on the CPU hid it).
    float share = abs(x1 - x0) < 1e-4 ? steep : sloped;
    return min(x0, x1) >= 1.0 ? dy : (max(x0, x1) <= 0.0 ? 0.0 : share);
}

// Whether these distances put the pixel wholly inside every edge, or wholly outside one
// (PolygonCoverage.reach): the interior and far outside of a polygon need no sum.
bool allInside(vec4 d0, vec4 d1) {
    return all(greaterThanEqual(min(d0, d1), vec4(REACH)));
}
bool anyOutside(vec4 d0, vec4 d1) {
    return any(lessThanEqual(min(d0, d1), vec4(-REACH)));
}
