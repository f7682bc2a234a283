// Rounded quads the general program draws (rounded images, gradients, cards whose border no batch
// takes) are drawn on their footprint instead of their pixel bounds (GLRoundedFootprint). The
// pixels left out must be exactly the ones that change nothing: the same bytes as drawing the
// bounds, turned, scaled, in mild perspective, translucent and overlapping.
import Compositor
import Foundation
import GLBackend
import LayerModel
import OpenCoreGraphics
import PixelDiff
import RasterBackend
import Testing

@Suite("Rounded quads drawn on their footprint", .serialized)
struct RoundedFootprintDrawTests {
    static func frame(scale: Double) throws -> RenderList {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 240, height: 180)
        root.backgroundColor = CGColor(red: 0.95, green: 0.95, blue: 0.96, alpha: 1)
        let image = CGImage(bitmap: Bitmap(width: 24, height: 18) { x, y in
            (UInt8(x * 10), UInt8(y * 14), UInt8((x * y) % 256), 255)
        })
        let transforms: [CATransform3D] = [
            CATransform3DMakeRotation(0.5, 0, 0, 1),
            CATransform3DScale(CATransform3DMakeRotation(-0.9, 0, 0, 1), 1.3, 0.8, 1),
            CATransform3DMakeRotation(0.785, 0, 0, 1),
            {
                var t = CATransform3DIdentity
                t.m34 = -1 / 900
                return CATransform3DRotate(t, 0.3, 0, 1, 0)
            }(),
        ]
        for (i, transform) in transforms.enumerated() {
            let layer = CALayer()
            layer.frame = CGRect(x: 20 + Double(i % 2) * 110, y: 15 + Double(i / 2) * 85, width: 90, height: 64)
            layer.transform = transform
            layer.contents = image
            layer.cornerRadius = 14
            layer.masksToBounds = true
            layer.opacity = i == 1 ? 0.75 : 1
            root.addSublayer(layer)
        }
        // A gradient with rounded corners over the images, turned: a textured rounded quad too.
        let gradient = CAGradientLayer()
        gradient.frame = CGRect(x: 80, y: 60, width: 80, height: 56)
        gradient.colors = [CGColor(red: 1, green: 0.4, blue: 0.2, alpha: 0.8), CGColor(red: 0.2, green: 0.4, blue: 1, alpha: 0.6)]
        gradient.cornerRadius = 18
        gradient.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
        root.addSublayer(gradient)
        return try RenderListBuilder(viewport: root.frame, scale: scale).build(root: root)
    }

    @Test("the same bytes as drawing the pixel bounds, within the bar of the CPU", arguments: [1.0, 2.0])
    func sameAsBounds(scale: Double) throws {
        let list = try Self.frame(scale: scale)
        let onBounds = try GLDevice()
        onBounds.drawRoundedOnBounds()
        let onFootprint = try GLDevice()
        let a = try onFootprint.render(list), b = try onBounds.render(list)
        // The turned images and the gradient at least (the one in perspective may keep its bounds).
        #expect(onFootprint.roundedFootprintDraws >= 3, "\(onFootprint.roundedFootprintDraws) drawn on their footprint")
        #expect(onBounds.roundedFootprintDraws == 0)
        var differing = 0, largest = 0
        for i in a.pixels.indices where a.pixels[i] != b.pixels[i] {
            differing += 1
            largest = max(largest, abs(Int(a.pixels[i]) - Int(b.pixels[i])))
        }
        // softpipe shades a few pixels along the turned gradient's rounded edge a step apart
        // between the fan and the bounds (10 bytes of 1.3 million at scale 2; the shader reads
        // no derivatives, so the cause is in how softpipe runs it, not pinned down); llvmpipe
        // gives the same bytes. Bounded there, exact elsewhere.
        if ProcessInfo.processInfo.environment["GALLIUM_DRIVER"] == "softpipe" {
            #expect(largest <= 1 && differing * 10_000 <= a.pixels.count, "\(differing) bytes differ from drawing the bounds, by up to \(largest)")
            withKnownIssue("softpipe shades a few edge pixels of a turned gradient a step apart between fan and bounds", isIntermittent: true) {
                #expect(differing == 0)
            }
        } else {
            #expect(differing == 0, "\(differing) bytes differ from drawing the bounds")
        }
        let report = try ImageComparison.compare(RasterRenderer().render(list), a, tolerance: AgreementBar.gpuAgainstCPU.tolerance)
        #expect(AgreementBar.gpuAgainstCPU.failure(of: report) == nil, "\(report)")
    }
}
