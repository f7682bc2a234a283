import Foundation
import OpenCoreGraphics

/// The level of detail at which a texture is sampled, as OpenGL ES defines it (3.0 spec, 3.8.10):
/// lod = log2(rho), where rho is the larger of the lengths, in texels of the base image, of the
/// texture-coordinate steps one pixel right and one pixel down. Here those steps are the exact
/// derivatives of the projective map (and of a nine-slice map after it) at the pixel centre, not
/// a driver's finite differences over a 2x2 quad, so both backends pick the same level.
public enum TextureLevelOfDetail {
    /// lod at device point (x, y) for a texture `width` x `height` texels; -infinity where the
    /// map is degenerate (a magnification).
    @inlinable
    public static func at(x: Double, y: Double, map m: ProjectiveTransform2D, slices: NineSlice?,
                          width: Int, height: Int) -> Double {
        let h = m.applyHomogeneous(x: x, y: y)
        guard h.w != 0 else { return -.infinity }
        // d(u/w)/dx = (u_x - (u/w) w_x) / w, and the same for v and for y.
        let u = h.x / h.w, v = h.y / h.w
        var dudx = (m.m11 - u * m.m13) / h.w, dvdx = (m.m12 - v * m.m13) / h.w
        var dudy = (m.m21 - u * m.m23) / h.w, dvdy = (m.m22 - v * m.m23) / h.w
        if let slices {
            let kx = slices.x.map(u).slope, ky = slices.y.map(v).slope
            dudx *= kx; dudy *= kx
            dvdx *= ky; dvdy *= ky
        }
        let W = Double(width), H = Double(height)
        let alongX = ((dudx * W) * (dudx * W) + (dvdx * H) * (dvdx * H)).squareRoot()
        let alongY = ((dudy * W) * (dudy * W) + (dvdy * H) * (dvdy * H)).squareRoot()
        let rho = max(alongX, alongY)
        return rho > 0 && rho.isFinite ? log2(rho) : -.infinity
    }
}
