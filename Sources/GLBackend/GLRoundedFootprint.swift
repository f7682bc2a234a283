import CEGL
import Compositor

/// Where the general program draws a rounded quad (a turned card, a card and its border drawn as
/// a pair): its footprint (`RoundedShape.footprint`, outside which the shape's coverage is zero)
/// instead of its pixel bounds. llvmpipe runs every instruction of the program at every pixel it
/// shades, and a card turned by 45 degrees has half its bounds off the shape.
///
/// The footprint is grown by one more pixel and its corners moved out to whole pixels: the
/// program's position and edge distances are interpolated from the vertices, exactly (to rounding)
/// when they lie on whole pixels, as the pixel bounds' do (docs/testing.md), and moving a corner
/// by at most half a pixel's diagonal keeps the grown quad around the footprint.
enum GLRoundedFootprint {
    /// A triangle fan over the quad, or nil where the bounds are to be drawn: no footprint (an
    /// uneven map, perspective near the eye), or one that saves nothing.
    static func fan(for shape: RoundedShape, bounds: PixelRect) -> [GLfloat]? {
        guard let footprint = shape.footprint(within: bounds),
              let grown = footprint.movedInward(by: -1) else { return nil }
        let whole = grown.map { DevicePoint(x: $0.x.rounded(), y: $0.y.rounded()) }
        guard abs(CoveragePolygon.signedArea(whole)) < Double(bounds.width * bounds.height) * 0.9 else { return nil }
        return whole.flatMap { [GLfloat($0.x), GLfloat($0.y)] }
    }
}
