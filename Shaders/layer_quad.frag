#version 300 es
// One QuadOp: coverage times fill times opacity, premultiplied, for source-over blending
// (glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA)). Mirrors RasterBackend's RasterRenderer.
//
// Every fragment shader writes its colour rounded to the 8-bit target's steps, as the CPU
// reference converts a draw's colour before blending it: how a driver converts an unrounded
// float is its own (llvmpipe converts the source to 8 bits before blending, softpipe blends the
// float and rounds after), and the two ended a step or more apart where draws pile up.
precision highp float;

// Rounding to the target's 8-bit steps: half a step and 1/1024 of one (RasterRenderer's
// SourceOver.rounded), so that a value a half step from two (0.5 / 255 apart, as colours made
// from bytes often are) goes up on both backends, whatever float or double make of the half.
const float TIE_BREAK = 0.5009765625;
precision highp int;

in vec2 v_pixel;                       // the device position, near the pixel centre (pixel_centre.glsl)

const int MAX_EDGES = 32;              // CoveragePolygon.maxEdges

uniform int u_edgeCount;
uniform vec3 u_edges[MAX_EDGES];       // a, b, c: signed distance a*x + b*y + c, positive inside
uniform int u_fillKind;                // 0: solid, 1: texture, 2: blurred rounded rectangle, 3: the same from its profile,
                                       // 4: a gradient (u_deviceToTexture maps to the layer's plane)
uniform vec4 u_color;                  // premultiplied, for solid fills
uniform float u_opacity;
uniform vec4 u_tint;                   // premultiplied, multiplies the fill (replicator instances)
uniform int u_shapeKind;               // 0: none, 1: rounded rectangle, 2: ring (border)
uniform int u_continuous;              // 1: continuous corners (superellipses), else quarter circles
uniform mat3 u_deviceToLocal;          // device (x, y, 1) -> the layer's plane, homogeneous
uniform vec4 u_outerRect;              // x, y, width, height
uniform vec4 u_outerRadii;             // top left, top right, bottom right, bottom left
uniform vec4 u_innerRect;
uniform vec4 u_innerRadii;
uniform mat3 u_deviceToTexture;        // device (x, y, 1) -> (u, v, q), row-vector form
uniform highp sampler2D u_texture;
uniform int u_alphaOnly;               // 1: use only the texel's alpha (shadows)
uniform int u_filterHere;              // 1: bilinear filtering done here, in float (see bilinearInFloat)
uniform int u_tiled;                   // 1: the texture is one tile of a larger image
uniform vec2 u_imageSize;              // the whole image, in texels
uniform vec4 u_tileAccept;             // sample points this tile draws: min x, min y, max x, max y (texels)
uniform vec4 u_tileRect;               // the tile's texels in the image: x, y, width, height
uniform int u_minFilter;               // -1: u_filterHere's one filter everywhere; else where minified
                                       // 0: linear, 1: nearest, 2: trilinear (TextureFill.minification)
uniform int u_magNearest;              // 1: nearest where magnified (with u_minFilter >= 0)
uniform float u_lodBias;
uniform int u_maxLevel;                // the last mipmap level uploaded (0: none)
uniform int u_sliced;                  // 1: u_deviceToTexture gives the stretched position; nine-slice after
uniform vec4 u_sliceS;                 // x.s1, x.s2, y.s1, y.s2 (NineSlice)
uniform vec4 u_sliceTX;                // x.t0 ... x.t3
uniform vec4 u_sliceTY;
uniform mat3 u_blurToLocal;            // device -> the blurred shape's plane (fill kind 2)
uniform vec4 u_blurBox;                // centre x, y, half width, half height, in that plane
uniform vec2 u_blurParams;             // corner radius, sigma
uniform highp sampler2D u_profile;     // a wide shadow's profile (fill kind 3; blurred_rounded_rect.glsl)
uniform vec3 u_grid;                   // its spacing, last column, last row
uniform vec2 u_origin;                 // its first point from the centre
uniform ivec4 u_atlasRegion;           // a pass's place in the atlas: x, y, width, height (PLAIN_ATLAS)
const int MAX_STOPS = 32;              // GradientFill.maxStops
uniform int u_gradientKind;            // fill kind 4: 0 axial, 1 radial, 2 conic (GradientFill.Kind)
uniform vec4 u_gradientLine;           // start x, y, end x, y, in the layer's bounds space
uniform int u_stopCount;
uniform vec4 u_stopColors[MAX_STOPS];  // straight, each in 0...1, in the space u_genericRGB says
uniform float u_stopLocations[MAX_STOPS];
uniform int u_genericRGB;              // 1: the stops are Generic RGB (GradientFill.ColorSpace.genericRGB)
uniform mat3 u_genericToSRGB;          // GenericRGB.matrix: Generic RGB's linear components to sRGB's
#ifdef BACKDROP_BLEND
uniform highp sampler2D u_backdrop;    // the target's pixels under the quad, copied before it is drawn
uniform ivec2 u_backdropOrigin;        // the pass pixel of the copy's first texel
uniform int u_blendMode;               // blend_modes.glsl's number of the mode
//! include blend_modes.glsl
#endif
#ifdef PAIRED
uniform vec4 u_ringColor;              // a border drawn with its background: premultiplied, times its tint
uniform float u_ringOpacity;
#endif

