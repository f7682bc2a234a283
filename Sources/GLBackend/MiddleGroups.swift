import Compositor

/// The order in which a rounded batch draws its frames and the middles it cut out of them
/// (`GLQuadBatch`): consecutive instances in groups, each group's frames in one draw and then its
/// middles in another, by the colour-only program.
///
/// Drawing a group's middles after all its frames moves each middle past the frames that follow
/// it in the group. That keeps every pixel's draws in order as long as no later frame of the group
/// writes a pixel of the middle: a group ends before the first frame whose pixel bounds meet the
/// rectangle of a middle already in it. Drawn shape by shape instead (frame, middle, the next
/// frame...), a middle cost a draw and two switches of program, more than a small card's middle
/// saves on llvmpipe (1,000 cards of 64 x 48: 37 ms drawn whole, 40-41 drawn apart one by one);
/// in groups the switches are paid once per group. Cards that do not overlap (a grid of them, a
/// list) make one group; overlapping ones, as many as the overlaps need.
package enum MiddleGroups {
    /// A rectangle in device pixels that a middle's pixels lie in.
    package struct Rect: Equatable {
        package var minX: Double, minY: Double, maxX: Double, maxY: Double

        package init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
            (self.minX, self.minY, self.maxX, self.maxY) = (minX, minY, maxX, maxY)
        }

        /// Whether a pixel of this rectangle can lie in `bounds` (pixels `minX..<maxX`, ...): a
        /// pixel is a middle's where its centre is inside, so a pixel's own square meeting the
        /// rectangle at all is counted, a pixel more than needed.
        package func meets(_ bounds: PixelRect) -> Bool {
            minX < Double(bounds.maxX) + 1 && maxX > Double(bounds.minX) - 1
                && minY < Double(bounds.maxY) + 1 && maxY > Double(bounds.minY) - 1
        }
    }

    /// A middle drawn apart: its instance's index, whether it is opaque, where it lies.
    package struct Middle: Equatable {
        package var index: Int
        package var opaque: Bool
        package var bounds: Rect

        package init(index: Int, opaque: Bool, bounds: Rect) {
            (self.index, self.opaque, self.bounds) = (index, opaque, bounds)
        }
    }

    /// Instances whose frames draw in one call, then the middles among them in another.
    package struct Group: Equatable {
        package var frames: Range<Int>
        package var middles: ArraySlice<Middle>
    }

    /// Most middles in a group: bounds the search of a group's middles for each frame (a
    /// 10,000-card batch with no overlaps checks each frame against 128 at most).
    package static let maxMiddles = 128

    /// The groups of `frames.count` instances, whose pixel bounds are `frames`, with `middles`
    /// (in the order of their indices) drawn apart.
    package static func groups(frames: [PixelRect], middles: [Middle]) -> [Group] {
        var groups: [Group] = []
        var start = 0, firstMiddle = 0, nextMiddle = 0
        for (index, bounds) in frames.enumerated() {
            let gathered = middles[firstMiddle..<nextMiddle]
            if gathered.count >= maxMiddles || gathered.contains(where: { $0.bounds.meets(bounds) }) {
                groups.append(Group(frames: start..<index, middles: gathered))
                (start, firstMiddle) = (index, nextMiddle)
            }
            if nextMiddle < middles.count, middles[nextMiddle].index == index { nextMiddle += 1 }
        }
        groups.append(Group(frames: start..<frames.count, middles: middles[firstMiddle..<nextMiddle]))
        return groups
    }
}
