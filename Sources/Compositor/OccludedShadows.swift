import Foundation
import OpenCoreGraphics

// Shadows under opaque layers. A layer's shadow is drawn first and its background straight over
// it; where that background is opaque and covers whole pixels, the shadow beneath is never seen.
// On a closed-form shadow those are the costliest pixels of the frame (the Gaussian evaluated per
// pixel, on both backends), and under a card most of the shadow's quad is such pixels. So the
// shadow is drawn as up to four strips around the covered middle instead, their seams on pixel
// boundaries: every pixel still gets exactly the coverage it had (a pixel lies wholly in one
// strip, or under the background), and the frame's bytes do not change on either backend.
// Chromium's compositor culls occluded quads the same way, by whole pixels. A turned shadow
// (its quad no rectangle, which strips would cut into polygons the GPU's batches do not take)
// keeps its quad and is told the covered rectangle instead (`QuadOp.occluded`): a rectangle of
// whole pixels inside its turned card, which the CPU leaves out of each row.

extension RenderPass {
    /// The pass with each closed-form shadow that is followed at once by an opaque background
    /// covering its middle drawn as strips around that middle (see above). Other ops stay as
    /// they are.
    func cuttingOccludedShadows() -> RenderPass {
        // Most passes have no closed-form shadow: they are kept as they are, not copied op by op
        // (the copy was 7% of building a 1,000-card frame's list).
        guard ops.count >= 2, let first = ops.firstIndex(where: { op in
            if case .quad(let quad) = op, case .blurredRoundedRect = quad.fill { return true }
            return false
        }) else { return self }
        var cut = Array(ops[..<first])
        cut.reserveCapacity(ops.count + 3)
        for (index, op) in ops.enumerated().dropFirst(first) {
            guard case .quad(var shadow) = op, case .blurredRoundedRect = shadow.fill, index + 1 < ops.count,
                  case .quad(let cover) = ops[index + 1], let hole = cover.opaquePixels else {
                cut.append(op)
                continue
            }
            if let strips = shadow.strips(around: hole, targetWidth: width, targetHeight: height) {
                cut.append(contentsOf: strips.map(DrawOp.quad))
            } else if !shadow.polygon.isRectangle, let occluded = shadow.polygon.pixelBounds.intersection(hole),
                      occluded.width >= 4, occluded.height >= 4 {
                shadow.occluded = occluded
                cut.append(.quad(shadow))
            } else {
                cut.append(op)
            }
        }
        var pass = self
        pass.ops = cut
        return pass
    }
}

extension QuadOp {
    /// The whole pixels this op paints in its own colour alone, hiding what lies beneath: an
    /// opaque solid colour at full opacity and tint, source-over, over a pixel-aligned rectangle
    /// inside which coverage is exactly 1. Nil when that is not known (a projected shape, a
    /// ring, hard edges, a clip that is not an axis-aligned rectangle but the quad's own). A
    /// turned quad's is the largest such rectangle found inside it (`turnedOpaquePixels`).
    package var opaquePixels: PixelRect? {
        guard case .solid(let color) = fill, color.alpha >= 1, opacity >= 1, tint.alpha >= 1, blend == .sourceOver,
              polygon.isExact else { return nil }
        let m = localToDevice
        if m.m12 != 0 || m.m21 != 0 { return turnedOpaquePixels }
        // The clip's rectangle (no outline: bounded by the target alone).
        var covered = (minX: -Double.infinity, minY: -Double.infinity, maxX: Double.infinity, maxY: Double.infinity)
        if !polygon.outline.isEmpty {
            guard let bounds = polygon.axisAlignedBounds else { return nil }
            covered = bounds
        }
        if let shape = rounded {
            guard shape.inner == nil, let inside = QuadOp.wholeInside(shape.outer, through: localToDevice) else { return nil }
            covered = (max(covered.minX, inside.minX), max(covered.minY, inside.minY),
                       min(covered.maxX, inside.maxX), min(covered.maxY, inside.maxY))
        }
        return wholePixels(inside: covered)
    }

    /// The whole pixels of the polygon's bounds a pixel in from `covered` (coverage is 1 well
    /// before a pixel reaches an edge, so the pixels kept are certainly inside on both
    /// backends); nil where none are.
    private func wholePixels(inside covered: (minX: Double, minY: Double, maxX: Double, maxY: Double)) -> PixelRect? {
        let margin = 1.0, b = polygon.pixelBounds
        let rect = PixelRect(minX: Int(clampingPixels: covered.minX + margin, .up, to: b.minX...b.maxX),
                             minY: Int(clampingPixels: covered.minY + margin, .up, to: b.minY...b.maxY),
                             maxX: Int(clampingPixels: covered.maxX - margin, .down, to: b.minX...b.maxX),
                             maxY: Int(clampingPixels: covered.maxY - margin, .down, to: b.minY...b.maxY))
        return rect.width > 0 && rect.height > 0 ? rect : nil
    }

