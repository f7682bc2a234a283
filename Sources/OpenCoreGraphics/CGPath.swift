import Foundation

/// The kinds of path elements, with Core Graphics' raw values.
public enum CGPathElementType: Int32, Sendable {
    case moveToPoint = 0, addLineToPoint, addQuadCurveToPoint, addCurveToPoint, closeSubpath
}

/// One element as `applyWithBlock` hands it out: its points are valid during the call only.
public struct CGPathElement {
    public var type: CGPathElementType
    /// 1 point for move and line, 2 for quad (control, end), 3 for cubic (control1, control2,
    /// end), none for close.
    public var points: UnsafeMutablePointer<CGPoint>
}

/// How a path's inside is decided where it crosses itself.
public enum CGPathFillRule: Int, Sendable {
    /// Inside where the path winds around the point a non-zero number of times.
    case winding = 0
    /// Inside where a ray from the point crosses the path an odd number of times.
    case evenOdd
}

/// One stored element.
public enum PathElement: Equatable, Sendable {
    case move(CGPoint)
    case line(CGPoint)
    case quad(control: CGPoint, end: CGPoint)
    case cubic(control1: CGPoint, control2: CGPoint, end: CGPoint)
    case close

    /// The element's points in order (controls first, then the end point).
    public var points: [CGPoint] {
        switch self {
        case .move(let p), .line(let p): [p]
        case let .quad(c, e): [c, e]
        case let .cubic(c1, c2, e): [c1, c2, e]
        case .close: []
        }
    }

    func applying(_ t: CGAffineTransform) -> PathElement {
        switch self {
        case .move(let p): .move(p.applying(t))
        case .line(let p): .line(p.applying(t))
        case let .quad(c, e): .quad(control: c.applying(t), end: e.applying(t))
        case let .cubic(c1, c2, e): .cubic(control1: c1.applying(t), control2: c2.applying(t), end: e.applying(t))
        case .close: .close
        }
    }
}

/// An immutable sequence of subpaths made of lines and quadratic and cubic Béziers, in user space
/// (y down, like the layers that use it). Arcs, ellipses and rounded rectangles are stored as
/// cubic Béziers, as Core Graphics does.
public class CGPath: Equatable, Hashable, CustomStringConvertible, @unchecked Sendable {
    /// The elements, in order. Not checked for exclusive access at run time: a path, as on
    /// Apple, is built on one thread and read after, and the check was a tenth of adding a curve
    /// (`CGMutablePath.addCurve`, the most of sampling a Lottie file's shapes).
    @exclusivity(unchecked) public internal(set) var elements: [PathElement]

    init(elements: [PathElement]) { self.elements = elements }

    /// A closed rectangle, starting at its origin and going along the x axis first.
    public convenience init(rect: CGRect, transform: UnsafePointer<CGAffineTransform>? = nil) {
        let path = CGMutablePath()
        path.addRect(rect, transform: transform?.pointee ?? .identity)
        self.init(elements: path.elements)
    }

    /// A closed ellipse inscribed in `rect`.
    public convenience init(ellipseIn rect: CGRect, transform: UnsafePointer<CGAffineTransform>? = nil) {
        let path = CGMutablePath()
        path.addEllipse(in: rect, transform: transform?.pointee ?? .identity)
        self.init(elements: path.elements)
    }

    /// A closed rectangle with corners rounded by elliptical quarter arcs.
    public convenience init(roundedRect rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
                            transform: UnsafePointer<CGAffineTransform>? = nil) {
        let path = CGMutablePath()
        path.addRoundedRect(in: rect, cornerWidth: cornerWidth, cornerHeight: cornerHeight,
                            transform: transform?.pointee ?? .identity)
        self.init(elements: path.elements)
    }

    /// True when the path has no elements.
    public var isEmpty: Bool { elements.isEmpty }

    /// Where the next element would start: the last end point, or the start of the subpath after
    /// a close. `.zero` for an empty path, as Core Graphics answers.
    public var currentPoint: CGPoint {
        var start = CGPoint.zero, current = CGPoint.zero
        for element in elements {
            switch element {
            case .move(let p): start = p; current = p
            case .close: current = start
            default: current = element.points.last!
            }
        }
        return current
    }

