// A mask drawn from its path clears every pixel its path does not cover, whatever the ops before
// it drew there; the CPU reference's quads before it skip those columns of each row
// (MaskedColumns). The frame must be the one drawn without skipping, to the byte, whatever the
// mask (turned, even-odd, stroked, a ring) and whatever it masks (gradients padded as lottie-ios
// pads them, shadows, a background with its border, images), on one thread or two.
import Compositor
import Foundation
import LayerModel
import OpenCoreGraphics
import RasterBackend
import Testing

@Suite("Quads before a path mask skip what it clears")
struct MaskedColumnsTests {
    /// Twelve masked layers over a plain background: lottie-ios's gradient fill (a gradient layer
    /// padded far past its shape, the shape its mask), cards with shadows and borders, images;
    /// masks turned, slanted, even-odd stars, rings, some stroked, some translucent.
    static func tree(seed: UInt64) -> CALayer {
        var dice = BlendModeAgreementTests.Dice(state: seed)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 150)
        root.backgroundColor = CGColor(red: 0.95, green: 0.93, blue: 0.9, alpha: 1)
        func color(_ alpha: Double = 1) -> CGColor { CGColor(red: dice.next(), green: dice.next(), blue: dice.next(), alpha: alpha) }
        for i in 0..<12 {
            let size = CGSize(width: dice.next(20...90), height: dice.next(20...70))
            let layer: CALayer
            switch i % 3 {
            case 0:
                let gradient = CAGradientLayer()
                gradient.colors = [color(), color(dice.next(0.4...1)), color()]
                gradient.startPoint = CGPoint(x: dice.next(), y: dice.next())
                gradient.endPoint = CGPoint(x: dice.next(), y: dice.next())
                layer = gradient
            case 1:
                layer = CALayer()
                layer.backgroundColor = color(dice.next(0.5...1))
                layer.borderColor = color()
                layer.borderWidth = 3
                layer.cornerRadius = 6
                layer.shadowOpacity = 0.8
                layer.shadowRadius = dice.next(1...8)
                layer.shadowOffset = CGSize(width: 3, height: 4)
            default:
                layer = CALayer()
                layer.contents = CGImage(bitmap: Bitmap(width: 12, height: 9) { x, y in
                    (UInt8(x * 20), UInt8(y * 28), 140, UInt8(120 + x * 11))
                })
            }
            // lottie-ios pads a gradient fill's layer 10,000 points a side; a smaller pad here.
            let pad = i % 3 == 0 ? 400.0 : 0
            layer.bounds = CGRect(x: 0, y: 0, width: size.width + 2 * pad, height: size.height + 2 * pad)
            layer.position = CGPoint(x: dice.next(10...190), y: dice.next(10...140))
            layer.transform = CATransform3DMakeRotation(dice.next(0...(2 * .pi)), 0, 0, 1)
            let mask = CAShapeLayer()
            mask.frame = layer.bounds
            let inset = CGRect(x: pad, y: pad, width: size.width, height: size.height)
            let path = CGMutablePath()
            switch i % 4 {
            case 0: // a slanted face, as a cube's
                path.move(to: CGPoint(x: inset.minX, y: inset.minY + inset.height * 0.3))
                path.addLine(to: CGPoint(x: inset.maxX, y: inset.minY))
                path.addLine(to: CGPoint(x: inset.maxX, y: inset.maxY - inset.height * 0.3))
                path.addLine(to: CGPoint(x: inset.minX, y: inset.maxY))
                path.closeSubpath()
            case 1: // a five-pointed star, even-odd: its centre is a hole
                for k in 0..<5 {
                    let a = Double(k) * 4 * .pi / 5 - .pi / 2
                    let p = CGPoint(x: inset.midX + inset.width / 2 * cos(a), y: inset.midY + inset.height / 2 * sin(a))
                    if k == 0 { path.move(to: p) } else { path.addLine(to: p) }
                }
                path.closeSubpath()
                mask.fillRule = .evenOdd
            case 2: // a ring
                path.addEllipse(in: inset)
                path.addEllipse(in: inset.insetBy(dx: inset.width / 4, dy: inset.height / 4))
                mask.fillRule = .evenOdd
            default: // an ellipse, stroked wider than its edge
                path.addEllipse(in: inset.insetBy(dx: 4, dy: 4))
                mask.strokeColor = CGColor(red: 0, green: 0, blue: 0, alpha: 0.6)
                mask.lineWidth = 5
            }
            mask.path = path
            mask.fillColor = CGColor(red: 0, green: 0, blue: 0, alpha: i % 5 == 2 ? 0.5 : 1)
            layer.mask = mask
            root.addSublayer(layer)
        }
        return root
    }

    @Test("skipping them, on one thread or two, draws the frame drawn without skipping", arguments: [1, 2, 3] as [UInt64])
    func sameBytes(seed: UInt64) throws {
        let root = MaskedColumnsTests.tree(seed: seed)
        let list = try RenderListBuilder(viewport: root.frame, scale: 1).build(root: root)
        // The route is taken: passes whose quads come before a mask drawn from its path.
        let masked = list.passes.compactMap { MaskedColumns.lastMask(in: $0.ops) }
        #expect(masked.count >= 6, "\(masked.count) masked passes")
        var plain = RasterRenderer(threads: 1)
        plain.skipsMaskedColumns = false
        let expected = plain.render(list)
        #expect(Set(expected.pixels).count > 100)
        for threads in [1, 2] {
            let drawn = RasterRenderer(threads: threads).render(list)
            let differing = zip(drawn.pixels, expected.pixels).filter { $0 != $1 }.count
            #expect(differing == 0, "\(threads) thread(s): \(differing) bytes differ")
        }
    }

    @Test("a slanted mask keeps a row's covered columns only, and nothing outside them shows")
    func keptColumns() throws {
        let width = 60, height = 40
        // A parallelogram: each row covers about half the bounds' width.
        let face = [DevicePoint(x: 5, y: 5), DevicePoint(x: 35, y: 5), DevicePoint(x: 55, y: 35), DevicePoint(x: 25, y: 35)]
        let mask = try #require(PathOp(source: "face", contours: [face], evenOdd: false,
                                       color: PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 1), opacity: 1,
                                       blend: .destinationIn, targetWidth: width, targetHeight: height))
        let fill = DrawOp.rectangle(0, 0, Double(width), Double(height),
                                    fill: .solid(PremultipliedColor(red: 0.2, green: 0.5, blue: 0.3, alpha: 1)),
                                    targetWidth: width, targetHeight: height)
        let ops: [DrawOp] = [fill, .path(mask)]
        let (index, kept) = try #require(MaskedColumns.lastMask(in: ops))
        #expect(index == 1 && kept.firstRow == 5 && kept.columns.count == 30)
        // Row 20 (y 20 to 21): the face spans x 15.3...45.3 at its middle, 50 columns its bounds.
        let row = kept.columns[15]
        #expect(row.lowerBound >= 14 && row.lowerBound <= 16 && row.upperBound >= 45 && row.upperBound <= 47, "\(row)")
        #expect(kept.columns.allSatisfy { $0.count <= 33 }, "\(kept.columns)")
        // Every pixel the frame shows lies in the kept columns of its row.
        let frame = RasterRenderer(threads: 1).render(RenderList.singlePass(width, height, ops))
        var shown = 0
        for y in 0..<height {
            for x in 0..<width where frame.pixels[(y * width + x) * 4 + 3] != 0 {
                shown += 1
                #expect(y >= kept.firstRow && y < kept.firstRow + kept.columns.count
                        && kept.columns[y - kept.firstRow].contains(x), "(\(x), \(y)) shows")
            }
        }
        #expect(shown > 800)
    }
}
