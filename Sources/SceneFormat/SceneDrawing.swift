import Foundation
import OpenQuartzCore

/// Core Graphics drawing stated as data: what a scene document's `CATiledLayer` draws into each
/// tile, where code would override `draw(in:)`. Fills and strokes of paths, images, lines of
/// text and repeated groups, in the layer's bounds coordinates, drawn in order.
///
/// Tiled drawing must draw only what meets the tile (a tile of a whole 16,000-point map at full
/// resolution would be 768 MB of pixels, and drawing every part into every tile would cost the
/// whole drawing per tile), so every item knows its bounding box, and a repeated group finds the
/// copies that meet the clip's bounding box by arithmetic: a tile's cost grows with what it shows,
/// not with the drawing's size.
public final class SceneDrawing: @unchecked Sendable {
    /// How a path is stroked: CAShapeLayer's stroke properties.
    public struct Stroke: @unchecked Sendable, Equatable {
        public var lineWidth: CGFloat = 1
        public var lineCap: CGLineCap = .butt
        public var lineJoin: CGLineJoin = .miter
        public var miterLimit: CGFloat = 10
        public var lineDashPattern: [CGFloat]? = nil
        public var lineDashPhase: CGFloat = 0

        public init() {}

        /// How far the stroke may reach beyond the path's bounding box: half the width, times
        /// the miter limit where joins may be mitred (and the diagonal of a square cap).
        var reach: CGFloat {
            let half = max(lineWidth, 0) / 2
            let factor = max(lineJoin == .miter ? max(miterLimit, 1) : 1, lineCap == .square ? 2.0.squareRoot() : 1)
            return half * factor + 1
        }
    }

    public enum Item: @unchecked Sendable {
        /// A path filled with a color by a fill rule.
        case fill(CGPath, color: CGColor, rule: CGPathFillRule)
        /// A path stroked with a color.
        case stroke(CGPath, color: CGColor, style: Stroke)
        /// An image stretched over a rectangle, its top row at the rectangle's minimum y (upright
        /// in the layer's y-down coordinates, as UIKit's `UIImage.draw(in:)` draws).
        case image(CGImage, in: CGRect)
        /// A line of text, its baseline starting at `at`, glyphs upright in the layer's y-down
        /// coordinates (as UIKit's `NSString.draw(at:)`, though from the baseline).
        case text(String, at: CGPoint, font: String, fontSize: CGFloat, color: CGColor)
        /// `drawing` drawn `columns` x `rows` times, copy (i, j) moved by (i x step.width,
        /// j x step.height).
        case repeated(SceneDrawing, columns: Int, rows: Int, step: CGSize)
    }

    public let items: [Item]
    /// Each item's bounding box (what it may touch), and all of them together.
    private let boxes: [CGRect]
    public let bounds: CGRect
    /// Items drawn if every copy of every repeated group were drawn: what a tile may cost at most.
    public let expandedCount: Int
    /// Text items' shaped lines, made once (shaping costs more than drawing a tile's worth).
    private let lines: [Int: CTLine]

    public init(_ items: [Item]) {
        self.items = items
        var boxes: [CGRect] = [], lines: [Int: CTLine] = [:], expanded = 0
        for (index, item) in items.enumerated() {
            switch item {
            case let .fill(path, _, _):
                boxes.append(path.boundingBox)
                expanded += 1
            case let .stroke(path, _, style):
                boxes.append(path.boundingBox.insetBy(dx: -style.reach, dy: -style.reach))
                expanded += 1
            case let .image(_, rect):
                boxes.append(rect.standardized)
                expanded += 1
            case let .text(string, at, font, size, color):
                let line = CTLine(string: string, font: CTFont(name: font, size: size), color: color)
                lines[index] = line
                // Glyphs may overhang their advances; a font's em past the ascent and descent covers them.
                let em = line.font.pointSize
                boxes.append(CGRect(x: at.x - em, y: at.y - line.font.ascent - em,
                                    width: line.width + 2 * em, height: line.font.ascent + line.font.descent + 2 * em))
                expanded += 1
            case let .repeated(drawing, columns, rows, step):
                let b = drawing.bounds
                let copies = columns > 0 && rows > 0 && !b.isNull
                    ? b.union(b.offsetBy(dx: CGFloat(columns - 1) * step.width, dy: CGFloat(rows - 1) * step.height)) : .null
                boxes.append(copies)
                let (product, overflow) = columns.multipliedReportingOverflow(by: rows)
                let (total, overflow2) = product.multipliedReportingOverflow(by: drawing.expandedCount)
                expanded = overflow || overflow2 ? Int.max : expanded.addingReportingOverflow(total).overflow ? Int.max : expanded + total
            }
        }
        self.boxes = boxes
        self.lines = lines
        bounds = boxes.reduce(CGRect.null) { $0.union($1) }
        expandedCount = expanded
    }

    /// Draws what meets the context's clip (its bounding box), in the context's user space.
    public func draw(in ctx: CGContext) {
        let clip = ctx.boundingBoxOfClipPath
        guard !clip.isNull, !clip.isEmpty else { return }
        walk(clip: clip, dx: 0, dy: 0) { drawing, step, dx, dy in
            if case .item(let index, _) = step { drawing.drawItem(index, in: ctx, dx: dx, dy: dy) }
            return true
        }
    }