out vec4 fragColor;

//! include pixel_centre.glsl

in vec4 v_edges0;                      // the first eight edge distances, from the vertex stage
in vec4 v_edges1;
flat in float v_blurInside;            // blurredInsideValue(u_blurParams.y), from the vertex stage

#ifdef EXACT_COVERAGE
//! include polygon_coverage.glsl

uniform int u_outlineCount;            // the polygon's vertices, so also its edges
uniform vec4 u_outlineEdges[MAX_EDGES];// per edge: first vertex x, y, the second's y, slope dx/dy
uniform float u_inverseSlopes[MAX_EDGES];

// Edge i of the outline relative to the pixel's top-left corner (see edgeShare).
vec4 outlineEdge(int i, vec2 corner) {
    return u_outlineEdges[i] - vec4(corner, corner.y, 0.0);
}

// The area of the pixel's square, top-left corner `corner`, inside the polygon
// (polygon_coverage.glsl): GLExecutor draws with this variant where edges cross pixels.
float coverage(vec2 corner, vec2 p) {
    // Quads and triangles (padded with an edge that spans nothing) by constant indices.
    float c = edgeShare(outlineEdge(0, corner), u_inverseSlopes[0]) + edgeShare(outlineEdge(1, corner), u_inverseSlopes[1])
              + edgeShare(outlineEdge(2, corner), u_inverseSlopes[2]) + edgeShare(outlineEdge(3, corner), u_inverseSlopes[3]);
#ifndef FEW_EDGES
    // Longer outlines in a loop: compiled only where a polygon has them (GLQuadVariant.fewEdges).
    if (u_outlineCount > 4) {
        c = 0.0;
        for (int i = 0; i < min(u_outlineCount, MAX_EDGES); ++i) {
            c += edgeShare(outlineEdge(i, corner), u_inverseSlopes[i]);
        }
    }
#endif
    return clamp(c, 0.0, 1.0);
}
#else
// The product of the edges' ramps: the coverage where every edge is a pixel's reach away (the
// interior of GLCoverageSplit, where it is 1) and what hard edges take (CoveragePolygon.harden).
// The first eight edge distances come interpolated from the vertex stage (exact up to
// rounding: affine in device position, w is 1); the rest in a loop bounded by the array's length
// too, so no index passes its end whatever u_edgeCount says.
float coverage(vec2 corner, vec2 p) {
    vec4 a = clamp(v_edges0 + 0.5, 0.0, 1.0), b = clamp(v_edges1 + 0.5, 0.0, 1.0);
    float c = a.x * a.y * a.z * a.w * b.x * b.y * b.z * b.w;
#ifndef FEW_EDGES
    for (int i = 8; i < min(u_edgeCount, MAX_EDGES); ++i) {
        c *= clamp(dot(u_edges[i], vec3(p, 1.0)) + 0.5, 0.0, 1.0);
    }
#endif
    return c;
}
#endif

//! include rounded_shape.glsl

float roundedCoverage(vec2 p) {
    return roundedShapeCoverage(p, u_deviceToLocal, u_outerRect, u_outerRadii, u_innerRect, u_innerRadii,
                                u_shapeKind, u_continuous == 1);
}

//! include blurred_rounded_rect.glsl

