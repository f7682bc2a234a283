import Foundation
import LayerModel
import OpenCoreGraphics

// A layer's masks ("masksProperties") as its CALayer's mask: each mask a shape layer, added
// (union) or subtracted (Porter-Duff destination-out) in order, inverted through an even-odd
// rectangle far larger than any frame, faded by its opacity. An intersecting mask masks what the
// masks before it drew (their layer's `mask`, wrapped in a new layer for the masks after it), as
// lottie-ios's Core Animation engine nests them: destination-in as a compositing filter would
// reach only the pixels its path's shape layer draws, keeping what lies outside the path.

struct LottieMasks {
    let builder: LottieAnimationBuilder
    let document: LottieDocument

    /// A rectangle past anything drawn, for inverted masks (lottie-ios uses the same idea).
    static let outside = CGRect(x: -10_000_000, y: -10_000_000, width: 20_000_000, height: 20_000_000)

    func mask(_ masks: [LottieNode], size: CGSize) throws -> CALayer? {
        var holder = CALayer()
        holder.frame = CGRect(origin: .zero, size: size)
        var any = false
        for mask in masks {
            let mode = try mask.optionalString("mode") ?? "a"
            if mode == "n" { continue }
            guard let pt = mask["pt"] else { throw mask.fail("a mask needs a path \"pt\"") }
            let bezier = try pt.animatable { try LottieBezier($0) }
            let inverted = mask["inv"]?.bool() ?? false
            let shape = CAShapeLayer()
            shape.frame = holder.bounds
            shape.fillColor = .black
            shape.fillRule = inverted ? .evenOdd : .nonZero
            builder.animate(shape, "path", bezier) { value -> CGPath in
                let path = CGMutablePath()
                if inverted { path.addRect(Self.outside) }
                value.add(to: path)
                return path
            }
            builder.animate(shape, "opacity", try mask.numberProperty("o", default: 100)) { NSNumber(value: min(max($0 / 100, 0), 1)) }
            var masksTheOthers = false
            switch mode {
            case "s":
                if !any {
                    // The first mask subtracts from everything.
                    let all = CALayer()
                    all.frame = Self.outside
                    all.backgroundColor = .black
                    holder.addSublayer(all)
                }
                shape.compositingFilter = "destOut"
            case "i" where any:
                holder.mask = shape
                let outer = CALayer()
                outer.frame = holder.frame
                outer.addSublayer(holder)
                holder = outer
                masksTheOthers = true
            case "i", "a": break
            default: document.warn("\(mask.path).mode: \"\(mode)\" masks are drawn as added")
            }
            if let expansion = try mask["x"]?.animatable({ try $0.numbers().first ?? 0 }), expansion.keyframes.contains(where: { $0.value != 0 }) {
                document.warn("\(mask.path).x: mask expansion is not applied")
            }
            if !masksTheOthers { holder.addSublayer(shape) }
            any = true
        }
        return any ? holder : nil
    }
}
