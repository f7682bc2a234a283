import Foundation

extension QuadOp {
    /// Its rectangle's corners on the device (`localRect` through an affine `localToDevice`), in
    /// ring order; nil under perspective. For a closed-form shadow, the reach past which its
    /// bytes are 0: what a backend draws a turned shadow over (GLQuadBatch).
    public var reachQuad: [DevicePoint]? {
        let m = localToDevice
        guard m.m13 == 0, m.m23 == 0, m.m33 == 1 else { return nil }
        let r = localRect
        return [(r.x, r.y), (r.x + r.width, r.y), (r.x + r.width, r.y + r.height), (r.x, r.y + r.height)].map { x, y in
            DevicePoint(x: x * m.m11 + y * m.m21 + m.m31, y: x * m.m12 + y * m.m22 + m.m32)
        }
    }

    /// Whether this is a closed-form shadow's quad whose polygon cuts no pixel of its pixel bounds
    /// but past the shadow's reach, so that drawing those bounds whole (coverage 1) gives its bytes:
    /// each edge of the polygon lies along its own rectangle's (`localRect` through `localToDevice`:
    /// the builder makes a shadow's quad its shape grown by `BlurredRoundedRect.negligibleReach`
    /// and a pixel, past which its closed form's bytes are 0 on both backends), or leaves every
    /// pixel of the bounds wholly inside (the frame's guard band, a clip clear of the shadow). A
    /// clip that cuts the pixels makes it false. True of an axis-aligned rectangle's quad too;
    /// what it tells apart is a turned shadow's, which a backend may then draw as a rectangle's.
    public var isCutOnlyPastItsReach: Bool {
        guard case .blurredRoundedRect = fill, rounded == nil, !polygon.hasHardEdges else { return false }
        guard let corners = reachQuad else { return false }
        let b = polygon.pixelBounds
        let box = [DevicePoint(x: Double(b.minX), y: Double(b.minY)), DevicePoint(x: Double(b.maxX), y: Double(b.minY)),
                   DevicePoint(x: Double(b.maxX), y: Double(b.maxY)), DevicePoint(x: Double(b.minX), y: Double(b.maxY))]
        let vertices = polygon.vertices
        guard var p = vertices.last else { return false }
        for q in vertices {
            defer { p = q }
            // Along one of the rectangle's sides: both ends on its line.
            let alongSide = corners.indices.contains { j in
                let a = corners[j], c = corners[(j + 1) % 4]
                let dx = c.x - a.x, dy = c.y - a.y, length = (dx * dx + dy * dy).squareRoot()
                guard length > 0 else { return false }
                func off(_ v: DevicePoint) -> Double { abs((v.x - a.x) * dy - (v.y - a.y) * dx) / length }
                return off(p) <= 1e-6 * (1 + abs(p.x) + abs(p.y)) && off(q) <= 1e-6 * (1 + abs(q.x) + abs(q.y))
            }
            if alongSide { continue }
            // Else the bounds wholly on its inner side (positive area: clockwise on a y-down screen).
            let ex = q.x - p.x, ey = q.y - p.y
            guard box.allSatisfy({ ($0.x - p.x) * ey - ($0.y - p.y) * ex <= 0 }) else { return false }
        }
        return true
    }
}
