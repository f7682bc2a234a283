import Foundation
import OpenQuartzCore
import OpenQuartzCore
import SceneCatalog

/// Path construction, dashing, stroking and rasterization with extreme values: NaN, infinities,
/// 1e30 and denormals in points, radii, widths, dash lengths and the transform. Nothing may
/// crash or hang; the pixels stay in range.
func fuzzPathRaster(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzedBytes(Array(UnsafeBufferPointer(start: data, count: size)))
    func number(_ range: ClosedRange<CGFloat>) -> CGFloat { input.number(in: range, hostile: true) }
    func point() -> CGPoint { CGPoint(x: number(-20...84), y: number(-20...84)) }

    let path = CGMutablePath()
    for _ in 0..<input.int(in: 1...24) {
        switch input.int(in: 0...9) {
        case 0: path.move(to: point())
        case 1, 2: path.addLine(to: point())
        case 3: path.addQuadCurve(to: point(), control: point())
        case 4: path.addCurve(to: point(), control1: point(), control2: point())
        case 5: path.addArc(center: point(), radius: number(0...40), startAngle: number(-7...7), endAngle: number(-7...7), clockwise: input.bool())
        case 6: path.addArc(tangent1End: point(), tangent2End: point(), radius: number(0...30))
        case 7: path.addRoundedRect(in: CGRect(origin: point(), size: CGSize(width: number(-10...60), height: number(-10...60))),
                                    cornerWidth: number(0...20), cornerHeight: number(0...20))
        case 8: path.addEllipse(in: CGRect(origin: point(), size: CGSize(width: number(-10...60), height: number(-10...60))))
        default: path.closeSubpath()
        }
    }
    _ = path.boundingBox
    _ = path.contains(point(), using: input.bool() ? .evenOdd : .winding)
    let dashed = path.copy(dashingWithPhase: number(-10...10), lengths: (0..<input.int(in: 0...4)).map { _ in number(-1...12) })
    let stroked = dashed.copy(strokingWithWidth: number(0...12), lineCap: [.butt, .round, .square][input.int(in: 0...2)],
                              lineJoin: [.miter, .round, .bevel][input.int(in: 0...2)], miterLimit: number(0...20))
    _ = path.trimmed(from: number(0...1), to: number(0...1))

    guard let context = CGContext(width: 64, height: 64) else { return 0 }
    context.setFillColor(red: input.unit(), green: input.unit(), blue: input.unit(), alpha: input.unit())
    context.concatenate(CGAffineTransform(a: number(-3...3), b: number(-1...1), c: number(-1...1), d: number(-3...3),
                                          tx: number(-20...20), ty: number(-20...20)))
    if input.bool() { context.setShadow(offset: CGSize(width: number(-5...5), height: number(-5...5)), blur: number(0...20)) }
    context.addPath(path)
    context.fillPath(using: input.bool() ? .evenOdd : .winding)
    context.addPath(stroked)
    context.fillPath()
    context.setLineWidth(number(0...10))
    context.setLineDash(phase: number(0...5), lengths: [number(0...5), number(0...5)])
    context.addPath(path)
    context.strokePath()
    return 0
}
