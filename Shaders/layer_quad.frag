#version 300 es
// One QuadOp: coverage times fill times opacity, premultiplied, for source-over blending
// (glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA)). Mirrors RasterBackend's RasterRenderer.
precision highp float;
precision highp int;

const int MAX_EDGES = 32;              // CoveragePolygon.maxEdges

uniform int u_edgeCount;
uniform vec3 u_edges[MAX_EDGES];       // a, b, c: signed distance a*x + b*y + c, positive inside
uniform int u_fillKind;                // 0: solid, 1: texture
uniform vec4 u_color;                  // premultiplied, for solid fills
uniform float u_opacity;
uniform vec4 u_tint;                   // premultiplied, multiplies the fill (replicator instances)
uniform mat3 u_deviceToTexture;        // device (x, y, 1) -> (u, v, q), row-vector form
uniform highp sampler2D u_texture;

out vec4 fragColor;

float coverage(vec2 p) {
    float c = 1.0;
    for (int i = 0; i < u_edgeCount; ++i) {
        float d = dot(u_edges[i], vec3(p, 1.0));
        c *= clamp(d + 0.5, 0.0, 1.0);
    }
    return c;
}

void main() {
    vec2 p = gl_FragCoord.xy;          // device pixel centre
    float k = coverage(p) * u_opacity;
    if (k <= 0.0) {
        discard;
    }
    vec4 color = u_color;
    if (u_fillKind == 1) {
        vec3 uvq = vec3(p, 1.0) * u_deviceToTexture;
        color = texture(u_texture, uvq.xy / uvq.z);
    }
    fragColor = color * u_tint * k;
}
