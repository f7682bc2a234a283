#version 300 es
// One edge of a filled path (PathOp), an instance: its share of every pixel left of it in the
// rows it spans, added into the float accumulation target (path_edges.frag). Summed over a
// closed contour's edges, a pixel holds the integral of the winding number over its square.
// Positions are in the accumulation target's pixels (the op's pixel bounds moved to 0, 0).
precision highp float;

in vec2 a_corner;                      // (0, 0), (1, 0), (0, 1), (1, 1)
in vec4 i_edge;                        // first vertex x, y; second vertex x, y
in float i_channel;                    // 0: the fill's edge (summed into red), 1: the stroke's (green)
uniform vec2 u_viewport;
flat out vec4 v_edge;                  // first vertex x, y, second vertex y, dx/dy
flat out float v_inverseSlope;
flat out float v_channel;
out vec2 v_pixel;                      // the position; at a fragment, its pixel centre

void main() {
    // Rows the edge spans, and every pixel from the left up to the one its right end lies in:
    // right of that the pixel is right of the edge, and its share is 0.
    float top = clamp(floor(min(i_edge.y, i_edge.w)), 0.0, u_viewport.y);
    float bottom = clamp(ceil(max(i_edge.y, i_edge.w)), 0.0, u_viewport.y);
    float right = clamp(ceil(max(i_edge.x, i_edge.z)), 0.0, u_viewport.x);
    vec2 p = mix(vec2(0.0, top), vec2(right, bottom), a_corner);
    gl_Position = vec4(p / u_viewport * 2.0 - 1.0, 0.0, 1.0);
    v_pixel = p;
    float slope = (i_edge.z - i_edge.x) / (i_edge.w - i_edge.y);
    v_edge = vec4(i_edge.xy, i_edge.w, slope);
    v_inverseSlope = slope != 0.0 ? 1.0 / slope : 0.0;
    v_channel = i_channel;
}
