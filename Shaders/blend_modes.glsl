// Blend modes that read the backdrop (BlendMode+Formulas.swift, line for line): the W3C
// Compositing and Blending formulas on premultiplied colours, cs with alpha as over cb with ab.
// Modes by number, as GLExecutor passes them (u_blendMode): 1 multiply, 2 screen, 3 overlay,
// 4 darken, 5 lighten, 6 colorDodge, 7 colorBurn, 8 hardLight, 9 softLight, 10 difference,
// 11 exclusion, 12 hue, 13 saturation, 14 color, 15 luminosity, 16 sourceAtop, 17 sourceIn,
// 18 sourceOut, 19 destinationOver, 20 destinationOut, 21 destinationAtop, 22 xor, 23 clear,
// 24 copy, 25 plusDarker.

float hardLightChannel(float cs, float cb) {
    return cs <= 0.5 ? cb * 2.0 * cs : cb + (2.0 * cs - 1.0) - cb * (2.0 * cs - 1.0);
}

float separableChannel(int mode, float cb, float cs) {
    if (mode == 1) return cb * cs;
    if (mode == 2) return cb + cs - cb * cs;
    if (mode == 3) return hardLightChannel(cb, cs);
    if (mode == 4) return min(cb, cs);
    if (mode == 5) return max(cb, cs);
    if (mode == 6) return cb == 0.0 ? 0.0 : (cs >= 1.0 ? 1.0 : min(1.0, cb / (1.0 - cs)));
    if (mode == 7) return cb >= 1.0 ? 1.0 : (cs <= 0.0 ? 0.0 : 1.0 - min(1.0, (1.0 - cb) / cs));
    if (mode == 8) return hardLightChannel(cs, cb);
    if (mode == 9) {
        if (cs <= 0.5) return cb - (1.0 - 2.0 * cs) * cb * (1.0 - cb);
        float d = cb <= 0.25 ? ((16.0 * cb - 12.0) * cb + 4.0) * cb : sqrt(cb);
        return cb + (2.0 * cs - 1.0) * (d - cb);
    }
    if (mode == 10) return abs(cb - cs);
    return cb + cs - 2.0 * cb * cs;  // 11, exclusion
}

float lum(vec3 c) { return 0.3 * c.r + 0.59 * c.g + 0.11 * c.b; }

vec3 clipColor(vec3 c) {
    float l = lum(c), n = min(min(c.r, c.g), c.b), x = max(max(c.r, c.g), c.b);
    if (n < 0.0) c = l + (c - l) * l / (l - n);
    if (x > 1.0) c = l + (c - l) * (1.0 - l) / (x - l);
    return c;
}

vec3 setLum(vec3 c, float l) { return clipColor(c + (l - lum(c))); }

float sat(vec3 c) { return max(max(c.r, c.g), c.b) - min(min(c.r, c.g), c.b); }

// The colour with saturation s: its largest component s, its smallest 0, the middle one in
// proportion. Components are ordered as Swift's sort orders them (stable: ties keep r, g, b).
vec3 setSat(vec3 c, float s) {
    int lo = 0, mid = 1, hi = 2;
    if (c[mid] < c[lo]) { int t = lo; lo = mid; mid = t; }
    if (c[hi] < c[mid]) { int t = mid; mid = hi; hi = t; }
    if (c[mid] < c[lo]) { int t = lo; lo = mid; mid = t; }
    vec3 out3 = vec3(0.0);
    if (c[hi] > c[lo]) {
        out3[mid] = (c[mid] - c[lo]) * s / (c[hi] - c[lo]);
        out3[hi] = s;
    }
    return out3;
}

vec4 blendWithBackdrop(int mode, vec4 s, vec4 b) {
    if (mode == 16) return vec4(s.rgb * b.a + b.rgb * (1.0 - s.a), b.a);
    if (mode == 17) return vec4(s.rgb * b.a, s.a * b.a);
    if (mode == 18) return vec4(s.rgb * (1.0 - b.a), s.a * (1.0 - b.a));
    if (mode == 19) return vec4(b.rgb + s.rgb * (1.0 - b.a), b.a + s.a * (1.0 - b.a));
    if (mode == 20) return vec4(b.rgb * (1.0 - s.a), b.a * (1.0 - s.a));
    if (mode == 21) return vec4(b.rgb * s.a + s.rgb * (1.0 - b.a), s.a);
    if (mode == 22) return vec4(s.rgb * (1.0 - b.a) + b.rgb * (1.0 - s.a), s.a * (1.0 - b.a) + b.a * (1.0 - s.a));
    if (mode == 23) return vec4(0.0);
    if (mode == 24) return s;
    if (mode == 25) {
        float a = min(1.0, s.a + b.a);
        return vec4(max(vec3(a) - ((vec3(b.a) - b.rgb) + (vec3(s.a) - s.rgb)), vec3(0.0)), a);
    }
    vec3 Cs = s.a > 0.0 ? min(s.rgb / s.a, vec3(1.0)) : vec3(0.0);
    vec3 Cb = b.a > 0.0 ? min(b.rgb / b.a, vec3(1.0)) : vec3(0.0);
    vec3 mixed;
    if (mode == 12) mixed = setLum(setSat(Cs, sat(Cb)), lum(Cb));
    else if (mode == 13) mixed = setLum(setSat(Cb, sat(Cs)), lum(Cb));
    else if (mode == 14) mixed = setLum(Cs, lum(Cb));
    else if (mode == 15) mixed = setLum(Cb, lum(Cs));
    else mixed = vec3(separableChannel(mode, Cb.r, Cs.r), separableChannel(mode, Cb.g, Cs.g), separableChannel(mode, Cb.b, Cs.b));
    return vec4(s.rgb * (1.0 - b.a) + b.rgb * (1.0 - s.a) + s.a * b.a * mixed, s.a + b.a - s.a * b.a);
}
