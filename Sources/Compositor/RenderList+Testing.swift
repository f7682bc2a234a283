// Hand-made render lists for the backends' tests, without widening the public API.
import OpenCoreGraphics

extension DrawOp {
    /// An axis-aligned rectangle in device pixels, filled.
    package static func rectangle(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, fill: Fill,
                                  opacity: Double = 1, targetWidth: Int, targetHeight: Int, blend: BlendMode = .sourceOver) -> DrawOp {
        let polygon = CoveragePolygon(vertices: [DevicePoint(x: x0, y: y0), DevicePoint(x: x1, y: y0),
                                                 DevicePoint(x: x1, y: y1), DevicePoint(x: x0, y: y1)],
                                      targetWidth: targetWidth, targetHeight: targetHeight)!
        return .quad(QuadOp(source: "rectangle", localRect: Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0),
                            localToDevice: .identity, polygon: polygon, fill: fill, opacity: opacity, blend: blend))
    }
}

extension RenderList {
    /// One pass of `ops` over a transparent target.
    package static func singlePass(_ width: Int, _ height: Int, _ ops: [DrawOp],
                                   textures: [UInt64: Bitmap] = [:]) -> RenderList {
        RenderList(width: width, height: height, passes: [RenderPass(id: 0, width: width, height: height, ops: ops)],
                   textures: textures, diagnostics: [])
    }
}
