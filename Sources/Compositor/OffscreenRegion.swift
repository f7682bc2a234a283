import Foundation
import OpenCoreGraphics

// Offscreen passes are drawn in the device space of the target they will be composited into,
// then moved into a pass only as large as what they drew: a shadowed 40-pixel card on a 4K
// frame needs a 40-pixel (plus blur) pass, not a 4K one. Moving is exact: whole-pixel shifts of
// every device-space quantity an op holds.

extension PixelRect {
    /// The smallest rectangle holding both.
    public func union(_ other: PixelRect) -> PixelRect {
        PixelRect(minX: min(minX, other.minX), minY: min(minY, other.minY),
                  maxX: max(maxX, other.maxX), maxY: max(maxY, other.maxY))
    }

    /// The common part, or nil when they do not overlap.
    public func intersection(_ other: PixelRect) -> PixelRect? {
        let r = PixelRect(minX: max(minX, other.minX), minY: max(minY, other.minY),
                          maxX: min(maxX, other.maxX), maxY: min(maxY, other.maxY))
        return r.width > 0 && r.height > 0 ? r : nil
    }

    /// Grown by `margin` pixels on every side.
    public func outset(by margin: Int) -> PixelRect {
        PixelRect(minX: minX - margin, minY: minY - margin, maxX: maxX + margin, maxY: maxY + margin)
    }

    /// The whole pixels holding a polygon (a clip), or nil when it has no points or is not finite.
    static func bounding(_ polygon: [DevicePoint]) -> PixelRect? {
        guard let first = polygon.first else { return nil }
        var (minX, minY, maxX, maxY) = (first.x, first.y, first.x, first.y)
        for p in polygon.dropFirst() {
            minX = min(minX, p.x); minY = min(minY, p.y); maxX = max(maxX, p.x); maxY = max(maxY, p.y)
        }
        let limit = Double(Int32.max)
        guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite,
              max(abs(minX), abs(minY), abs(maxX), abs(maxY)) < limit else { return nil }
        return PixelRect(minX: Int(minX.rounded(.down)), minY: Int(minY.rounded(.down)),
                         maxX: Int(maxX.rounded(.up)), maxY: Int(maxY.rounded(.up)))
    }

    /// The pixels that the quads among `ops` can touch, or nil when there are none.
    static func covering(_ ops: [DrawOp]) -> PixelRect? {
        ops.reduce(nil) { bounds, op in
            let drawn: PixelRect
            switch op {
            case .quad(let quad): drawn = quad.polygon.pixelBounds
            case .path(let path): drawn = path.pixelBounds
            case .blur, .halve: return bounds
            }
            return bounds.map { $0.union(drawn) } ?? drawn
        }
    }
}

extension ProjectiveTransform2D {
    /// Adds (dx, dy) to the image of every point.
    static func translation(_ dx: Double, _ dy: Double) -> ProjectiveTransform2D {
        ProjectiveTransform2D(m11: 1, m12: 0, m13: 0, m21: 0, m22: 1, m23: 0, m31: dx, m32: dy, m33: 1)
    }
}

extension CoveragePolygon {
    /// The polygon moved by whole pixels into a target of the given size; nil when nothing of it
    /// is left inside.
    func translated(dx: Int, dy: Int, targetWidth: Int, targetHeight: Int) -> CoveragePolygon? {
        let shifted = vertices.map { DevicePoint(x: $0.x + Double(dx), y: $0.y + Double(dy)) }
        guard var moved = CoveragePolygon(vertices: shifted, targetWidth: targetWidth, targetHeight: targetHeight) else {
            return nil
        }
        // Keep this polygon's edges (they may be a clip's, see withEdges(of:)), shifted alike.
        let ownEdges = edges.map { EdgeEquation(a: $0.a, b: $0.b, c: $0.c - $0.a * Double(dx) - $0.b * Double(dy)) }
        moved.replaceEdges(ownEdges, outline: outline.map { DevicePoint(x: $0.x + Double(dx), y: $0.y + Double(dy)) },
                           hard: hasHardEdges)
        return moved
    }
}

extension DrawOp {
    /// The op moved by whole pixels into a target of the given size; nil when it draws nothing
    /// there. Blur ops are not moved: they fill passes of their own.
    func translated(dx: Int, dy: Int, targetWidth: Int, targetHeight: Int) -> DrawOp? {
        if case .path(let path) = self {
            return path.translated(dx: dx, dy: dy, targetWidth: targetWidth, targetHeight: targetHeight).map(DrawOp.path)
        }
        guard case .quad(var quad) = self else { return self }
        guard let polygon = quad.polygon.translated(dx: dx, dy: dy, targetWidth: targetWidth, targetHeight: targetHeight) else {
            return nil
        }
        let forward = ProjectiveTransform2D.translation(Double(dx), Double(dy))
        let back = ProjectiveTransform2D.translation(Double(-dx), Double(-dy))
        quad.polygon = polygon
        quad.localToDevice = quad.localToDevice.concatenating(forward)
        if case .texture(var fill) = quad.fill {
            fill.deviceToTexture = back.concatenating(fill.deviceToTexture)
            quad.fill = .texture(fill)
        }
        if case .gradient(var fill) = quad.fill {
            fill.deviceToLocal = back.concatenating(fill.deviceToLocal)
            quad.fill = .gradient(fill)
        }
        if var rounded = quad.rounded {
            rounded.deviceToLocal = back.concatenating(rounded.deviceToLocal)
            quad.rounded = rounded
        }
        return .quad(quad)
    }
}
