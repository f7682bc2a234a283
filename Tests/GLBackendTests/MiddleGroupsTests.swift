// The groups a rounded batch draws its frames and cut-out middles in (MiddleGroups): a group's
// middles are drawn after all its frames, so no frame later in a group may reach a middle before
// it. Held here on rectangles; RoundedMiddleTests holds the drawing to the whole shapes' bytes.
import Compositor
import GLBackend
import Testing

@Suite("Middles drawn apart, a group at a time")
struct MiddleGroupsTests {
    typealias Middle = MiddleGroups.Middle

    /// A frame of `size` pixels at (x, y), and a middle inside it (a pixel in from each side).
    static func card(_ x: Int, _ y: Int, size: Int = 10) -> (frame: PixelRect, middle: MiddleGroups.Rect) {
        (PixelRect(minX: x, minY: y, maxX: x + size, maxY: y + size),
         MiddleGroups.Rect(minX: Double(x + 1), minY: Double(y + 1), maxX: Double(x + size - 1), maxY: Double(y + size - 1)))
    }

    /// Every frame is in exactly one group, the groups in order; every middle in the group of its
    /// own frame; and no frame of a group meets a middle earlier in it.
    static func checkOrder(_ groups: [MiddleGroups.Group], frames: [PixelRect], middles: [Middle]) {
        #expect(groups.flatMap { Array($0.frames) } == Array(frames.indices))
        #expect(groups.flatMap { Array($0.middles) } == middles)
        for group in groups {
            for middle in group.middles {
                #expect(group.frames.contains(middle.index))
                for later in (middle.index + 1)..<group.frames.upperBound {
                    #expect(!middle.bounds.meets(frames[later]), "frame \(later) drawn before the middle of \(middle.index)")
                }
            }
        }
    }

    @Test("cards side by side: one group")
    func apart() {
        let cards = (0..<20).map { Self.card(($0 % 5) * 12, ($0 / 5) * 12) }
        let middles = cards.indices.map { Middle(index: $0, opaque: false, bounds: cards[$0].middle) }
        let groups = MiddleGroups.groups(frames: cards.map(\.frame), middles: middles)
        #expect(groups.count == 1)
        Self.checkOrder(groups, frames: cards.map(\.frame), middles: middles)
    }

    @Test("a frame over an earlier middle starts a group; one over an earlier group's does not")
    func overlapping() {
        // 0 and 1 apart; 2 over 0's middle; 3 over 1's (in the group before 2's: no new group);
        // 4 over 2's.
        let cards = [Self.card(0, 0), Self.card(40, 0), Self.card(3, 3), Self.card(42, 2), Self.card(5, 5)]
        let middles = cards.indices.map { Middle(index: $0, opaque: $0 == 1, bounds: cards[$0].middle) }
        let frames = cards.map(\.frame)
        let groups = MiddleGroups.groups(frames: frames, middles: middles)
        #expect(groups.map(\.frames) == [0..<2, 2..<4, 4..<5])
        Self.checkOrder(groups, frames: frames, middles: middles)
    }

    @Test("frames without a middle of their own group by what they cover")
    func framesAlone() {
        // Only 0 and 3 have a middle apart; 2 lies over 0's middle, 4 over 3's, 1 over nothing.
        let cards = [Self.card(0, 0), Self.card(30, 0), Self.card(2, 2), Self.card(60, 0), Self.card(61, 1)]
        let middles = [Middle(index: 0, opaque: true, bounds: cards[0].middle), Middle(index: 3, opaque: true, bounds: cards[3].middle)]
        let frames = cards.map(\.frame)
        let groups = MiddleGroups.groups(frames: frames, middles: middles)
        #expect(groups.map(\.frames) == [0..<2, 2..<4, 4..<5])
        #expect(groups.map(\.middles.count) == [1, 1, 0])
        Self.checkOrder(groups, frames: frames, middles: middles)
    }

    @Test("a pixel's reach: frames touching a middle's rectangle, or a pixel off it, count as over it")
    func touching() {
        let middle = MiddleGroups.Rect(minX: 10.5, minY: 10.5, maxX: 20.5, maxY: 20.5)
        #expect(middle.meets(PixelRect(minX: 20, minY: 20, maxX: 30, maxY: 30)))
        #expect(middle.meets(PixelRect(minX: 21, minY: 12, maxX: 30, maxY: 18)))  // a pixel off: counted
        #expect(middle.meets(PixelRect(minX: 0, minY: 0, maxX: 10, maxY: 10)))
        #expect(!middle.meets(PixelRect(minX: 22, minY: 0, maxX: 30, maxY: 30)))
        #expect(!middle.meets(PixelRect(minX: 0, minY: 22, maxX: 30, maxY: 30)))
        #expect(!middle.meets(PixelRect(minX: 0, minY: 0, maxX: 9, maxY: 30)))
    }

    @Test("a group holds at most maxMiddles middles")
    func capped() {
        let count = MiddleGroups.maxMiddles * 2 + 5
        let cards = (0..<count).map { Self.card(($0 % 40) * 12, ($0 / 40) * 12) }
        let middles = cards.indices.map { Middle(index: $0, opaque: false, bounds: cards[$0].middle) }
        let groups = MiddleGroups.groups(frames: cards.map(\.frame), middles: middles)
        #expect(groups.map(\.middles.count) == [MiddleGroups.maxMiddles, MiddleGroups.maxMiddles, 5])
        Self.checkOrder(groups, frames: cards.map(\.frame), middles: middles)
    }
}