// Bilinear filtering of u_texture at uv as the CPU reference does it: the four texels around,
// clamped to the edge, mixed in float. Drivers filter 8-bit textures in 8-bit steps (llvmpipe
// rounds after each lerp), a fraction of a step off per sample, and where samples pile up
// (shadows upsampled from halved passes and stacked, groups, rasterized layers) that drifted
// several steps from the reference. Four fetches instead of one filtered fetch: no measurable
// cost on llvmpipe (300 rotated image layers at 720p, within the noise of 3 runs).
// One texel of a mipmap level. Level 0 by texelFetch; other levels by textureLod at the texel's
// centre with nearest-mipmap-nearest filtering, which returns that texel exactly: llvmpipe's
// texelFetch with a level that differs between the pixels of a 2x2 quad read transparent
// texels for some of them (contents-filters' tilted plane), textureLod takes a level per pixel.
vec4 texelAt(ivec2 t, int level, ivec2 size) {
    if (level == 0) {
        return texelFetch(u_texture, t, 0);
    }
    return textureLod(u_texture, (vec2(t) + 0.5) / vec2(size), float(level));
}

vec4 bilinearAt(vec2 uv, int level) {
    ivec2 size = textureSize(u_texture, level);
    vec2 t = clamp(uv * vec2(size) - 0.5, vec2(-2.0), vec2(size) + 1.0);
    vec2 base = floor(t), f = t - base;
    ivec2 lo = clamp(ivec2(base), ivec2(0), size - 1), hi = clamp(ivec2(base) + 1, ivec2(0), size - 1);
    vec4 top = mix(texelAt(lo, level, size), texelAt(ivec2(hi.x, lo.y), level, size), f.x);
    vec4 bottom = mix(texelAt(ivec2(lo.x, hi.y), level, size), texelAt(hi, level, size), f.x);
    return mix(top, bottom, f.y);
}

vec4 bilinearInFloat(vec2 uv) {
    return bilinearAt(uv, 0);
}

// The texel under uv in the `size` texels at `origin` of level 0, clamped to them, as the CPU
// reference's nearest filter picks it: the whole texture, or a pass's place in the atlas.
vec4 nearestTexelIn(vec2 uv, ivec2 origin, ivec2 size) {
    vec2 t = clamp(uv * vec2(size), vec2(-2.0), vec2(size) + 1.0);
    return texelFetch(u_texture, origin + clamp(ivec2(floor(t)), ivec2(0), size - 1), 0);
}

vec4 nearestTexel(vec2 uv) {
    return nearestTexelIn(uv, ivec2(0), textureSize(u_texture, 0));
}

// One axis of a nine-slice map (NineSlice.Axis.map): the texture coordinate and its slope.
vec2 slicePiece(float s, float a, float b, float ta, float tb) {
    if (b - a <= 0.0) {
        return vec2(ta, 0.0);
    }
    float k = (tb - ta) / (b - a);
    return vec2(ta + (s - a) * k, k);
}

vec2 sliceAxis(float s, vec2 breaks, vec4 t) {
    if (s < breaks.x) {
        return slicePiece(s, 0.0, breaks.x, t.x, t.y);
    }
    if (s < breaks.y) {
        return slicePiece(s, breaks.x, breaks.y, t.y, t.z);
    }
    return slicePiece(s, breaks.y, 1.0, t.z, t.w);
}

// TextureLevelOfDetail: log2 of the longer texture step, in base texels, one pixel along x or y,
// from the exact derivatives of the projective map (not a driver's 2x2 differences).
float levelOfDetail(vec3 h, vec2 slopes) {
    mat3 m = u_deviceToTexture;
    vec2 s = h.xy / h.z;
    vec2 dx = (vec2(m[0][0], m[1][0]) - s * m[2][0]) / h.z * slopes;
    vec2 dy = (vec2(m[0][1], m[1][1]) - s * m[2][1]) / h.z * slopes;
    vec2 size = vec2(textureSize(u_texture, 0));
    float rho = max(length(dx * size), length(dy * size));
    return rho > 0.0 ? log2(rho) : -1e30;
}

