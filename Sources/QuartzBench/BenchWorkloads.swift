import Foundation
import OpenQuartzCore

/// The workloads of `quartz bench`, each what a layer compositor spends its frames on (docs/bench.md
/// says why each is there). Layers are placed and coloured by their index alone, so a tree of a
/// given complexity is the same on every machine.
extension BenchWorkload {
    /// Every workload, in the order the suite runs them.
    public static let all: [BenchWorkload] = [
        cards, shadowsSmall, shadowsLarge, nestedClips, shapeMasks, softMasks, perspective, text, images, strokes, groupOpacity,
    ]

    /// The workload called `name`.
    public static func named(_ name: String) -> BenchWorkload? { all.first { $0.name == name } }

    static let cards = BenchWorkload(
        name: "cards", summary: "Rounded cards with a border, each turning: quads with rounded coverage and rings.",
        unit: "cards", fixedComplexity: 500, startComplexity: 32
    ) { n, root in
        for i in 0..<n {
            let card = Layout.card(i, size: CGSize(width: 120, height: 80))
            card.borderWidth = 3
            card.borderColor = Layout.color(i + 7, brightness: 0.45)
            card.add(Layout.turning(i), forKey: "turn")
            root.addSublayer(card)
        }
    }

    static let shadowsSmall = shadowed(name: "shadows-small", radius: 4, fixed: 200)
    static let shadowsLarge = shadowed(name: "shadows-large", radius: 30, fixed: 100)

    private static func shadowed(name: String, radius: CGFloat, fixed: Int) -> BenchWorkload {
        BenchWorkload(
            name: name, summary: "Rounded cards with a shadow of radius \(Int(radius)), gliding: blurred shadows, closed forms or blur passes.",
            unit: "cards", fixedComplexity: fixed, startComplexity: 8
        ) { n, root in
            for i in 0..<n {
                let card = Layout.card(i, size: CGSize(width: 110, height: 76))
                card.shadowOpacity = 0.45
                card.shadowRadius = radius
                card.shadowOffset = CGSize(width: 0, height: radius / 2)
                card.add(Layout.gliding(i, from: card.position), forKey: "glide")
                root.addSublayer(card)
            }
        }
    }

    static let nestedClips = BenchWorkload(
        name: "nested-clips", summary: "Groups of three rounded clips nested, the innermost content turning: clip passes or stencil.",
        unit: "groups", fixedComplexity: 60, startComplexity: 4
    ) { n, root in
        for i in 0..<n {
            let outer = Layout.card(i, size: CGSize(width: 150, height: 110))
            outer.masksToBounds = true
            outer.cornerRadius = 18
            let middle = CALayer()
            middle.frame = outer.bounds.insetBy(dx: 10, dy: 10)
            middle.cornerRadius = 14
            middle.masksToBounds = true
            middle.backgroundColor = Layout.color(i + 3, brightness: 0.8)
            let inner = CALayer()
            inner.frame = middle.bounds.insetBy(dx: 10, dy: 8)
            inner.cornerRadius = 10
            inner.masksToBounds = true
            inner.backgroundColor = Layout.color(i + 5, brightness: 0.95)
            let content = CALayer()
            content.frame = inner.bounds.insetBy(dx: -20, dy: 10)
            content.backgroundColor = Layout.color(i + 11, brightness: 0.5)
            content.add(Layout.turning(i), forKey: "turn")
            inner.addSublayer(content)
            middle.addSublayer(inner)
            outer.addSublayer(middle)
            root.addSublayer(outer)
        }
    }

    static let shapeMasks = BenchWorkload(
        name: "shape-masks", summary: "Layers masked by a turning star (a CAShapeLayer mask): path coverage applied as a mask.",
        unit: "layers", fixedComplexity: 100, startComplexity: 8
    ) { n, root in
        for i in 0..<n {
            let layer = Layout.card(i, size: CGSize(width: 100, height: 100), corner: 0)
            let mask = CAShapeLayer()
            mask.frame = layer.bounds
            mask.path = Layout.star(in: layer.bounds)
            mask.add(Layout.turning(i), forKey: "turn")
            layer.mask = mask
            root.addSublayer(layer)
        }
    }

    static let softMasks = BenchWorkload(
        name: "soft-masks", summary: "Layers masked by a gradient's alpha, gliding: a mask pass per layer.",
        unit: "layers", fixedComplexity: 60, startComplexity: 4
    ) { n, root in
        for i in 0..<n {
            let layer = Layout.card(i, size: CGSize(width: 110, height: 90), corner: 0)
            let mask = CAGradientLayer()
            mask.frame = layer.bounds
            mask.colors = [CGColor(gray: 0, alpha: 1), CGColor(gray: 0, alpha: 0)]
            mask.startPoint = CGPoint(x: 0, y: 0)
            mask.endPoint = CGPoint(x: 1, y: 1)
            layer.mask = mask
            layer.add(Layout.gliding(i, from: layer.position), forKey: "glide")
            root.addSublayer(layer)
        }
    }

