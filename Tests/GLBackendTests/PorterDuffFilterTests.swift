// Core Animation's Porter-Duff compositing filters ("xor", "destOut", ... CGBlendMode's operators
// by CA's names) on both backends, held to CGBlendMode's documented formulas on premultiplied
// colours (R = S (1 - Da) + D (1 - Sa) for xor, ...), and the inverted matte lottie-ios builds
// from "xor": a black layer with the matte composited "xor" into it masks to the matte's outside.
import Compositor
import Foundation
import GLBackend
import LayerModel
import OpenCoreGraphics
import RasterBackend
import Testing

@Suite("Porter-Duff compositing filters")
struct PorterDuffFilterTests {
    typealias RGBA = (Double, Double, Double, Double)

    /// CGBlendMode's formulas (its documentation's R = ... with S, D, Sa, Da), on each
    /// premultiplied channel, alpha included.
    static let formulas: [(name: String, apply: @Sendable (_ s: Double, _ d: Double, _ sa: Double, _ da: Double) -> Double)] = [
        ("clear", { _, _, _, _ in 0 }),
        ("copy", { s, _, _, _ in s }),
        ("sourceIn", { s, _, _, da in s * da }),
        ("sourceOut", { s, _, _, da in s * (1 - da) }),
        ("sourceAtop", { s, d, sa, da in s * da + d * (1 - sa) }),
        ("destOver", { s, d, _, da in s * (1 - da) + d }),
        ("destIn", { _, d, sa, _ in d * sa }),
        ("destOut", { _, d, sa, _ in d * (1 - sa) }),
        ("destAtop", { s, d, sa, da in s * (1 - da) + d * sa }),
        ("xor", { s, d, sa, da in s * (1 - da) + d * (1 - sa) }),
        ("plusL", { s, d, _, _ in min(1, s + d) }),
        ("plusD", { s, d, _, _ in max(0, 1 - ((1 - d) + (1 - s))) }),
    ]

    /// A 40 x 20 frame: an opaque backdrop on the left half, a translucent one on the right, and
    /// a layer of `alpha` across the middle composited by `name`.
    static func frame(_ name: String, alpha: Double) throws -> RenderList {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 40, height: 20)
        for (i, alpha) in [1.0, 0.5].enumerated() {
            let half = CALayer()
            half.frame = CGRect(x: Double(i) * 20, y: 0, width: 20, height: 20)
            half.backgroundColor = CGColor(red: 0.2, green: 0.6, blue: 1, alpha: alpha)
            root.addSublayer(half)
        }
        let layer = CALayer()
        layer.frame = CGRect(x: 10, y: 4, width: 20, height: 12)
        layer.backgroundColor = CGColor(red: 1, green: 0.4, blue: 0, alpha: alpha)
        layer.compositingFilter = name
        root.addSublayer(layer)
        return try RenderListBuilder(viewport: root.frame, scale: 1).build(root: root)
    }

    @Test("each filter gives CGBlendMode's formula inside the layer and keeps the backdrop outside it",
          arguments: formulas.map(\.name))
    func documentedFormula(name: String) throws {
        #expect(BlendMode(compositingFilter: name) != nil, "\(name) names a mode")
        let apply = try #require(Self.formulas.first { $0.name == name }).apply
        // plusD's formula is documented for opaque colours: it is held there, and its translucent
        // case (alpha min(1, Sa + Da), each colour's shortfall below its alpha summed) is ours.
        let alpha = name == "plusD" ? 1 : 0.8
        let list = try Self.frame(name, alpha: alpha)
        let images = [("GPU", try GLDevice.shared().render(list)), ("CPU", RasterRenderer().render(list))]
        let source: RGBA = (1 * alpha, 0.4 * alpha, 0, alpha)
        let backdrops: [(x: Int, alpha: Double)] = name == "plusD" ? [(15, 1)] : [(15, 1), (25, 0.5)]
        for (backend, image) in images {
            for backdrop in backdrops {
                let d: RGBA = (0.2 * backdrop.alpha, 0.6 * backdrop.alpha, 1 * backdrop.alpha, backdrop.alpha)
                let want = [apply(source.0, d.0, source.3, d.3), apply(source.1, d.1, source.3, d.3),
                            apply(source.2, d.2, source.3, d.3), apply(source.3, d.3, source.3, d.3)]
                let p = image[backdrop.x, 10]
                let got = [p.0, p.1, p.2, p.3].map { Double($0) / 255 }
                for c in 0..<4 {
                    #expect(abs(got[c] - want[c]) <= 2.5 / 255,
                            "\(name) on \(backend) over alpha \(backdrop.alpha): channel \(c) is \(got[c] * 255), CGBlendMode gives \(want[c] * 255)")
                }
                // Outside the layer the backdrop is as it was.
                let outside = image[backdrop.x, 1]
                #expect(abs(Double(outside.3) - backdrop.alpha * 255) <= 1, "\(name) on \(backend) outside the layer")
            }
        }
    }

    @Test("an inverted matte as lottie-ios builds it: the matte composited xor into an opaque layer shows the masked layer outside the matte only")
    func xorInvertedMatte() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
        let content = CALayer()
        content.frame = root.bounds
        content.backgroundColor = CGColor(red: 0.9, green: 0.1, blue: 0.1, alpha: 1)
        // The inverted mask: opaque black far past the content, with the matte xor'ed out of it.
        let inverted = CALayer()
        inverted.frame = CGRect(x: -1000, y: -1000, width: 2040, height: 2040)
        inverted.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        let matte = CAShapeLayer()
        matte.frame = CGRect(x: 1000, y: 1000, width: 40, height: 40)
        matte.path = CGPath(rect: CGRect(x: 10, y: 10, width: 20, height: 20), transform: nil)
        matte.fillColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        matte.compositingFilter = "xor"
        inverted.addSublayer(matte)
        content.mask = inverted
        root.addSublayer(content)
        let list = try RenderListBuilder(viewport: root.frame, scale: 1).build(root: root)
        for (backend, image) in [("GPU", try GLDevice.shared().render(list)), ("CPU", RasterRenderer().render(list))] {
            #expect(image[20, 20].3 == 0, "\(backend): inside the matte the content is masked away")
            for (x, y) in [(5, 5), (35, 20), (20, 35)] {
                let p = image[x, y]
                #expect(abs(Int(p.0) - 230) <= 1 && abs(Int(p.1) - 26) <= 1 && p.2 <= 26 && p.3 == 255,
                        "\(backend): outside the matte, at (\(x), \(y)), the content shows: \(p)")
            }
        }
    }
}
