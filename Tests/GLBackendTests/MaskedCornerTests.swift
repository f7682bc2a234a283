// maskedCorners leaves some corners square: their radius is 0. With continuous corners the
// superellipse's distance divided by that radius (NaN), and the CPU reference trapped turning the
// colour into bytes. A square corner is square whatever the curve, on both backends.
import Compositor
import Foundation
import GLBackend
import LayerModel
import OpenCoreGraphics
import PixelDiff
import RasterBackend
import Testing

@Suite("Masked corners")
struct MaskedCornerTests {
    static let masks: [CACornerMask] = [[], [.layerMinXMinYCorner], [.layerMaxXMinYCorner, .layerMinXMaxYCorner],
                                        [.layerMinXMinYCorner, .layerMaxXMinYCorner, .layerMaxXMaxYCorner]]

    /// Cards 40 x 30 at whole points, corner radius 10, each with one set of masked corners, with
    /// and without a border, upright (the corner pixels checked) and turned.
    static func cards(curve: CALayerCornerCurve) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 240, height: 160)
        root.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        for (i, mask) in masks.enumerated() {
            for (j, turned) in [false, true].enumerated() {
                let card = CALayer()
                card.frame = CGRect(x: 10 + Double(i) * 56, y: 10 + Double(j) * 70, width: 40, height: 30)
                card.cornerRadius = 10
                card.cornerCurve = curve
                card.maskedCorners = mask
                card.backgroundColor = CGColor(red: 0.1, green: 0.3, blue: 0.8, alpha: 1)
                card.borderWidth = i % 2 == 0 ? 3 : 0
                card.borderColor = CGColor(red: 0.9, green: 0.5, blue: 0.1, alpha: 0.8)
                if turned { card.transform = CATransform3DMakeRotation(0.35, 0, 0, 1) }
                root.addSublayer(card)
            }
        }
        return root
    }

    @Test("square corners stay square and rounded ones round, circular and continuous, CPU and GPU alike",
          arguments: [CALayerCornerCurve.circular, .continuous])
    func squareCornersStaySquare(curve: CALayerCornerCurve) throws {
        let root = MaskedCornerTests.cards(curve: curve)
        let list = try RenderListBuilder(viewport: root.frame, scale: 1).build(root: root)
        let cpu = RasterRenderer().render(list)
        let gpu = try GLDevice.shared().render(list)
        for (name, image) in [("CPU", cpu), ("GPU", gpu)] {
            for (i, mask) in MaskedCornerTests.masks.enumerated() {
                // The upright card's corner pixels: (x, y) at each corner, just inside.
                let left = 10 + i * 56, top = 10
                let corners: [(CACornerMask, Int, Int)] = [(.layerMinXMinYCorner, left, top), (.layerMaxXMinYCorner, left + 39, top),
                                                           (.layerMinXMaxYCorner, left, top + 29), (.layerMaxXMaxYCorner, left + 39, top + 29)]
                for (corner, x, y) in corners {
                    let pixel = image[x, y]
                    let untouched = pixel.0 == 255 && pixel.1 == 255 && pixel.2 == 255
                    // A rounded corner leaves its corner pixel to the background; a square one covers it.
                    #expect(untouched == mask.contains(corner), "\(name), \(curve), card \(i): corner \(corner.rawValue) pixel \(pixel)")
                }
            }
        }
        let report = try ImageComparison.compare(cpu, gpu, tolerance: AgreementBar.gpuAgainstCPU.tolerance)
        #expect(AgreementBar.gpuAgainstCPU.failure(of: report) == nil, "\(report)")
    }
}
