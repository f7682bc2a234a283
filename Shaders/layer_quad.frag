#version 300 es
// One QuadOp: coverage times fill times opacity, premultiplied, for source-over blending
// (glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA)). Mirrors RasterBackend's RasterRenderer.
precision highp float;
precision highp int;

const int MAX_EDGES = 32;              // CoveragePolygon.maxEdges

uniform int u_edgeCount;
uniform vec3 u_edges[MAX_EDGES];       // a, b, c: signed distance a*x + b*y + c, positive inside
uniform int u_fillKind;                // 0: solid, 1: texture, 2: blurred rounded rectangle
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
uniform int u_tiled;                   // 1: the texture is one tile of a larger image
uniform vec2 u_imageSize;              // the whole image, in texels
uniform vec4 u_tileAccept;             // sample points this tile draws: min x, min y, max x, max y (texels)
uniform vec4 u_tileRect;               // the tile's texels in the image: x, y, width, height
uniform mat3 u_blurToLocal;            // device -> the blurred shape's plane (fill kind 2)
uniform vec4 u_blurBox;                // centre x, y, half width, half height, in that plane
uniform vec2 u_blurParams;             // corner radius, sigma

out vec4 fragColor;

in vec4 v_edges0;                      // the first eight edge distances, from the vertex stage
in vec4 v_edges1;

float coverage(vec2 p) {
    vec4 a = clamp(v_edges0 + 0.5, 0.0, 1.0), b = clamp(v_edges1 + 0.5, 0.0, 1.0);
    float c = a.x * a.y * a.z * a.w * b.x * b.y * b.z * b.w;
    for (int i = 8; i < u_edgeCount; ++i) {
        float d = dot(u_edges[i], vec3(p, 1.0));
        c *= clamp(d + 0.5, 0.0, 1.0);
    }
    return c;
}

// Signed distance to a rounded rectangle (negative inside) and its gradient, in the layer's plane.
// Mirrors RoundedRectangle.signedDistance in Compositor.
vec3 roundedDistance(vec2 l, vec4 rect, vec4 radii) {
    vec2 halfSize = rect.zw * 0.5;
    vec2 d = l - (rect.xy + halfSize);
    float r = d.x >= 0.0 ? (d.y >= 0.0 ? radii.z : radii.y) : (d.y >= 0.0 ? radii.w : radii.x);
    if (u_continuous == 1) r = min(r * 1.528, min(halfSize.x, halfSize.y));  // RoundedRectangle.continuousExtent
    vec2 q = abs(d) - (halfSize - vec2(r));
    vec2 s = vec2(d.x >= 0.0 ? 1.0 : -1.0, d.y >= 0.0 ? 1.0 : -1.0);
    if (q.x > 0.0 && q.y > 0.0) {
        if (u_continuous == 1) {
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

// The share of a pixel's square inside a straight edge d pixels away with device normal g.
// Mirrors RoundedShape.pixelCoverage.
float pixelCoverage(float d, vec2 g) {
    float len = length(g);
    if (len <= 0.0) return clamp(0.5 - d, 0.0, 1.0);
    float a = min(abs(g.x), abs(g.y)) / len, b = max(abs(g.x), abs(g.y)) / len;
    float s = -d, halfWidth = (a + b) * 0.5, linear = (b - a) * 0.5;
    if (s >= halfWidth) return 1.0;
    if (s <= -halfWidth) return 0.0;
    if (abs(s) <= linear) return 0.5 + s / b;
    float corner = (halfWidth - abs(s)) * (halfWidth - abs(s)) / (2.0 * a * b);
    return s > 0.0 ? 1.0 - corner : corner;
}

// Coverage of the rounded shape at device point p: distances converted to device pixels with the
// exact derivative of the projective map. Mirrors RoundedShape.coverage.
float roundedCoverage(vec2 p) {
    vec3 h = vec3(p, 1.0) * u_deviceToLocal;
    if (h.z <= 0.0) return 0.0;
    vec2 l = h.xy / h.z;
    mat3 m = u_deviceToLocal;   // m[column][row]: m[0] = (m11, m21, m31)
    float w2 = h.z * h.z;
    float dxdx = (m[0][0] * h.z - h.x * m[2][0]) / w2, dxdy = (m[0][1] * h.z - h.x * m[2][1]) / w2;
    float dydx = (m[1][0] * h.z - h.y * m[2][0]) / w2, dydy = (m[1][1] * h.z - h.y * m[2][1]) / w2;
    vec3 o = roundedDistance(l, u_outerRect, u_outerRadii);
    vec2 g = vec2(o.y * dxdx + o.z * dydx, o.y * dxdy + o.z * dydy);
    float outside = pixelCoverage(length(g) > 0.0 ? o.x / length(g) : o.x, g);
    if (u_shapeKind == 2 && outside > 0.0) {
        vec3 i = roundedDistance(l, u_innerRect, u_innerRadii);
        vec2 gi = vec2(i.y * dxdx + i.z * dydx, i.y * dxdy + i.z * dydy);
        outside *= 1.0 - pixelCoverage(length(gi) > 0.0 ? i.x / length(gi) : i.x, gi);
    }
    return outside;
}

//! include blurred_rounded_rect.glsl

void main() {
    vec2 p = gl_FragCoord.xy;          // device pixel centre
    float k = coverage(p) * u_opacity;
    if (u_shapeKind != 0 && k > 0.0) {
        k *= roundedCoverage(p);
    }
    if (k <= 0.0) {
        discard;
    }
    vec4 color = u_color;
    if (u_fillKind == 2) {
        color = u_color * blurredRoundedRect(p, u_blurToLocal, u_blurBox, u_blurParams);
    }
    if (u_fillKind == 1) {
        vec3 uvq = vec3(p, 1.0) * u_deviceToTexture;
        vec2 uv = uvq.xy / uvq.z;
        if (u_tiled == 1) {
            vec2 s = uv * u_imageSize;
            if (s.x < u_tileAccept.x || s.y < u_tileAccept.y || s.x >= u_tileAccept.z || s.y >= u_tileAccept.w) {
                discard;
            }
            uv = (s - u_tileRect.xy) / u_tileRect.zw;
        }
        color = texture(u_texture, uv);
        if (u_alphaOnly == 1) {
            color = vec4(color.a);
        }
    }
    fragColor = color * u_tint * k;
}
