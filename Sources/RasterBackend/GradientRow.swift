import CPixelKernels
import Compositor
import OpenCoreGraphics

/// A gradient's rows of source-over in C (`oq_gradient_over`): the fill's colour at each pixel
/// centre from its formula (GradientFill.color(atX:y:), CGGradient's stops) blended as the quad's
/// Swift path blends it, made once per draw. The same bytes (`GradientRowTests` holds every
/// kernel copy to the Swift path, `RasterRenderer.usesKernels = false`).
struct GradientRow {
    private let map: [Double]
    private let stops: [Double]
    private let kind: Int32
    private let gradient: GradientFill
    private let tint: [Double]
    private let opacity: Double
    /// The fill's colour table where the draw reads one (RasterRenderer.colorTable(for:over:)).
    private let table: GradientColorTable?

    init(_ gradient: GradientFill, tint: PremultipliedColor, opacity: Double, table: GradientColorTable?) {
        let m = gradient.deviceToLocal
        map = [m.m11, m.m12, m.m13, m.m21, m.m22, m.m23, m.m31, m.m32, m.m33]
        stops = gradient.stops.flatMap { [$0.location, $0.red, $0.green, $0.blue, $0.alpha] }
        kind = switch gradient.kind {
        case .axial: Int32(OQ_GRADIENT_AXIAL)
        case .radial: Int32(OQ_GRADIENT_RADIAL)
        case .conic: Int32(OQ_GRADIENT_CONIC)
        }
        self.gradient = gradient
        self.tint = [tint.red, tint.green, tint.blue, tint.alpha]
        self.opacity = opacity
        self.table = table
    }

    /// Source-over of pixels `start..<end` of row `y`, each wholly covered.
    func blend(row y: Int, from start: Int, to end: Int, into pixels: UnsafeMutableBufferPointer<UInt8>, width: Int) {
        guard end > start, !stops.isEmpty else { return }
        // The kernel counts columns in 32 bits (a conversion each lane has on AVX2); a target's
        // columns are bounded by the image limits far below.
        precondition(start >= 0 && end <= Int(Int32.max), "a gradient row's columns past 32 bits")
        oq_gradient_over(pixels.baseAddress! + (y * width + start) * 4, end - start, start, Double(y) + 0.5, map, kind,
                         gradient.start.x, gradient.start.y, gradient.end.x, gradient.end.y, stops, stops.count / 5,
                         gradient.colorSpace == .genericRGB ? GenericRGB.tables : nil, table?.values, tint, opacity)
    }
}