    /// `opaquePixels` of a turned (or skewed) quad under an affine map: the rectangle of whole
    /// pixels, a pixel in from its edges, inside the largest axis-aligned rectangle centred in
    /// its parallelogram (the layer's rectangle, less a rounded shape's corners as `wholeInside`
    /// takes them), kept only where the polygon covers every pixel of it wholly.
    private var turnedOpaquePixels: PixelRect? {
        let m = localToDevice
        guard m.m13 == 0, m.m23 == 0, m.m33 == 1 else { return nil }
        var r = localRect
        if let shape = rounded {
            guard shape.inner == nil else { return nil }
            let inset = QuadOp.cornerInset(of: shape.outer), o = shape.outer.rect
            let x0 = max(r.x, o.x + inset), y0 = max(r.y, o.y + inset)
            let x1 = min(r.x + r.width, o.x + o.width - inset), y1 = min(r.y + r.height, o.y + o.height - inset)
            guard x1 > x0, y1 > y0 else { return nil }
            r = Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        }
        // The parallelogram's centre and half sides on the device.
        let cx = r.x + r.width / 2, cy = r.y + r.height / 2
        let centre = (x: cx * m.m11 + cy * m.m21 + m.m31, y: cx * m.m12 + cy * m.m22 + m.m32)
        let a = (x: r.width / 2 * m.m11, y: r.width / 2 * m.m12), b = (x: r.height / 2 * m.m21, y: r.height / 2 * m.m22)
        let det = a.x * b.y - a.y * b.x
        guard abs(det) > 1e-9, [centre.x, centre.y, det].allSatisfy(\.isFinite) else { return nil }
        // (u, v) = M⁻¹ (x, y) for M = [a b]; a centred rectangle of half sides (X, Y) fits while
        // |u| and |v| stay within 1 at its corners: p1 X + q1 Y <= 1 and p2 X + q2 Y <= 1.
        let p1 = abs(b.y / det), q1 = abs(b.x / det), p2 = abs(a.y / det), q2 = abs(a.x / det)
        guard p1 + p2 > 0, q1 + q2 > 0 else { return nil }
        let widest = 1 / max(p1, p2)
        var best = (x: 0.0, y: 0.0)
        // The area's largest along the boundary, found by steps across the widths that fit.
        for step in 1..<64 {
            let x = widest * Double(step) / 64
            let y = min(q1 > 0 ? (1 - p1 * x) / q1 : .infinity, q2 > 0 ? (1 - p2 * x) / q2 : .infinity)
            if y > 0, x * y > best.x * best.y { best = (x, y) }
        }
        guard best.x > 0, best.y > 0,
              let rect = wholePixels(inside: (centre.x - best.x, centre.y - best.y, centre.x + best.x, centre.y + best.y)),
              polygon.coversWholly(rect) else { return nil }
        return rect
    }

    /// The device rectangle inside a rounded rectangle seen through an axis-aligned map (scale
    /// and translation, no turn or perspective): its rectangle less, on every side, the part of
    /// the largest corner outside the 45-degree point of its arc. A continuous corner lies
    /// outside the circle of its full extent, so that circle bounds it.
    static func wholeInside(_ outline: RoundedRectangle, through map: ProjectiveTransform2D)
        -> (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        guard map.m12 == 0, map.m21 == 0, map.m13 == 0, map.m23 == 0, map.m33 == 1, map.m11 != 0, map.m22 != 0 else { return nil }
        let r = outline.rect
        let xs = [r.x * map.m11 + map.m31, (r.x + r.width) * map.m11 + map.m31]
        let ys = [r.y * map.m22 + map.m32, (r.y + r.height) * map.m22 + map.m32]
        let inset = cornerInset(of: outline)
        let insetX = inset * abs(map.m11), insetY = inset * abs(map.m22)
        let bounds = (minX: xs.min()! + insetX, minY: ys.min()! + insetY, maxX: xs.max()! - insetX, maxY: ys.max()! - insetY)
        guard [bounds.minX, bounds.minY, bounds.maxX, bounds.maxY].allSatisfy(\.isFinite) else { return nil }
        return bounds
    }

    /// How far in from each side of a rounded rectangle (in its plane) its outline covers all
    /// of its rectangle: the part of the largest corner outside the 45-degree point of its arc,
    /// a continuous corner bounded by the circle of its full extent.
    static func cornerInset(of outline: RoundedRectangle) -> Double {
        var radius = max(outline.topLeft, outline.topRight, outline.bottomRight, outline.bottomLeft, 0)
        if outline.continuous { radius *= RoundedRectangle.continuousExtent }
        radius = min(radius, outline.rect.width / 2, outline.rect.height / 2)
        return radius * (1 - 1 / 2.0.squareRoot())
    }

    /// This op drawn as strips around `hole` (whole pixels), when its polygon is an axis-aligned
    /// rectangle with exact coverage that the hole cuts into: the band above, the band below,
    /// and the pieces left and right between them. Nil when there is nothing to gain.
    func strips(around hole: PixelRect, targetWidth: Int, targetHeight: Int) -> [QuadOp]? {
        guard rounded == nil, let box = polygon.axisAlignedBounds else { return nil }
        let minX = max(Double(hole.minX), box.minX), maxX = min(Double(hole.maxX), box.maxX)
        let minY = max(Double(hole.minY), box.minY), maxY = min(Double(hole.maxY), box.maxY)
        // Worth a cut: a hole of at least a few pixels each way.
        guard maxX - minX >= 4, maxY - minY >= 4 else { return nil }
        let pieces = [(box.minX, box.minY, box.maxX, minY), (box.minX, maxY, box.maxX, box.maxY),
                      (box.minX, minY, minX, maxY), (maxX, minY, box.maxX, maxY)]
        return pieces.compactMap { x0, y0, x1, y1 in
            guard x1 > x0, y1 > y0,
                  let piece = CoveragePolygon(vertices: [DevicePoint(x: x0, y: y0), DevicePoint(x: x1, y: y0),
                                                         DevicePoint(x: x1, y: y1), DevicePoint(x: x0, y: y1)],
                                              targetWidth: targetWidth, targetHeight: targetHeight) else { return nil }
            var strip = self
            strip.polygon = piece
            return strip
        }
    }
}
