import Foundation

// The render list prints as text, one line per op, so a test failure or `quartz` can show what
// a frame consists of and two lists can be diffed by eye.

extension RenderList: CustomStringConvertible {
    public var description: String {
        var lines = ["RenderList \(width)x\(height), \(passes.count) pass(es), \(textures.count) texture(s)"]
        for (id, bitmap) in textures.sorted(by: { $0.key < $1.key }) {
            lines.append("  texture \(id): \(bitmap.width)x\(bitmap.height)")
        }
        for pass in passes {
            lines.append("  pass \(pass.id) \(pass.width)x\(pass.height): \(pass.ops.count) op(s)")
            for op in pass.ops { lines.append("    \(op)") }
        }
        for note in diagnostics { lines.append("  note: \(note)") }
        return lines.joined(separator: "\n")
    }
}

extension DrawOp: CustomStringConvertible {
    public var description: String {
        switch self {
        case .blur(let b):
            return "blur pass \(b.source) \(b.horizontal ? "horizontally" : "vertically"), \(b.weights.count) taps"
        case .halve(let h):
            return "halve pass \(h.source) to (\(h.originX), \(h.originY))"
        case .quad(let q):
            let vertices = q.polygon.vertices.map { String(format: "(%.2f,%.2f)", $0.x, $0.y) }.joined(separator: " ")
            let fill: String
            switch q.fill {
            case .solid(let c): fill = String(format: "solid(%.3f %.3f %.3f %.3f)", c.red, c.green, c.blue, c.alpha)
            case .texture(let t): fill = "texture(\(t.source), \(t.filter.rawValue))"
            case .blurredRoundedRect(let b):
                fill = String(format: "blurred rounded rect(sigma %.2f, radius %.2f)", b.sigma, b.cornerRadius)
            case .gradient(let g):
                fill = "\(g.kind.rawValue) gradient(\(g.stops.count) stops \(g.colorSpace == .genericRGB ? "in Generic RGB" : "in sRGB"), "
                    + String(format: "(%.2f,%.2f) to (%.2f,%.2f))",
                                                                                g.start.x, g.start.y, g.end.x, g.end.y)
            }
            let blend = q.blend == .sourceOver ? "" : " \(q.blend.rawValue)"
            return "quad \(q.source): \(fill)\(blend) opacity \(String(format: "%.3f", q.opacity)) polygon \(vertices)"
        case .path(let p):
            // The route the draw takes: the backends fill it from its contours (no texture).
            let c = p.color, b = p.pixelBounds
            let blend = p.blend == .sourceOver ? "" : " \(p.blend.rawValue)"
            return "path \(p.source): " + String(format: "solid(%.3f %.3f %.3f %.3f)", c.red, c.green, c.blue, c.alpha)
                + "\(blend) opacity \(String(format: "%.3f", p.opacity)) \(p.evenOdd ? "even-odd" : "non-zero"), "
                + "\(p.contours.count) contours, \(p.contours.reduce(0) { $0 + $1.count }) points, drawn from its contours "
                + "over pixels (\(b.minX), \(b.minY))-(\(b.maxX), \(b.maxY))"
        }
    }
}
