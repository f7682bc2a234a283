#version 300 es
// The area of the pixel inside the instance's outline (polygon_coverage.glsl, as layer_quad.frag's
// EXACT_COVERAGE variant) times the image sampled bilinearly in float (as its PLAIN_BILINEAR
// variant and the CPU reference) times the instance's colour factor, in the target's 8-bit steps.
precision highp float;

const float TIE_BREAK = 0.5009765625;  // see solid_batch.frag

//! include pixel_centre.glsl
//! include polygon_coverage.glsl

uniform highp sampler2D u_texture;
in vec2 v_pixel;
flat in vec4 v_color;
flat in vec4 v_edge0;
flat in vec4 v_edge1;
flat in vec4 v_edge2;
flat in vec4 v_edge3;
flat in vec4 v_inverseSlopes;
flat in vec3 v_map0;
flat in vec3 v_map1;
flat in vec3 v_map2;
out vec4 fragColor;

vec4 bilinearInFloat(vec2 uv) {
    ivec2 size = textureSize(u_texture, 0);
    vec2 t = clamp(uv * vec2(size) - 0.5, vec2(-2.0), vec2(size) + 1.0);
    vec2 base = floor(t), f = t - base;
    ivec2 lo = clamp(ivec2(base), ivec2(0), size - 1), hi = clamp(ivec2(base) + 1, ivec2(0), size - 1);
    vec4 top = mix(texelFetch(u_texture, lo, 0), texelFetch(u_texture, ivec2(hi.x, lo.y), 0), f.x);
    vec4 bottom = mix(texelFetch(u_texture, ivec2(lo.x, hi.y), 0), texelFetch(u_texture, hi, 0), f.x);
    return mix(top, bottom, f.y);
}

void main() {
    vec2 p = pixelCentre(v_pixel);
    vec4 corner = vec4(p - 0.5, p.y - 0.5, 0.0);
    float k = clamp(edgeShare(v_edge0 - corner, v_inverseSlopes.x) + edgeShare(v_edge1 - corner, v_inverseSlopes.y)
                    + edgeShare(v_edge2 - corner, v_inverseSlopes.z) + edgeShare(v_edge3 - corner, v_inverseSlopes.w), 0.0, 1.0);
    if (k <= 0.0) {
        discard;
    }
    vec3 h = vec3(p, 1.0);
    vec3 uvq = vec3(dot(h, v_map0), dot(h, v_map1), dot(h, v_map2));
    vec4 color = bilinearInFloat(uvq.xy / uvq.z);
    fragColor = floor(color * v_color * k * 255.0 + TIE_BREAK) / 255.0;
}