    static let perspective = BenchWorkload(
        name: "perspective-3d", summary: "Pairs of planes crossing each other in perspective, turning: depth sorting and splitting.",
        unit: "pairs", fixedComplexity: 40, startComplexity: 4
    ) { n, root in
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / 700
        root.sublayerTransform = perspective
        for i in 0..<n {
            let pair = CATransformLayer()
            let spot = Layout.spot(i, size: CGSize(width: 110, height: 110))
            pair.frame = CGRect(origin: spot, size: CGSize(width: 110, height: 110))
            for k in 0..<2 {
                let plane = CALayer()
                plane.frame = pair.bounds.insetBy(dx: 10, dy: 20)
                plane.backgroundColor = Layout.color(i * 2 + k, brightness: 0.75, alpha: 0.85)
                plane.transform = CATransform3DMakeRotation(CGFloat(k) * .pi / 2 + 0.3, 0, 1, 0)
                pair.addSublayer(plane)
            }
            let turn = CABasicAnimation(keyPath: "transform.rotation.y")
            turn.fromValue = 0.0
            turn.toValue = 2 * Double.pi
            turn.duration = 5
            turn.repeatCount = .infinity
            turn.timeOffset = Double(i % 13) * 0.37
            pair.add(turn, forKey: "turn")
            root.addSublayer(pair)
        }
    }

    static let text = BenchWorkload(
        name: "text", summary: "Text layers of a line each, gliding: glyphs drawn once, composited every frame.",
        unit: "layers", fixedComplexity: 200, startComplexity: 16
    ) { n, root in
        for i in 0..<n {
            let layer = CATextLayer()
            layer.frame = CGRect(origin: Layout.spot(i, size: CGSize(width: 230, height: 22)), size: CGSize(width: 230, height: 22))
            layer.string = "Frame \(i): a quick brown fox"
            layer.fontSize = 15
            layer.foregroundColor = Layout.color(i, brightness: 0.3)
            layer.add(Layout.gliding(i, from: layer.position), forKey: "glide")
            root.addSublayer(layer)
        }
    }

    static let images = BenchWorkload(
        name: "images", summary: "Image layers whose contents change every frame: an upload per layer per frame.",
        unit: "layers", fixedComplexity: 100, startComplexity: 8
    ) { n, root in
        for i in 0..<n {
            let layer = CALayer()
            layer.frame = CGRect(origin: Layout.spot(i, size: CGSize(width: 96, height: 96)), size: CGSize(width: 96, height: 96))
            layer.contents = Layout.tile(i)
            root.addSublayer(layer)
        }
    } update: { root, frame in
        // Fresh images each frame, as a video or a live chart gives them: no texture survives.
        for (i, layer) in (root.sublayers ?? []).enumerated() { layer.contents = Layout.tile(i + frame) }
    }

    static let strokes = BenchWorkload(
        name: "strokes", summary: "Shape layers stroking a curve as their strokeEnd animates: paths drawn anew every frame.",
        unit: "shapes", fixedComplexity: 80, startComplexity: 8
    ) { n, root in
        for i in 0..<n {
            let shape = CAShapeLayer()
            shape.frame = CGRect(origin: Layout.spot(i, size: CGSize(width: 120, height: 90)), size: CGSize(width: 120, height: 90))
            let path = CGMutablePath()
            path.move(to: CGPoint(x: 10, y: 80))
            path.addCurve(to: CGPoint(x: 110, y: 10), control1: CGPoint(x: 40, y: -20), control2: CGPoint(x: 80, y: 110))
            shape.path = path
            shape.fillColor = nil
            shape.strokeColor = Layout.color(i, brightness: 0.4)
            shape.lineWidth = 5
            shape.lineCap = .round
            let draw = CABasicAnimation(keyPath: "strokeEnd")
            draw.fromValue = 0.0
            draw.toValue = 1.0
            draw.duration = 2
            draw.autoreverses = true
            draw.repeatCount = .infinity
            draw.timeOffset = Double(i % 11) * 0.29
            shape.add(draw, forKey: "draw")
            root.addSublayer(shape)
        }
    }

