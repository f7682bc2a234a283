// The closed form of a Gaussian-blurred rounded rectangle, shared by layer_quad.frag and
// blurred_batch.frag (put in place of their "//! include blurred_rounded_rect.glsl" line by
// ShaderSource.text; GLSL has no includes).
// Mirrors Compositor's BlurredRoundedRect: erf to 5e-4 (Abramowitz and Stegun 7.1.27), exact
// along x, eight midpoint samples of the Gaussian along y (square corners: exact in both).
float erfApprox(float x) {
    float a = abs(x);
    float d = 1.0 + (0.278393 + (0.230389 + 0.078108 * (a * a)) * a) * a;
    d *= d;
    float e = 1.0 - 1.0 / (d * d);
    return x < 0.0 ? -e : e;
}

float rowIntegral(float x, float y, vec2 halfSize, float corner, float k) {
    float delta = min(halfSize.y - corner - abs(y), 0.0);
    float curved = halfSize.x - corner + sqrt(max(0.0, corner * corner - delta * delta));
    return 0.5 * (erfApprox((x + curved) * k) - erfApprox((x - curved) * k));
}

// The value inside the region where every row's integral is 1 (below): the Gaussian's eight
// weights over its whole window, -3 sigma to 3 sigma, in the order and arithmetic the pixels
// would use. One number a shape: the vertex stage works it out once (a flat varying), where
// each inside pixel made eight exponentials (a tenth of a sharp turned shadow's frame on
// llvmpipe).
float blurredInsideValue(float sigma) {
    if (sigma <= 0.0) return 0.0;
    float start = -3.0 * sigma, end = 3.0 * sigma;
    float step = (end - start) / 8.0;
    float y = start + step * 0.5;
    float value = 0.0;
    for (int i = 0; i < 8; ++i) {
        float gaussian = exp(-0.5 * y * y / (sigma * sigma)) / (sigma * sqrt(6.283185307179586));
        value += gaussian * step;
        y += step;
    }
    return value;
}

// p: a device pixel centre; toLocal: device -> the shape's plane; box: centre and half size there;
// params: corner radius, sigma; insideValue: blurredInsideValue(sigma).
float blurredRoundedRect(vec2 p, mat3 toLocal, vec4 box, vec2 params, float insideValue) {
    vec3 h = vec3(p, 1.0) * toLocal;
    if (h.z <= 0.0) return 0.0;
    vec2 q = h.xy / h.z - box.xy;
    vec2 halfSize = box.zw;
    float corner = params.x, sigma = params.y;
    float k = sqrt(0.5) / sigma;
    // Inside the region where every erf below is +-1 (BlurredRoundedRect.ConstantRegion: the
    // core, each argument past 5.5 + 1/6 sqrt(0.5), every sample row at full width; and with
    // rounded corners its two arms to the edges between them, within the straight part along x
    // with the samples' window inside the box, or along y at full width), each row's integral
    // is 1 and only the Gaussian's weights remain: `insideValue`, without the sixteen erfs (a
    // sharp shadow turned has no profile, and its inside is most of its pixels).
    float spacing = sigma / 6.0, whole = 5.5 * sqrt(2.0) * sigma;
    vec2 region = max(vec2(halfSize.x - corner - whole - spacing,
                           halfSize.y - corner - (corner > 0.0 ? 3.0 * sigma : whole) - spacing), 0.0);
    vec2 a = abs(q);
    // Past erf's reach beyond a side, or with the samples' window wholly beyond the top or
    // bottom, the value is under 4e-6 (both erfs of every row saturate alike) or exactly 0 (an
    // empty window): no byte. A turned shadow's quad is its axis-aligned bounds, whose corners
    // lie out there, a third of a sharp turned shadow's pixels.
    float beyond = whole + spacing;
    if (a.x >= halfSize.x + beyond || a.y >= halfSize.y + (corner > 0.0 ? 3.0 * sigma + spacing : beyond)) return 0.0;
    bool inside = a.x <= region.x && a.y <= region.y;
    if (corner > 0.0) {
        float slack = spacing + 1e-4 * (max(halfSize.x, halfSize.y) + 1.0);
        vec2 tall = vec2(halfSize.x - corner - whole - slack, halfSize.y - 3.0 * sigma - slack);
        vec2 wide = vec2(halfSize.x - whole - slack, halfSize.y - corner - 3.0 * sigma - slack);
        inside = inside || (tall.x > 0.0 && tall.y > 0.0 && a.x <= tall.x && a.y <= tall.y)
                        || (wide.x > 0.0 && wide.y > 0.0 && a.x <= wide.x && a.y <= wide.y);
    }
    if (corner <= 0.0) {
        if (inside) return 1.0;
        float ax = 0.5 * (erfApprox((q.x + halfSize.x) * k) - erfApprox((q.x - halfSize.x) * k));
        float ay = 0.5 * (erfApprox((q.y + halfSize.y) * k) - erfApprox((q.y - halfSize.y) * k));
        return ax * ay;
    }
    // Inside, the window below is never clamped: its value is insideValue's.
    if (inside) return insideValue;
    float low = q.y - halfSize.y, high = q.y + halfSize.y;
    float start = clamp(-3.0 * sigma, low, high), end = clamp(3.0 * sigma, low, high);
    float step = (end - start) / 8.0;
    float y = start + step * 0.5;
    float value = 0.0;
    for (int i = 0; i < 8; ++i) {
        float gaussian = exp(-0.5 * y * y / (sigma * sigma)) / (sigma * sqrt(6.283185307179586));
        value += rowIntegral(q.x, q.y - y, halfSize, corner, k) * gaussian * step;
        y += step;
    }
    return value;
}

// The same shape from its profile (BlurredRoundedRectProfile), for wide shadows: the closed form
// sampled on a grid over one quadrant of the plane, interpolated as BlurredRoundedRectProfile.
// interpolated does (the same on every driver; float textures need not be filterable). Each texel
// holds a cell's four corners (GLShadowProfiles): one texelFetch a pixel, where four were about
// 1.5 ms of a radius-100 shadow's 4 ms frame on llvmpipe. grid: spacing, last column, last row;
// origin: the grid's first point from the centre (nearer, the closed form is constant along that
// axis).

// The profile at grid position g (in steps from its first point, within its last).
float profiledAt(vec2 g, highp sampler2D profile) {
    vec2 g0 = floor(g);
    vec2 f = g - g0;
    vec4 v = texelFetch(profile, ivec2(g0), 0);   // v00, v10, v01, v11
    float top = v.x + (v.y - v.x) * f.x;
    float bottom = v.z + (v.w - v.z) * f.x;
    return top + (bottom - top) * f.y;
}

// At device pixel centre p, through any map (layer_quad.frag's; blurred_batch.frag's own
// affine version works out g from the map folded with the centre and spacing).
float profiledRoundedRect(vec2 p, mat3 toLocal, vec4 box, highp sampler2D profile, vec3 grid, vec2 origin) {
    vec3 h = vec3(p, 1.0) * toLocal;
    if (h.z <= 0.0) return 0.0;
    return profiledAt(min(max(abs(h.xy / h.z - box.xy) - origin, 0.0) / grid.x, grid.yz), profile);
}
