import Foundation
import OpenCoreGraphics

/// A shape layer's path flattened in its own plane (its fill's outline, or its stroke's), kept
/// from one frame to the next. In an animation most shapes keep their path while their layers
/// move, turn and scale (a Lottie file's shapes, a spinner's arcs): stroking and flattening them
/// again each frame was most of building its render list (18 stroked circles of
/// 9squares_AlBoardman: 10 ms a frame against 0.8 for rlottie's whole frame). Only the
/// projection into device pixels and the clip are made per frame.
///
/// An entry is found by what it is made from (the path's elements, the stroke's settings and the
/// flattening tolerance), never by a layer's identity, so a path changed in place, or a layer
/// gone and another in its memory, cannot be drawn from a stale entry; shapes with the same path
/// (a replicator's copies) share one. The tolerance, in the shape's units, is rounded down to a
/// power of two (so it is between half and all of `RenderListBuilder.pathTolerance` device
/// pixels), and a layer scaling smoothly keeps its entry over each doubling. An entry one whole
/// frame did not use is dropped as the next frame begins: at most two frames' shapes are kept.
///
/// One cache serves one renderer's frames, built one after another (CARenderer, `quartz
/// animate`); its lock makes sharing it harmless, not useful.
public final class ShapeOutlineCache: @unchecked Sendable {
    /// How a stroke is made from the path: all that decides its outline.
    struct Stroke: Hashable {
        var width: CGFloat
        var cap: CGLineCap
        var join: CGLineJoin
        var miterLimit: CGFloat
        var dashPhase: CGFloat
        var dashLengths: [CGFloat]
        var start: CGFloat
        var end: CGFloat
    }

    struct Key: Hashable {
        /// The path's elements as they were when the key was made: a value, so a CGMutablePath
        /// changed afterwards (on any thread) changes no key the cache holds.
        let elements: [PathElement]
        /// The elements digested (CGPath hashes only their count).
        let digest: Int
        let stroke: Stroke?
        let tolerance: Double

        init(elements: [PathElement], digest: Int, stroke: Stroke?, tolerance: Double) {
            self.elements = elements
            self.digest = digest
            self.stroke = stroke
            self.tolerance = tolerance
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(digest)
            hasher.combine(stroke)
            hasher.combine(tolerance)
        }

        static func == (a: Key, b: Key) -> Bool {
            a.digest == b.digest && a.tolerance == b.tolerance && a.stroke == b.stroke && a.elements == b.elements
        }
    }

    /// Polylines in the layer's plane, each closed by returning to its start where the outline is.
    typealias Polylines = [[CGPoint]]

    private var current: [Key: Polylines] = [:]
    private var previous: [Key: Polylines] = [:]
    private let lock = NSLock()
    /// Outlines found kept, and made, since the cache was made: what a test or benchmark reads.
    public var hits: Int { lock.lock(); defer { lock.unlock() }; return hitCount }
    public var misses: Int { lock.lock(); defer { lock.unlock() }; return missCount }
    private var hitCount = 0, missCount = 0

    public init() {}

    /// Outlines kept now: those the last frame used, and those of the frame before it did not.
    public var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return current.count + previous.keys.filter { current[$0] == nil }.count
    }

    /// Called as a frame's build starts: what the frame before last used and the last did not is
    /// dropped.
    func beginFrame() {
        lock.lock()
        defer { lock.unlock() }
        previous = current
        current = [:]
    }

    /// The kept polylines for `key`, or `make`'s, kept.
    func polylines(for key: Key, make: () -> Polylines) -> Polylines {
        lock.lock()
        if let kept = current[key] ?? previous[key] {
            current[key] = kept
            hitCount += 1
            lock.unlock()
            return kept
        }
        missCount += 1
        lock.unlock()
        let made = make()
        lock.lock()
        current[key] = made
        lock.unlock()
        return made
    }

    /// A path's elements as one number: equal elements give equal digests.
    static func digest(of elements: [PathElement]) -> Int {
        var hasher = Hasher()
        for element in elements {
            switch element {
            case .move(let p): hasher.combine(0); hasher.combine(p.x); hasher.combine(p.y)
            case .line(let p): hasher.combine(1); hasher.combine(p.x); hasher.combine(p.y)
            case let .quad(c, e):
                hasher.combine(2); hasher.combine(c.x); hasher.combine(c.y); hasher.combine(e.x); hasher.combine(e.y)
            case let .cubic(c1, c2, e):
                hasher.combine(3); hasher.combine(c1.x); hasher.combine(c1.y); hasher.combine(c2.x); hasher.combine(c2.y)
                hasher.combine(e.x); hasher.combine(e.y)
            case .close: hasher.combine(4)
            }
        }
        return hasher.finalize()
    }

    /// `tolerance` rounded down to a power of two.
    static func quantized(_ tolerance: Double) -> Double {
        guard tolerance.isFinite, tolerance > 0 else { return tolerance }
        return Double(sign: .plus, exponent: tolerance.exponent, significand: 1)
    }
}