// The magnification and minification filters of TextureFill, with trilinear between the
// uploaded mipmap levels (Bitmap.mipmapLevels) mixed in float.
vec4 filteredSample(vec2 uv, float lod) {
    if (!(lod > 0.0)) {
        return u_magNearest == 1 ? nearestTexel(uv) : bilinearAt(uv, 0);
    }
    if (u_minFilter == 1) {
        return nearestTexel(uv);
    }
    int top = u_maxLevel;
    if (u_minFilter == 0 || top == 0) {
        return bilinearAt(uv, 0);
    }
    float d = clamp(lod, 0.0, float(top));
    float lower = floor(d), f = d - lower;
    vec4 a = bilinearAt(uv, int(lower));
    if (f <= 0.0 || int(lower) >= top) {
        return a;
    }
    return mix(a, bilinearAt(uv, int(lower) + 1), f);
}

// Straight Generic RGB components to straight sRGB ones (GenericRGB.toSRGB, whose curves are
// tables of these): gamma 1.8 to linear light, Generic RGB's primaries to sRGB's, sRGB's curve.
vec3 genericToSRGB(vec3 c) {
    vec3 l = clamp(u_genericToSRGB * pow(clamp(c, 0.0, 1.0), vec3(1.8)), 0.0, 1.0);
    return mix(12.92 * l, 1.055 * pow(l, vec3(1.0 / 2.4)) - 0.055, greaterThan(l, vec3(0.0031308)));
}

// A gradient's colour at q in the layer's plane: GradientFill.parameter and .color, line for line
// (t clamped to the first and last stops, straight colours mixed, converted from Generic RGB where
// they are in it, then premultiplied).
vec4 gradientColor(vec2 q) {
    vec2 s = u_gradientLine.xy, d = u_gradientLine.zw - u_gradientLine.xy;
    float t;
    if (u_gradientKind == 1) {
        vec2 r = abs(d);
        float nx = r.x > 0.0 ? (q.x - s.x) / r.x : 0.0, ny = r.y > 0.0 ? (q.y - s.y) / r.y : 0.0;
        t = sqrt(nx * nx + ny * ny);
    } else if (u_gradientKind == 2) {
        const float TURN = 6.283185307179586;
        float angle = atan(q.y - s.y, q.x - s.x) - atan(d.y, d.x);
        angle -= TURN * floor(angle / TURN);
        t = angle / TURN;
    } else {
        t = dot(q - s, d) / dot(d, d);
    }
    t = clamp(t, 0.0, 1.0);
    int last = clamp(u_stopCount, 1, MAX_STOPS) - 1;
    vec4 c = u_stopColors[0];
    if (t >= u_stopLocations[last]) {
        c = u_stopColors[last];
    } else if (t > u_stopLocations[0]) {
        int i = 1;
        while (i < last && !(u_stopLocations[i] > t)) {
            ++i;
        }
        float a = u_stopLocations[i - 1], b = u_stopLocations[i];
        c = mix(u_stopColors[i - 1], u_stopColors[i], b > a ? (t - a) / (b - a) : 0.0);
    }
    if (u_genericRGB == 1) {
        c.rgb = genericToSRGB(c.rgb);
    }
    return vec4(c.rgb * c.a, c.a);
}

