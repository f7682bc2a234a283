import Foundation
import LayerModel
import OpenCoreGraphics

// A layer's masks ("masksProperties") as its CALayer's mask: each mask a shape layer, added
// (union) or subtracted (Porter-Duff destination-out) in order, inverted through an even-odd
// rectangle far larger than any frame, faded by its opacity. An intersecting mask masks what the
// masks before it drew (their layer's `mask`, wrapped in a new layer for the masks after it), as
// lottie-ios's Core Animation engine nests them: destination-in as a compositing filter would
// reach only the pixels its path's shape layer draws, keeping what lies outside the path. A
// mask's expansion (`x`) grows or shrinks its outline as an offset path with round joins,
// whichever way the outline runs (lottie-ios's Core Animation engine leaves it out).

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
            func path(_ value: LottieBezier) -> CGPath {
                let path = CGMutablePath()
                if inverted { path.addRect(Self.outside) }
                value.add(to: path)
                return path
            }
            if let expansion = try mask["x"]?.animatable({ try $0.numbers().first ?? 0 }), expansion.keyframes.contains(where: { $0.value != 0 }) {
                // Expanded (or contracted) as an offset path with round joins, worked out a frame
                // apart where the path or the expansion moves.
                let times = bezier.keyTimes + expansion.keyTimes
                builder.sampled(shape, "path", times: times) { frame -> Any in
                    let value = bezier.value(at: frame, interpolate: LottieBezier.mix)
                    return path(Self.expanded(value, by: expansion.value(at: frame) { $0 + ($1 - $0) * $2 }))
                }
            } else {
                builder.animate(shape, "path", bezier, path)
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
            if !masksTheOthers { holder.addSublayer(shape) }
            any = true
        }
        return any ? holder : nil
    }

    /// `outline` grown by `distance` (shrunk when negative) whichever way it runs, its corners
    /// rounded as it grows.
    static func expanded(_ outline: LottieBezier, by distance: Double) -> LottieBezier {
        guard distance != 0, outline.vertices.count > 2 else { return outline }
        // The offset moves a clockwise outline out: an anticlockwise one (negative area on a
        // y-down screen) takes the other sign.
        let v = outline.vertices
        let area = v.indices.reduce(0.0) { sum, i in
            let a = v[i], b = v[(i + 1) % v.count]
            return sum + a.x * b.y - b.x * a.y
        }
        return LottieOffsetPath.offset(outline, by: area < 0 ? -distance : distance, join: 2, miterLimit: 4)
    }
}
