import Foundation

extension CGPath {
    /// The path `fraction` of the way from this one to `other`, point by point (a + (b - a) f);
    /// nil when the two differ in their elements' count or kinds, which do not blend (Core
    /// Animation switches such paths at the end instead). A keyframed shape blends one pair of
    /// paths a frame: this makes the result in one pass with one array, where going through
    /// every element's points and a mutable path allocated per element.
    package func blended(to other: CGPath, fraction f: CGFloat) -> CGPath? {
        let from = elements, to = other.elements
        guard from.count == to.count else { return nil }
        func mix(_ p: CGPoint, _ q: CGPoint) -> CGPoint { CGPoint(x: p.x + (q.x - p.x) * f, y: p.y + (q.y - p.y) * f) }
        var blended: [PathElement] = []
        blended.reserveCapacity(from.count)
        for i in from.indices {
            switch (from[i], to[i]) {
            case let (.move(p), .move(q)): blended.append(.move(mix(p, q)))
            case let (.line(p), .line(q)): blended.append(.line(mix(p, q)))
            case let (.quad(c, p), .quad(d, q)): blended.append(.quad(control: mix(c, d), end: mix(p, q)))
            case let (.cubic(c1, c2, p), .cubic(d1, d2, q)):
                blended.append(.cubic(control1: mix(c1, d1), control2: mix(c2, d2), end: mix(p, q)))
            case (.close, .close): blended.append(.close)
            default: return nil
            }
        }
        return CGPath(elements: blended)
    }
}
