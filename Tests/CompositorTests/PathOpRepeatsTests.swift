// A path op's contours lose points within 1e-9 pixel of the point before, and closing points
// on their start, whether the contour has none (kept as it is, not copied), one at its end (a
// flattened closed subpath), or several anywhere.
import Compositor
import Foundation
import Testing

@Suite("Repeated points dropped from a path op's contours")
struct PathOpRepeatsTests {
    /// The rule written out plainly: each point within 1e-9 of the last kept one is dropped, then
    /// trailing points within 1e-9 of the first.
    static func reference(_ contour: [DevicePoint]) -> [DevicePoint] {
        func near(_ p: DevicePoint, _ q: DevicePoint) -> Bool { abs(p.x - q.x) <= 1e-9 && abs(p.y - q.y) <= 1e-9 }
        var out: [DevicePoint] = []
        for p in contour where out.last.map({ !near($0, p) }) ?? true { out.append(p) }
        while out.count > 1, near(out[0], out[out.count - 1]) { out.removeLast() }
        return out
    }

    static func op(_ contours: [[DevicePoint]]) -> PathOp? {
        PathOp(source: "test", contours: contours, evenOdd: false,
               color: PremultipliedColor(red: 1, green: 0, blue: 0, alpha: 1), opacity: 1, targetWidth: 64, targetHeight: 64)
    }

    @Test("random contours with repeats at the end, inside and nowhere keep what the rule keeps, in order")
    func randomContours() throws {
        var generator = SystemRandomNumberGenerator()
        for trial in 0..<400 {
            let count = Int.random(in: 3...9, using: &generator)
            var contour = (0..<count).map { _ in
                DevicePoint(x: Double.random(in: 1...60, using: &generator), y: Double.random(in: 1...60, using: &generator))
            }
            switch trial % 4 {
            case 0: break
            case 1: contour.append(contour[0])
            case 2: contour.insert(DevicePoint(x: contour[1].x + 5e-10, y: contour[1].y), at: 2)
            default: contour += [contour[0], DevicePoint(x: contour[0].x, y: contour[0].y - 1e-10)]
            }
            let expected = Self.reference(contour)
            let kept = Self.op([contour])?.contours
            #expect(kept == [expected], "trial \(trial): \(contour)")
        }
    }

    @Test("a contour that is all one point, or two points and their repeats, is dropped")
    func degenerate() {
        let a = DevicePoint(x: 3, y: 4), b = DevicePoint(x: 20, y: 30)
        #expect(Self.op([[a, a, a]]) == nil)
        #expect(Self.op([[a, b, a]]) == nil)
        #expect(Self.op([[a, b, b, a, a]]) == nil)
        #expect(Self.op([[a, b, DevicePoint(x: 3, y: 30)]])?.contours == [[a, b, DevicePoint(x: 3, y: 30)]])
    }
}
