import Foundation
import OpenQuartzCore

/// Layer trees made from bytes: the fuzz targets' and the differential runner's scenes. Every
/// kind of layer and every compositing property the render list knows appears: 3D transforms with
/// perspective, masks, shadows, borders, rounded corners, clipping, group opacity, rasterization,
/// replicators, shapes, gradients, text and image contents. `hostile` adds NaN, infinite and huge
/// values, which must never crash and must be left out the same way by both backends.
public enum RandomLayerTree {
    /// The tree, drawn into a `size` x `size` point viewport from (0, 0).
    public static func make(from input: inout FuzzedBytes, size: CGFloat = 64, maxLayers: Int = 24,
                            hostile: Bool = false) -> CALayer {
        var maker = Maker(input: input, size: size, budget: maxLayers, hostile: hostile)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: size, height: size)
        root.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        let children = maker.input.int(in: 1...4)
        for _ in 0..<children where maker.budget > 0 { root.addSublayer(maker.layer(depth: 1)) }
        CATransaction.commit()
        input = maker.input
        return root
    }

    private struct Maker {
        var input: FuzzedBytes
        let size: CGFloat
        var budget: Int
        let hostile: Bool

        mutating func number(_ range: ClosedRange<CGFloat>) -> CGFloat { input.number(in: range, hostile: hostile) }

        mutating func color() -> CGColor {
            CGColor(red: input.unit(), green: input.unit(), blue: input.unit(), alpha: 0.25 + 0.75 * input.unit())
        }

        mutating func layer(depth: Int) -> CALayer {
            budget -= 1
            let layer: CALayer
            switch input.int(in: 0...9) {
            case 0: layer = shape()
            case 1: layer = gradient()
            case 2: layer = text()
            case 3: layer = replicator()
            case 4: layer = CATransformLayer()
            default: layer = CALayer()
            }
            layer.bounds = CGRect(x: 0, y: 0, width: number(0...size), height: number(0...size))
            layer.position = CGPoint(x: number(0...size), y: number(0...size))
            if input.byte() < 64 { layer.anchorPoint = CGPoint(x: number(-0.5...1.5), y: number(-0.5...1.5)) }
            if !(layer is CATransformLayer) { style(layer) }
            transform(layer)
            if input.byte() < 40, budget > 0 { layer.mask = mask() }
            let children = depth < 5 ? input.int(in: 0...3) : 0
            for _ in 0..<children where budget > 0 { layer.addSublayer(self.layer(depth: depth + 1)) }
            return layer
        }

        mutating func style(_ layer: CALayer) {
            if input.bool() { layer.backgroundColor = color() }
            if input.byte() < 100 { layer.cornerRadius = number(0...size / 2) }
            if input.byte() < 60 {
                layer.borderWidth = number(0...6)
                layer.borderColor = color()
            }
            if input.byte() < 60 { layer.masksToBounds = true }
            if input.byte() < 60 { layer.opacity = Float(number(0...1)) }
            if input.byte() < 30 { layer.allowsGroupOpacity = false }
            if input.byte() < 40 {
                layer.shadowOpacity = Float(number(0...1))
                layer.shadowRadius = number(0...12)
                layer.shadowOffset = CGSize(width: number(-6...6), height: number(-6...6))
                layer.shadowColor = color()
                if input.byte() < 60 { layer.shadowPath = CGPath(ellipseIn: layer.bounds.insetBy(dx: 2, dy: 2), transform: nil) }
            }
            if input.byte() < 40 { layer.contents = image() }
            if input.byte() < 20 { layer.shouldRasterize = true }
            if input.byte() < 20 { layer.isDoubleSided = false }
        }

        mutating func transform(_ layer: CALayer) {
            var t = CATransform3DIdentity
            switch input.int(in: 0...5) {
            case 0: t = CATransform3DMakeRotation(number(-3.2...3.2), 0, 0, 1)
            case 1:
                t.m34 = -1 / number(100...600)
                t = CATransform3DRotate(t, number(-1.4...1.4), input.unit(), input.unit(), 0)
            case 2: t = CATransform3DMakeScale(number(-2...2), number(-2...2), 1)
            case 3: t = CATransform3DMakeTranslation(number(-8...8), number(-8...8), number(-30...30))
            default: break
            }
            layer.transform = t
            if input.byte() < 30 { layer.zPosition = number(-20...20) }
            if input.byte() < 20 {
                var sub = CATransform3DIdentity
                sub.m34 = -1 / number(100...800)
                layer.sublayerTransform = sub
            }
        }

        mutating func mask() -> CALayer {
            budget -= 1
            let mask = input.bool() ? shape() : CALayer()
            mask.frame = CGRect(x: number(-8...size / 2), y: number(-8...size / 2), width: number(0...size), height: number(0...size))
            if !(mask is CAShapeLayer) { mask.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: input.unit()) }
            if input.bool() { mask.cornerRadius = number(0...size / 4) }
            return mask
        }

        mutating func shape() -> CAShapeLayer {
            let shape = CAShapeLayer()
            let path = CGMutablePath()
            path.move(to: CGPoint(x: number(0...size), y: number(0...size)))
            for _ in 0..<input.int(in: 1...6) {
                let end = CGPoint(x: number(0...size), y: number(0...size))
                switch input.int(in: 0...3) {
                case 0: path.addLine(to: end)
                case 1: path.addQuadCurve(to: end, control: CGPoint(x: number(0...size), y: number(0...size)))
                case 2: path.addCurve(to: end, control1: CGPoint(x: number(0...size), y: number(0...size)),
                                      control2: CGPoint(x: number(0...size), y: number(0...size)))
                default: path.addArc(center: end, radius: number(0...size / 3), startAngle: number(0...6.3),
                                     endAngle: number(0...6.3), clockwise: input.bool())
                }
            }
            if input.bool() { path.closeSubpath() }
            shape.path = path
            shape.fillColor = input.bool() ? color() : nil
            shape.strokeColor = input.bool() ? color() : nil
            shape.lineWidth = number(0...8)
            shape.lineJoin = [.miter, .round, .bevel][input.int(in: 0...2)]
            shape.lineCap = [.butt, .round, .square][input.int(in: 0...2)]
            if input.byte() < 50 { shape.lineDashPattern = [number(0...6), number(0...6)].map { NSNumber(value: Double($0)) } }
            if input.byte() < 50 {
                shape.strokeStart = number(0...1)
                shape.strokeEnd = number(0...1)
            }
            if input.bool() { shape.fillRule = .evenOdd }
            return shape
        }

        mutating func gradient() -> CAGradientLayer {
            let gradient = CAGradientLayer()
            gradient.colors = (0..<input.int(in: 1...4)).map { _ in color() }
            gradient.startPoint = CGPoint(x: number(0...1), y: number(0...1))
            gradient.endPoint = CGPoint(x: number(0...1), y: number(0...1))
            gradient.type = [.axial, .radial, .conic][input.int(in: 0...2)]
            return gradient
        }

        mutating func text() -> CATextLayer {
            let text = CATextLayer()
            let words = ["Quartz", "Ag", "日本", "", "مرحبا", "\u{FFFD}x", "W\nW"]
            text.string = words[input.int(in: 0...words.count - 1)]
            text.fontSize = number(4...24)
            text.foregroundColor = color()
            text.isWrapped = input.bool()
            return text
        }

        mutating func replicator() -> CAReplicatorLayer {
            let replicator = CAReplicatorLayer()
            replicator.instanceCount = input.int(in: 0...6)
            replicator.instanceTransform = CATransform3DMakeTranslation(number(-10...10), number(-10...10), 0)
            if input.bool() { replicator.instanceAlphaOffset = Float(-input.unit() / 4) }
            return replicator
        }

        mutating func image() -> CGImage {
            let width = input.int(in: 1...16), height = input.int(in: 1...16)
            let a = input.byte(), b = input.byte()
            let bitmap = Bitmap(width: width, height: height) { x, y in
                let v = (x + y) % 2 == 0 ? a : b
                return (v, UInt8(x * 255 / max(width - 1, 1)), UInt8(y * 255 / max(height - 1, 1)), 255)
            }
            return CGImage(bitmap: bitmap)
        }
    }
}
