// `import CoreGraphics` on Linux: OpenCoreGraphics and Foundation's CG types (this file imports
// nothing else of ours). With Testing beside it, as in any test file: Swift Testing's
// cross-import of CoreGraphics must find a module (see Sources/_Testing_CoreGraphics).
import CoreGraphics
import Testing

@Test("import CoreGraphics alone brings CGPath, CGContext, CGColor and the geometry types")
func coreGraphicsAloneIsEnough() throws {
    let path = CGMutablePath()
    path.addRect(CGRect(x: 1, y: 1, width: 4, height: CGFloat(4)))
    let context = try #require(CGContext(width: 8, height: 8))
    context.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
    context.addPath(path)
    context.fillPath()
    let image = try #require(context.makeImage())
    #expect(image.width == 8 && path.boundingBoxOfPath == CGRect(x: 1, y: 1, width: 4, height: 4))
}