void main() {
    vec2 p = pixelCentre(v_pixel);
#ifdef PAIRED
    // A layer's background and its border as one draw, by area (QuadOp.isBorder(over:), as
    // RasterRenderer.drawPair): the ring covers what lies between its outlines, over the fill
    // there; the rest of the outer outline shows the fill alone, none of it under an opaque ring.
    float area = coverage(p - 0.5, p);
    vec2 outline = outlineCoverages(p, u_deviceToLocal, u_outerRect, u_outerRadii, u_innerRect, u_innerRadii,
                                    OutlineWork(u_continuous == 1, true, false));
    if (area <= 0.0 || outline.x <= 0.0) {
        discard;
    }
    float kr = area * max(outline.x - outline.y, 0.0) * u_ringOpacity;
    float kf = (area * outline.x - u_ringColor.a * kr) * u_opacity;
    fragColor = floor((u_ringColor * kr + u_color * u_tint * kf) * 255.0 + TIE_BREAK) / 255.0;
    return;
#endif
    float k = coverage(p - 0.5, p) * u_opacity;
#ifndef NO_SHAPE
    // Quads without a rounded outline draw with a variant without it (NO_SHAPE), as below.
    if (u_shapeKind != 0 && k > 0.0) {
        k *= roundedCoverage(p);
    }
#endif
    if (k <= 0.0) {
        discard;
    }
#ifdef STENCIL_MASK
    // A stencil clip's mark (GLStencilClip): the pixels whose centre the outline covers, which
    // for an edge straight across the pixel are those it covers at least half of.
    if (k < 0.5) {
        discard;
    }
    fragColor = vec4(0.0);
    return;
#endif
    vec4 color = u_color;
#if defined(PLAIN_NEAREST) || defined(PLAIN_BILINEAR) || defined(PLAIN_HARDWARE) || defined(PLAIN_ATLAS)
    // A texture with one filter, no nine-slice map, in one tile (GLExecutor.plainSampling): the
    // variant samples it the one way the general code below would, and nothing else. On llvmpipe
    // the general code cost 100 ns a pixel whichever branch was taken; 200 group passes
    // composited, or 200 small images, spent most of their frame there.
    vec3 uvq = vec3(p, 1.0) * u_deviceToTexture;
    vec2 uv = uvq.xy / uvq.z;
#if defined(PLAIN_ATLAS)
    // A pass drawn into the atlas (GLPassAtlas): the texel under uv within its place there.
    color = nearestTexelIn(uv, u_atlasRegion.xy, u_atlasRegion.zw);
#elif defined(PLAIN_NEAREST)
    color = nearestTexel(uv);
#elif defined(PLAIN_BILINEAR)
    color = bilinearInFloat(uv);
#else
    color = texture(u_texture, uv);
#endif
    if (u_alphaOnly == 1) {
        color = vec4(color.a);
    }
#elif defined(GRADIENT_FILL)
    // A gradient alone (GLQuadVariant.gradient): the general code's gradient branch, as written
    // there.
    vec3 h = vec3(p, 1.0) * u_deviceToTexture;
    color = gradientColor(h.xy / h.z);
#elif !defined(SOLID_FILL)
    // Solid fills draw with a variant without the other kinds (SOLID_FILL): llvmpipe runs the
    // code behind a branch on a uniform for every pixel all the same, and a solid quad then cost
    // as much as a textured one.
    if (u_fillKind == 2) {
        color = u_color * blurredRoundedRect(p, u_blurToLocal, u_blurBox, u_blurParams, v_blurInside);
    }
    if (u_fillKind == 3) {
        color = u_color * profiledRoundedRect(p, u_blurToLocal, u_blurBox, u_profile, u_grid, u_origin);
    }
    if (u_fillKind == 4) {
        vec3 h = vec3(p, 1.0) * u_deviceToTexture;
        color = gradientColor(h.xy / h.z);
    }
    if (u_fillKind == 1) {
        vec3 uvq = vec3(p, 1.0) * u_deviceToTexture;
        vec2 uv = uvq.xy / uvq.z;
        vec2 slopes = vec2(1.0);
        if (u_sliced == 1) {
            vec2 ax = sliceAxis(uv.x, u_sliceS.xy, u_sliceTX), ay = sliceAxis(uv.y, u_sliceS.zw, u_sliceTY);
            uv = vec2(ax.x, ay.x);
            slopes = vec2(ax.y, ay.y);
        }
        if (u_tiled == 1) {
            vec2 s = uv * u_imageSize;
            if (s.x < u_tileAccept.x || s.y < u_tileAccept.y || s.x >= u_tileAccept.z || s.y >= u_tileAccept.w) {
                discard;
            }
            uv = (s - u_tileRect.xy) / u_tileRect.zw;
        }
        if (u_minFilter >= 0) {
            color = filteredSample(uv, levelOfDetail(uvq, slopes) + u_lodBias);
        } else {
            color = u_filterHere == 1 ? bilinearInFloat(uv) : texture(u_texture, uv);
        }
        if (u_alphaOnly == 1) {
            color = vec4(color.a);
        }
    }
#endif
#ifdef BACKDROP_BLEND
    // A blend mode that reads what lies beneath (GLExecutor copied it to u_backdrop): the source
    // in the target's 8-bit steps, as the CPU reference rounds it, then the mode's formula.
    vec4 source = floor(color * u_tint * k * 255.0 + TIE_BREAK) / 255.0;
    vec4 backdrop = texelFetch(u_backdrop, ivec2(floor(p)) - u_backdropOrigin, 0);
    fragColor = floor(clamp(blendWithBackdrop(u_blendMode, source, backdrop), 0.0, 1.0) * 255.0 + TIE_BREAK) / 255.0;
#else
    fragColor = floor(color * u_tint * k * 255.0 + TIE_BREAK) / 255.0;  // the target's 8-bit steps (see the top)
#endif
}