    /// What `draw(in:)` would do in a context whose clip is `clip` at `pixelsPerPoint`: the items
    /// it would draw (every copy) and the pixels their boxes cover within the clip, found by the
    /// same walk without drawing, stopped once past `limit` items (so asking costs at most that).
    public func work(in clip: CGRect, pixelsPerPoint: CGFloat, limit: Int) -> (items: Int, pixels: Int) {
        guard !clip.isNull, !clip.isEmpty, pixelsPerPoint.isFinite, pixelsPerPoint > 0 else { return (0, 0) }
        var items = 0, area = 0.0
        walk(clip: clip, dx: 0, dy: 0) { _, step, dx, dy in
            // A copy visited costs a step even where none of its items meets the clip.
            items += 1
            if case .item(_, let box) = step {
                let met = box.offsetBy(dx: dx, dy: dy).intersection(clip)
                area += Double(met.width * met.height)
            }
            return items <= limit
        }
        let pixels = area * Double(pixelsPerPoint * pixelsPerPoint)
        return (items, pixels < Double(Int.max / 2) ? Int(pixels.rounded(.up)) : Int.max / 2)
    }

    /// A step of the walk: a copy of a repeated group about to be walked, or an item to draw.
    private enum Step { case copy, item(index: Int, box: CGRect) }

    /// The walk `draw` and `work` share: in order, every item whose box, moved by (dx, dy), meets
    /// `clip`, and of a repeated group the copies that may meet it (found by arithmetic), each
    /// announced before its own items. `visit` gets the drawing that holds the step and the offset;
    /// false from it ends the walk (and false is returned).
    @discardableResult
    private func walk(clip: CGRect, dx: CGFloat, dy: CGFloat, _ visit: (SceneDrawing, Step, CGFloat, CGFloat) -> Bool) -> Bool {
        for (index, item) in items.enumerated() {
            let box = boxes[index]
            guard !box.isNull, box.offsetBy(dx: dx, dy: dy).intersects(clip) else { continue }
            guard case let .repeated(drawing, columns, rows, step) = item else {
                guard visit(self, .item(index: index, box: box), dx, dy) else { return false }
                continue
            }
            let b = drawing.bounds
            let i = SceneDrawing.copies(count: columns, step: step.width, from: b.minX + dx, to: b.maxX + dx, meeting: clip.minX, clip.maxX)
            let j = SceneDrawing.copies(count: rows, step: step.height, from: b.minY + dy, to: b.maxY + dy, meeting: clip.minY, clip.maxY)
            guard let i, let j else { continue }
            for row in j {
                for column in i {
                    let x = dx + CGFloat(column) * step.width, y = dy + CGFloat(row) * step.height
                    guard visit(drawing, .copy, x, y), drawing.walk(clip: clip, dx: x, dy: y, visit) else { return false }
                }
            }
        }
        return true
    }

    /// Item `index` (not a repeated group) drawn moved by (dx, dy).
    private func drawItem(_ index: Int, in ctx: CGContext, dx: CGFloat, dy: CGFloat) {
        ctx.saveGState()
        ctx.translateBy(x: dx, y: dy)
        switch items[index] {
        case let .fill(path, color, rule):
            ctx.setFillColor(color)
            ctx.addPath(path)
            ctx.fillPath(using: rule)
        case let .stroke(path, color, style):
            ctx.setStrokeColor(color)
            ctx.setLineWidth(style.lineWidth)
            ctx.setLineCap(style.lineCap)
            ctx.setLineJoin(style.lineJoin)
            ctx.setMiterLimit(style.miterLimit)
            if let dashes = style.lineDashPattern, !dashes.isEmpty { ctx.setLineDash(phase: style.lineDashPhase, lengths: dashes) }
            ctx.addPath(path)
            ctx.strokePath()
        case let .image(image, rect):
            // Core Graphics draws an image's top row at the rectangle's maximum y; the layer's
            // y axis points down, so the image is turned over about its rectangle's middle.
            let r = rect.standardized
            ctx.translateBy(x: 0, y: r.minY + r.maxY)
            ctx.scaleBy(x: 1, y: -1)
            ctx.draw(image, in: r)
        case let .text(_, at, _, _, _):
            // Glyph outlines are y up from the baseline: turned over to stand upright.
            ctx.translateBy(x: at.x, y: at.y)
            ctx.scaleBy(x: 1, y: -1)
            ctx.textPosition = .zero
            if let line = lines[index] { CTLineDraw(line, ctx) }
        case .repeated:
            break
        }
        ctx.restoreGState()
    }

    /// The copies 0..<count, copy k spanning [from + k x step, to + k x step], that may meet
    /// [low, high] (a copy or so more at either end, which the items' own boxes then skip); nil
    /// for none.
    public static func copies(count: Int, step: CGFloat, from: CGFloat, to: CGFloat, meeting low: CGFloat, _ high: CGFloat) -> ClosedRange<Int>? {
        guard count > 0 else { return nil }
        guard step != 0, step.isFinite else { return from <= high && to >= low ? 0...(count - 1) : nil }
        // Copy k meets the span when from + k step <= high and to + k step >= low.
        let a = (low - to) / step, b = (high - from) / step
        let first = max(min(a, b).rounded(.down), 0), last = min(max(a, b).rounded(.up), CGFloat(count - 1))
        // Not a number (a clip without bounds on a degenerate box) compares false: no copies.
        guard first <= last else { return nil }
        return Int(first)...Int(last)
    }
}