    /// The smallest rectangle holding every point, control points included (`.null` when empty).
    public var boundingBox: CGRect { CGPath.box(of: elements.flatMap(\.points)) }

    /// The smallest rectangle holding the path itself, curves measured at their extremes.
    public var boundingBoxOfPath: CGRect { CGPath.box(of: PathFlattener.polylines(self, tolerance: 0.01).flatMap { $0 }) }

    /// Calls `block` with each element in order.
    public func applyWithBlock(_ block: (UnsafePointer<CGPathElement>) -> Void) {
        let buffer = UnsafeMutablePointer<CGPoint>.allocate(capacity: 3)
        defer { buffer.deallocate() }
        for element in elements {
            let points = element.points
            for (i, p) in points.enumerated() { buffer[i] = p }
            let type: CGPathElementType = switch element {
            case .move: .moveToPoint
            case .line: .addLineToPoint
            case .quad: .addQuadCurveToPoint
            case .cubic: .addCurveToPoint
            case .close: .closeSubpath
            }
            var value = CGPathElement(type: type, points: buffer)
            withUnsafePointer(to: &value) { block($0) }
        }
    }

    /// Whether `point` is inside the path (each open subpath closed for the test).
    public func contains(_ point: CGPoint, using rule: CGPathFillRule = .winding,
                         transform: CGAffineTransform = .identity) -> Bool {
        let p = point.applying(transform.inverted())
        var winding = 0, crossings = 0
        for polyline in PathFlattener.polylines(self, tolerance: 0.01) where polyline.count > 1 {
            for i in polyline.indices {
                let a = polyline[i], b = polyline[(i + 1) % polyline.count]
                guard (a.y <= p.y) != (b.y <= p.y) else { continue }
                let x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x)
                if x > p.x {
                    crossings += 1
                    winding += b.y > a.y ? 1 : -1
                }
            }
        }
        return rule == .winding ? winding != 0 : crossings % 2 == 1
    }

    /// An immutable copy.
    public func copy() -> CGPath? { CGPath(elements: elements) }

    /// A copy with every point transformed.
    public func copy(using transform: UnsafePointer<CGAffineTransform>?) -> CGPath? {
        guard let t = transform?.pointee else { return copy() }
        return CGPath(elements: elements.map { $0.applying(t) })
    }

    /// A copy with every point transformed. (Use this rather than passing `copy(using:)` a
    /// pointer escaped from `withUnsafePointer`: that pointer dangles, and optimized builds read
    /// garbage through it.)
    public func copy(applying t: CGAffineTransform) -> CGPath {
        CGPath(elements: elements.map { $0.applying(t) })
    }

    /// A mutable copy.
    public func mutableCopy() -> CGMutablePath? { CGMutablePath(elements: elements) }

    public static func == (lhs: CGPath, rhs: CGPath) -> Bool { lhs.elements == rhs.elements }

    public func hash(into hasher: inout Hasher) { hasher.combine(elements.count) }

    public var description: String { "CGPath(\(elements.count) elements, box \(boundingBox))" }

    static func box(of points: [CGPoint]) -> CGRect {
        guard let first = points.first else { return .null }
        var minX = first.x, minY = first.y, maxX = first.x, maxY = first.y
        for p in points {
            minX = min(minX, p.x); maxX = max(maxX, p.x)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}

/// A path being built.
public final class CGMutablePath: CGPath, @unchecked Sendable {
    public init() { super.init(elements: []) }

    override init(elements: [PathElement]) { super.init(elements: elements) }

    /// Room for `count` more elements, so that a path built element by element grows once.
    package func reserveCapacity(_ count: Int) { elements.reserveCapacity(elements.count + count) }

    /// Starts a new subpath at `point`.
    public func move(to point: CGPoint, transform: CGAffineTransform = .identity) {
        elements.append(.move(point.applying(transform)))
    }

    /// A straight line from the current point (a move when the path is empty, as CG allows).
    public func addLine(to point: CGPoint, transform: CGAffineTransform = .identity) {
        elements.append(elements.isEmpty ? .move(point.applying(transform)) : .line(point.applying(transform)))
    }

    /// A polyline: a move to the first point, then lines.
    public func addLines(between points: [CGPoint], transform: CGAffineTransform = .identity) {
        guard let first = points.first else { return }
        move(to: first, transform: transform)
        for p in points.dropFirst() { addLine(to: p, transform: transform) }
    }

    public func addQuadCurve(to end: CGPoint, control: CGPoint, transform: CGAffineTransform = .identity) {
        ensureStart()
        elements.append(.quad(control: control.applying(transform), end: end.applying(transform)))
    }

    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint, transform: CGAffineTransform = .identity) {
        ensureStart()
        elements.append(.cubic(control1: control1.applying(transform), control2: control2.applying(transform),
                               end: end.applying(transform)))
    }

    /// Closes the current subpath with a line back to its start.
    public func closeSubpath() {
        guard !elements.isEmpty else { return }
        elements.append(.close)
    }

    /// A closed rectangle as its own subpath.
    public func addRect(_ rect: CGRect, transform: CGAffineTransform = .identity) {
        let r = rect.standardized
        move(to: CGPoint(x: r.minX, y: r.minY), transform: transform)
        addLine(to: CGPoint(x: r.maxX, y: r.minY), transform: transform)
        addLine(to: CGPoint(x: r.maxX, y: r.maxY), transform: transform)
        addLine(to: CGPoint(x: r.minX, y: r.maxY), transform: transform)
        closeSubpath()
    }

    public func addRects(_ rects: [CGRect], transform: CGAffineTransform = .identity) {
        for rect in rects { addRect(rect, transform: transform) }
    }

    /// A closed ellipse inscribed in `rect`, starting at its rightmost point, angles increasing
    /// (clockwise on a y-down screen).
    public func addEllipse(in rect: CGRect, transform: CGAffineTransform = .identity) {
        let r = rect.standardized
        let scale = CGAffineTransform(a: r.width / 2, b: 0, c: 0, d: r.height / 2, tx: r.midX, ty: r.midY)
        let unit = CGMutablePath()
        unit.move(to: CGPoint(x: 1, y: 0))
        unit.appendArc(center: .zero, radius: 1, from: 0, sweep: 2 * .pi)
        unit.closeSubpath()
        let combined = scale.concatenating(transform)
        elements.append(contentsOf: unit.elements.map { $0.applying(combined) })
    }

    /// An arc of the circle around `center`: a line from the current point to its start (or a
    /// move when the path is empty), then the arc. Angles in radians from the +x axis toward +y.
    /// `clockwise` is Core Graphics' flag, named for its y-up space: false sweeps with increasing
    /// angle (clockwise on a y-down screen), true with decreasing angle.
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat,
                       clockwise: Bool, transform: CGAffineTransform = .identity) {
        guard radius.isFinite, startAngle.isFinite, endAngle.isFinite else { return }
        var sweep = endAngle - startAngle
        let full = 2 * CGFloat.pi
        if clockwise {
            sweep = -((-sweep).truncatingRemainder(dividingBy: full))
            if sweep > 0 { sweep -= full }
        } else {
            sweep = sweep.truncatingRemainder(dividingBy: full)
            if sweep < 0 { sweep += full }
        }
        if abs(endAngle - startAngle) >= full { sweep = clockwise ? -full : full }
        addRelativeArc(center: center, radius: radius, startAngle: startAngle, delta: sweep, transform: transform)
    }

    /// An arc from `startAngle` through `delta` radians (positive: increasing angle).
    public func addRelativeArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, delta: CGFloat,
                               transform: CGAffineTransform = .identity) {
        guard radius.isFinite, startAngle.isFinite, delta.isFinite else { return }
        let start = CGPoint(x: center.x + radius * cos(startAngle), y: center.y + radius * sin(startAngle))
        if elements.isEmpty { move(to: start, transform: transform) } else { addLine(to: start, transform: transform) }
        let local = CGMutablePath()
        local.elements = [.move(start)]
        local.appendArc(center: center, radius: radius, from: startAngle, sweep: delta)
        elements.append(contentsOf: local.elements.dropFirst().map { $0.applying(transform) })
    }

    /// The tangent form: a line toward `tangent1End`, rounded into the line toward `tangent2End`
    /// by an arc of `radius` tangent to both.
    public func addArc(tangent1End p1: CGPoint, tangent2End p2: CGPoint, radius: CGFloat,
                       transform: CGAffineTransform = .identity) {
        ensureStart()
        let inverse = transform.inverted()
        let p0 = currentPoint.applying(inverse)
        let v1 = CGPoint(x: p0.x - p1.x, y: p0.y - p1.y), v2 = CGPoint(x: p2.x - p1.x, y: p2.y - p1.y)
        let l1 = hypot(v1.x, v1.y), l2 = hypot(v2.x, v2.y)
        let cross = v1.x * v2.y - v1.y * v2.x
        guard l1 > 0, l2 > 0, radius > 0, abs(cross) > 1e-12 * l1 * l2 else {
            addLine(to: p1, transform: transform)
            return
        }
        let angle = acos(max(-1, min(1, (v1.x * v2.x + v1.y * v2.y) / (l1 * l2))))
        let distance = radius / tan(angle / 2)
        let t1 = CGPoint(x: p1.x + v1.x / l1 * distance, y: p1.y + v1.y / l1 * distance)
        let t2 = CGPoint(x: p1.x + v2.x / l2 * distance, y: p1.y + v2.y / l2 * distance)
        // The centre lies along the bisector, at radius / sin(angle / 2) from the corner.
        let bisector = CGPoint(x: v1.x / l1 + v2.x / l2, y: v1.y / l1 + v2.y / l2)
        let bl = hypot(bisector.x, bisector.y)
        let centerDistance = radius / sin(angle / 2)
        let center = CGPoint(x: p1.x + bisector.x / bl * centerDistance, y: p1.y + bisector.y / bl * centerDistance)
        let a1 = atan2(t1.y - center.y, t1.x - center.x), a2 = atan2(t2.y - center.y, t2.x - center.x)
        var sweep = a2 - a1
        while sweep > .pi { sweep -= 2 * .pi }
        while sweep < -.pi { sweep += 2 * .pi }
        addLine(to: t1, transform: transform)
        addRelativeArc(center: center, radius: radius, startAngle: a1, delta: sweep, transform: transform)
    }

    /// A closed rectangle with elliptical corners (clamped to half the sides).
    public func addRoundedRect(in rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
                               transform: CGAffineTransform = .identity) {
        let r = rect.standardized
        let rx = min(max(cornerWidth, 0), r.width / 2), ry = min(max(cornerHeight, 0), r.height / 2)
        guard rx > 0, ry > 0 else {
            addRect(r, transform: transform)
            return
        }
        // Each corner is a quarter of an ellipse: a unit quarter arc scaled by (rx, ry).
        let k = 4.0 / 3.0 * tan(CGFloat.pi / 8)
        move(to: CGPoint(x: r.minX + rx, y: r.minY), transform: transform)
        addLine(to: CGPoint(x: r.maxX - rx, y: r.minY), transform: transform)
        addCurve(to: CGPoint(x: r.maxX, y: r.minY + ry), control1: CGPoint(x: r.maxX - rx + k * rx, y: r.minY),
                 control2: CGPoint(x: r.maxX, y: r.minY + ry - k * ry), transform: transform)
        addLine(to: CGPoint(x: r.maxX, y: r.maxY - ry), transform: transform)
        addCurve(to: CGPoint(x: r.maxX - rx, y: r.maxY), control1: CGPoint(x: r.maxX, y: r.maxY - ry + k * ry),
                 control2: CGPoint(x: r.maxX - rx + k * rx, y: r.maxY), transform: transform)
        addLine(to: CGPoint(x: r.minX + rx, y: r.maxY), transform: transform)
        addCurve(to: CGPoint(x: r.minX, y: r.maxY - ry), control1: CGPoint(x: r.minX + rx - k * rx, y: r.maxY),
                 control2: CGPoint(x: r.minX, y: r.maxY - ry + k * ry), transform: transform)
        addLine(to: CGPoint(x: r.minX, y: r.minY + ry), transform: transform)
        addCurve(to: CGPoint(x: r.minX + rx, y: r.minY), control1: CGPoint(x: r.minX, y: r.minY + ry - k * ry),
                 control2: CGPoint(x: r.minX + rx - k * rx, y: r.minY), transform: transform)
        closeSubpath()
    }

    /// A closed rectangle with its own radius at each corner (UIBezierPath's
    /// `byRoundingCorners:cornerRadii:`, and layers' maskedCorners), each clamped to half of the
    /// shorter side. Corners are named for a y-down screen.
    public func addRoundedRect(in rect: CGRect, topLeft: CGFloat, topRight: CGFloat, bottomRight: CGFloat,
                               bottomLeft: CGFloat, transform: CGAffineTransform = .identity) {
        let r = rect.standardized
        let limit = min(r.width, r.height) / 2
        func clamp(_ v: CGFloat) -> CGFloat { v.isFinite ? min(max(v, 0), limit) : 0 }
        let (tl, tr, br, bl) = (clamp(topLeft), clamp(topRight), clamp(bottomRight), clamp(bottomLeft))
        let k = 4.0 / 3.0 * tan(CGFloat.pi / 8)
        move(to: CGPoint(x: r.minX + tl, y: r.minY), transform: transform)
        addLine(to: CGPoint(x: r.maxX - tr, y: r.minY), transform: transform)
        if tr > 0 {
            addCurve(to: CGPoint(x: r.maxX, y: r.minY + tr), control1: CGPoint(x: r.maxX - tr + k * tr, y: r.minY),
                     control2: CGPoint(x: r.maxX, y: r.minY + tr - k * tr), transform: transform)
        }
        addLine(to: CGPoint(x: r.maxX, y: r.maxY - br), transform: transform)
        if br > 0 {
            addCurve(to: CGPoint(x: r.maxX - br, y: r.maxY), control1: CGPoint(x: r.maxX, y: r.maxY - br + k * br),
                     control2: CGPoint(x: r.maxX - br + k * br, y: r.maxY), transform: transform)
        }
        addLine(to: CGPoint(x: r.minX + bl, y: r.maxY), transform: transform)
        if bl > 0 {
            addCurve(to: CGPoint(x: r.minX, y: r.maxY - bl), control1: CGPoint(x: r.minX + bl - k * bl, y: r.maxY),
                     control2: CGPoint(x: r.minX, y: r.maxY - bl + k * bl), transform: transform)
        }
        addLine(to: CGPoint(x: r.minX, y: r.minY + tl), transform: transform)
        if tl > 0 {
            addCurve(to: CGPoint(x: r.minX + tl, y: r.minY), control1: CGPoint(x: r.minX, y: r.minY + tl - k * tl),
                     control2: CGPoint(x: r.minX + tl - k * tl, y: r.minY), transform: transform)
        }
        closeSubpath()
    }

    /// Appends another path's elements, transformed.
    public func addPath(_ path: CGPath, transform: CGAffineTransform = .identity) {
        elements.append(contentsOf: path.elements.map { $0.applying(transform) })
    }

    private func ensureStart() {
        if elements.isEmpty { elements.append(.move(.zero)) }
    }

    /// Cubic segments of at most a quarter turn each, control distance 4/3 tan(sweep / 4).
    fileprivate func appendArc(center: CGPoint, radius: CGFloat, from start: CGFloat, sweep: CGFloat) {
        guard sweep.isFinite, start.isFinite else { return }
        // Past a few turns more turns draw nothing new; bounded so a sweep of 1e30 stays a path.
        let sweep = min(max(sweep, -8 * .pi), 8 * .pi)
        let count = max(1, Int((abs(sweep) / (CGFloat.pi / 2)).rounded(.up)))
        let step = sweep / CGFloat(count)
        let k = 4.0 / 3.0 * tan(step / 4)
        var angle = start
        for _ in 0..<count {
            let next = angle + step
            let (c0, s0, c1, s1) = (cos(angle), sin(angle), cos(next), sin(next))
            elements.append(.cubic(
                control1: CGPoint(x: center.x + radius * (c0 - k * s0), y: center.y + radius * (s0 + k * c0)),
                control2: CGPoint(x: center.x + radius * (c1 + k * s1), y: center.y + radius * (s1 - k * c1)),
                end: CGPoint(x: center.x + radius * c1, y: center.y + radius * s1)))
            angle = next
        }
    }
}