    static let groupOpacity = BenchWorkload(
        name: "group-opacity", summary: "Translucent groups of overlapping layers, fading: a pass per group (allowsGroupOpacity).",
        unit: "groups", fixedComplexity: 60, startComplexity: 4
    ) { n, root in
        for i in 0..<n {
            let group = CALayer()
            group.frame = CGRect(origin: Layout.spot(i, size: CGSize(width: 130, height: 100)), size: CGSize(width: 130, height: 100))
            group.allowsGroupOpacity = true
            for k in 0..<3 {
                let child = CALayer()
                child.frame = CGRect(x: CGFloat(k) * 25, y: CGFloat(k) * 15, width: 80, height: 70)
                child.cornerRadius = 10
                child.backgroundColor = Layout.color(i * 3 + k, brightness: 0.7)
                group.addSublayer(child)
            }
            let fade = CABasicAnimation(keyPath: "opacity")
            fade.fromValue = 0.9
            fade.toValue = 0.3
            fade.duration = 1.5
            fade.autoreverses = true
            fade.repeatCount = .infinity
            fade.timeOffset = Double(i % 7) * 0.21
            group.add(fade, forKey: "fade")
            root.addSublayer(group)
        }
    }
}

/// Placement, colour and motion by index: the same tree on every machine.
enum Layout {
    /// A hash of `i` in 0..<1 (SplitMix64), one stream per `salt`.
    static func unit(_ i: Int, _ salt: UInt64) -> Double {
        var z = UInt64(truncatingIfNeeded: i) &* 0x9E37_79B9_7F4A_7C15 &+ salt &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53)
    }

    /// A top-left corner for an item of `size` inside the frame.
    static func spot(_ i: Int, size: CGSize) -> CGPoint {
        CGPoint(x: unit(i, 1) * (BenchWorkload.size.width - size.width), y: unit(i, 2) * (BenchWorkload.size.height - size.height))
    }

    static func color(_ i: Int, brightness: Double, alpha: Double = 1) -> CGColor {
        let hue = unit(i, 3) * 6
        func channel(_ offset: Double) -> Double {
            let k = (hue + offset).truncatingRemainder(dividingBy: 6)
            return brightness * (1 - 0.6 * max(0, min(1, min(k, 4 - k))))
        }
        return CGColor(red: channel(5), green: channel(3), blue: channel(1), alpha: alpha)
    }

    static func card(_ i: Int, size: CGSize, corner: CGFloat = 12) -> CALayer {
        let card = CALayer()
        card.frame = CGRect(origin: spot(i, size: size), size: size)
        card.cornerRadius = corner
        card.backgroundColor = color(i, brightness: 0.85)
        return card
    }

    /// A full turn about z every 3 to 6 seconds, from a phase of the index.
    static func turning(_ i: Int) -> CABasicAnimation {
        let turn = CABasicAnimation(keyPath: "transform.rotation.z")
        turn.fromValue = 0.0
        turn.toValue = (i % 2 == 0 ? 2 : -2) * Double.pi
        turn.duration = 3 + 3 * unit(i, 4)
        turn.repeatCount = .infinity
        turn.timeOffset = turn.duration * unit(i, 5)
        return turn
    }

    /// Back and forth by up to 60 points.
    static func gliding(_ i: Int, from position: CGPoint) -> CABasicAnimation {
        let glide = CABasicAnimation(keyPath: "position")
        glide.fromValue = position
        glide.toValue = CGPoint(x: position.x + 60 * (unit(i, 6) - 0.5), y: position.y + 40 * (unit(i, 7) - 0.5))
        glide.duration = 1 + unit(i, 8)
        glide.autoreverses = true
        glide.repeatCount = .infinity
        glide.timeOffset = glide.duration * unit(i, 9)
        return glide
    }

    /// A five-pointed star filling `rect`.
    static func star(in rect: CGRect) -> CGPath {
        let path = CGMutablePath()
        let c = CGPoint(x: rect.midX, y: rect.midY), r = min(rect.width, rect.height) / 2
        for k in 0..<10 {
            let angle = Double(k) * Double.pi / 5 - Double.pi / 2, radius = k % 2 == 0 ? r : r * 0.45
            let p = CGPoint(x: c.x + radius * cos(angle), y: c.y + radius * sin(angle))
            if k == 0 { path.move(to: p) } else { path.addLine(to: p) }
        }
        path.closeSubpath()
        return path
    }

    /// A 64x64 image, new each call (its own texture), striped by `i`.
    static func tile(_ i: Int) -> CGImage {
        let side = 64
        var pixels = [UInt8](repeating: 255, count: side * side * 4)
        let shift = i % side
        let a = (UInt8(truncatingIfNeeded: i &* 37), UInt8(truncatingIfNeeded: i &* 91), UInt8(truncatingIfNeeded: 200 &+ i))
        pixels.withUnsafeMutableBufferPointer { p in
            for y in 0..<side where (y + shift) % 16 < 8 {
                for x in 0..<side {
                    let o = (y * side + x) * 4
                    (p[o], p[o + 1], p[o + 2]) = a
                }
            }
        }
        return CGImage(bitmap: Bitmap(width: side, height: side, pixels: pixels))
    }
}
