import Foundation

/// The map of a nine-slice image (`contentsCenter`), axis by axis: a position s in the stretched
/// image (0 at one side of the drawn frame, 1 at the other) to a texture coordinate, linear in
/// each of three pieces: [0, s1] onto [t0, t1] (a fixed corner), [s1, s2] onto [t1, t2] (the
/// stretched middle), [s2, 1] onto [t2, t3]. Outside 0...1 the end pieces go on (clamp-to-edge
/// sampling does the rest). Both backends evaluate exactly this, the GPU in float.
public struct NineSlice: Hashable, Sendable {
    public var x: Axis
    public var y: Axis

    public init(x: Axis, y: Axis) {
        self.x = x
        self.y = y
    }

    public struct Axis: Hashable, Sendable {
        /// Where the middle piece starts and ends, 0 <= s1 <= s2 <= 1.
        public var s1: Double, s2: Double
        /// Texture coordinates at s = 0, s1, s2 and 1.
        public var t0: Double, t1: Double, t2: Double, t3: Double

        public init(s1: Double, s2: Double, t0: Double, t1: Double, t2: Double, t3: Double) {
            self.s1 = s1; self.s2 = s2
            self.t0 = t0; self.t1 = t1; self.t2 = t2; self.t3 = t3
        }

        /// The texture coordinate at s, and its derivative (for the level of detail).
        @inlinable
        public func map(_ s: Double) -> (value: Double, slope: Double) {
            if s < s1 { return Self.piece(s, 0, s1, t0, t1) }
            if s < s2 { return Self.piece(s, s1, s2, t1, t2) }
            return Self.piece(s, s2, 1, t2, t3)
        }

        /// A piece of no width is met only beside it, where its end value holds.
        @inlinable
        static func piece(_ s: Double, _ a: Double, _ b: Double, _ ta: Double, _ tb: Double) -> (value: Double, slope: Double) {
            guard b - a > 0 else { return (ta, 0) }
            let k = (tb - ta) / (b - a)
            return (ta + (s - a) * k, k)
        }
    }
}
