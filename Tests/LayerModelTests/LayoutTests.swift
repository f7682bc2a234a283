// The layout cycle as Core Animation runs it: setNeedsLayout marks, a commit (or a frame) lays
// out before it displays, top down; layoutSublayers overrides and the delegate's
// layoutSublayers(of:) run; layoutIfNeeded forces it; bounds changes and added or removed
// sublayers mark the layer; preferredFrameSize is the bounds in the superlayer's space.
import Foundation
import LayerModel
import OpenCoreGraphics
import Testing

/// Lays its sublayers out in a row across its width, and keeps a log of layouts.
private final class RowLayer: CALayer {
    var log: [String] = []
    override func layoutSublayers() {
        log.append(name ?? "?")
        let items = sublayers ?? []
        guard !items.isEmpty else { return }
        let width = bounds.width / CGFloat(items.count)
        for (i, item) in items.enumerated() {
            item.frame = CGRect(x: CGFloat(i) * width, y: 0, width: width, height: bounds.height)
        }
    }
}

private final class Recorder: CALayerDelegate {
    var laidOut: [CALayer] = []
    func layoutSublayers(of layer: CALayer) { laidOut.append(layer) }
}

@Suite("Layout")
struct LayoutTests {
    @Test("setNeedsLayout marks, layoutIfNeeded lays out once and clears the mark")
    func marksAndClears() {
        let row = RowLayer()
        row.name = "row"
        row.layoutIfNeeded()
        row.log = []
        #expect(!row.needsLayout())
        row.setNeedsLayout()
        #expect(row.needsLayout())
        row.layoutIfNeeded()
        row.layoutIfNeeded()
        #expect(row.log == ["row"] && !row.needsLayout())
    }

    @Test("a bounds change marks the layer, and its layoutSublayers places its sublayers")
    func boundsChangeLaysOut() {
        let row = RowLayer()
        for _ in 0..<2 { row.addSublayer(CALayer()) }
        row.bounds = CGRect(x: 0, y: 0, width: 100, height: 20)
        #expect(row.needsLayout())
        row.layoutIfNeeded()
        #expect(row.sublayers?.map(\.frame) == [CGRect(x: 0, y: 0, width: 50, height: 20), CGRect(x: 50, y: 0, width: 50, height: 20)])
        row.position = CGPoint(x: 5, y: 5)
        #expect(!row.needsLayout(), "moving a layer does not change its bounds")
        row.bounds = row.bounds
        #expect(!row.needsLayout(), "the same bounds again change nothing")
        row.bounds.size.width = 60
        #expect(row.needsLayout())
    }

    @Test("adding and removing sublayers marks the superlayer")
    func sublayerChangesMark() {
        let row = RowLayer()
        row.layoutIfNeeded()
        let child = CALayer()
        row.addSublayer(child)
        #expect(row.needsLayout())
        row.layoutIfNeeded()
        child.removeFromSuperlayer()
        #expect(row.needsLayout())
    }

    @Test("a commit lays out top down before it displays, including layers the layout itself resized")
    func commitLaysOutTopDown() {
        let outer = RowLayer()
        outer.name = "outer"
        let inner = RowLayer()
        inner.name = "inner"
        let leaf = CALayer()
        inner.addSublayer(leaf)
        outer.addSublayer(inner)
        outer.addSublayer(CALayer())
        outer.bounds = CGRect(x: 0, y: 0, width: 200, height: 40)
        outer.log = []
        inner.log = []
        // The commit: outer lays out first and resizes inner, which is then laid out in the same pass.
        outer.displayTreeIfNeeded()
        #expect(outer.log == ["outer"] && inner.log == ["inner"])
        #expect(inner.frame == CGRect(x: 0, y: 0, width: 100, height: 40))
        #expect(leaf.frame == CGRect(x: 0, y: 0, width: 100, height: 40))
        #expect(!outer.needsLayout() && !inner.needsLayout())
    }

    @Test("layoutIfNeeded on a sublayer starts at the highest superlayer that needs layout")
    func layoutIfNeededClimbs() {
        let outer = RowLayer()
        outer.name = "outer"
        let inner = RowLayer()
        inner.name = "inner"
        outer.addSublayer(inner)
        outer.bounds = CGRect(x: 0, y: 0, width: 80, height: 10)
        outer.layoutIfNeeded()
        outer.log = []
        inner.log = []
        outer.setNeedsLayout()
        inner.setNeedsLayout()
        inner.layoutIfNeeded()
        #expect(outer.log == ["outer"] && inner.log == ["inner"])
    }

    @Test("without an override, the delegate's layoutSublayers(of:) runs")
    func delegateLaysOut() {
        let recorder = Recorder()
        let layer = CALayer()
        layer.delegate = recorder
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        layer.layoutIfNeeded()
        #expect(recorder.laidOut.count == 1 && recorder.laidOut.first === layer)
    }

    @Test("preferredFrameSize is the bounds mapped into the superlayer's space")
    func preferredFrameSize() {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 30, height: 10)
        #expect(layer.preferredFrameSize() == CGSize(width: 30, height: 10))
        layer.transform = CATransform3DMakeScale(2, 3, 1)
        #expect(layer.preferredFrameSize() == CGSize(width: 60, height: 30))
    }
}
