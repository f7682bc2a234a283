// The exact centre of the pixel a fragment shades, and edge distances moved there.
//
// Interpolation is exact on no driver by contract, and drivers differ in how far off it is where
// a triangle's vertices are not on whole pixels. Every fragment is shaded at a pixel centre (no
// multisampling here) and the error is far below half a pixel, so snapping the interpolated
// position gives the centre exactly; an edge distance interpolated alongside it (affine in device
// position, so interpolated to wherever v_pixel was) is carried to the centre by its gradient.
// Every fragment shader that reads its position snaps it (a floor). Only the rounded batch, whose
// vertices lie on the shape's outline, carries its edges too: the other programs draw pixel
// bounds, whose vertices are whole pixels, where interpolated edges are exact up to rounding,
// and computing all eight edges per pixel instead cost star-wars-crawl 8% on llvmpipe for no
// change on llvmpipe or softpipe (docs/testing.md, "Drivers verified").

vec2 pixelCentre(vec2 interpolated) {
    return floor(interpolated) + 0.5;
}

// Four interpolated edge distances at the centre: `gradients01` holds edges 0 and 1's (a, b),
// `gradients23` edges 2 and 3's; `shift` is the centre minus the interpolated position.
vec4 edgesAtCentre(vec4 interpolated, vec4 gradients01, vec4 gradients23, vec2 shift) {
    return interpolated + vec4(dot(gradients01.xy, shift), dot(gradients01.zw, shift),
                               dot(gradients23.xy, shift), dot(gradients23.zw, shift));
}
