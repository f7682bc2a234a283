import Foundation
import OpenCoreGraphics

/// A path recognized as a rectangle with one circular radius at every corner: what
/// `CGPath(rect:)`, `CGPath(roundedRect:cornerWidth:cornerHeight:)` with equal corner sizes and
/// `CGPath(ellipseIn:)` of a square build. Shapes like these have closed forms (a Gaussian
/// shadow, an analytic clip), so the compositor can skip rasterizing them.
///
/// Recognition is exact, not approximate: the path must be element for element the one those
/// constructors produce for the candidate rectangle (to a rounding tolerance). Any other path,
/// even one that looks the same, takes the general route.
struct RoundedRectPath: Equatable {
    var rect: CGRect
    var cornerRadius: CGFloat

    init?(_ path: CGPath) {
        guard let first = path.elements.first, case .move(let start) = first, path.elements.count <= 10 else { return nil }
        let box = path.boundingBox
        guard box.width > 0, box.height > 0, box.minX.isFinite, box.minY.isFinite,
              box.width.isFinite, box.height.isFinite else { return nil }
        let tolerance = 1e-9 * max(1, abs(box.minX), abs(box.minY), box.width, box.height)
        func matches(_ candidate: CGPath) -> Bool {
            guard candidate.elements.count == path.elements.count else { return false }
            return zip(candidate.elements, path.elements).allSatisfy { a, b in
                a.kind == b.kind && a.points.count == b.points.count
                    && zip(a.points, b.points).allSatisfy { abs($0.x - $1.x) <= tolerance && abs($0.y - $1.y) <= tolerance }
            }
        }
        if matches(CGPath(rect: box)) {
            self.init(rect: box, cornerRadius: 0)
            return
        }
        // A rounded rectangle starts where its top-left corner's arc ends.
        let radius = start.x - box.minX
        if radius > 0, abs(start.y - box.minY) <= tolerance,
           matches(CGPath(roundedRect: box, cornerWidth: radius, cornerHeight: radius)) {
            self.init(rect: box, cornerRadius: min(radius, box.width / 2, box.height / 2))
            return
        }
        if abs(box.width - box.height) <= tolerance, matches(CGPath(ellipseIn: box)) {
            self.init(rect: box, cornerRadius: box.width / 2)
            return
        }
        return nil
    }

    init(rect: CGRect, cornerRadius: CGFloat) {
        self.rect = rect
        self.cornerRadius = cornerRadius
    }
}

private extension PathElement {
    /// Which kind of element, without its points.
    var kind: Int {
        switch self {
        case .move: 0
        case .line: 1
        case .quad: 2
        case .cubic: 3
        case .close: 4
        }
    }
}
