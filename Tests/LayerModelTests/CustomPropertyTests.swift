// Custom animatable properties: seed 000's PieLayer (`part`) and DigitLayer (`digit`, with the
// 9 -> 0 wrap fix of Listings 6.71 and 6.72), ported to Swift.
import Foundation
import LayerModel
import Testing

/// Seed 000, Listing 6.53 in Swift: a dynamic property with a default that redraws on change.
final class DigitLayer: CALayer, LayerPresentationCopying {
    @Animatable("digit", needsDisplay: true) var digit: Double = 0
}

/// The seed's DigitView as the layer's delegate: it steals the implicit animation made for
/// opacity, retargets it at "digit" and starts it from a better value across the 9/0 wrap.
final class DigitView: CALayerDelegate {
    let layer = DigitLayer()
    var fromValue: Double?

    init() {
        layer.delegate = self
        layer.markLive()
    }

    func setDigit(_ newDigit: Int) {
        var old = Int(layer.digit)
        let new = newDigit % 10
        if old == 9 && new == 0 { old = -1 } else if old == 0 && new == 9 { old = 10 }
        fromValue = Double(old)
        layer.digit = Double(new)
    }

    func action(for layer: CALayer, forKey event: String) -> CAAction? {
        guard event == "digit", let animation = layer.action(forKey: "opacity") as? CABasicAnimation else { return nil }
        animation.keyPath = event
        animation.fromValue = fromValue
        animation.toValue = nil
        animation.byValue = nil
        return animation
    }
}

/// Seed 000's PieLayer: `part` animates through the layer's own action.
final class PieLayer: CALayer, LayerPresentationCopying {
    @Animatable("part", needsDisplay: true) var part: Double = 0

    override func action(forKey event: String) -> CAAction? {
        guard event == "part" else { return super.action(forKey: event) }
        let animation = CABasicAnimation(keyPath: "part")
        animation.fromValue = value(forKey: "part") ?? 0.0 // the old value: the action comes first
        animation.duration = 0.75
        return animation
    }
}

@Suite("Custom animatable properties")
struct CustomPropertyTests {
    @Test("an @Animatable property has its default, stores through key-value coding and asks for a redraw")
    func declaration() {
        let layer = DigitLayer()
        #expect(layer.digit == 0 && !layer.needsDisplay())
        layer.digit = 7
        #expect(layer.value(forKey: "digit") as? Double == 7 && layer.needsDisplay())
        layer.display()
        #expect(!layer.needsDisplay())
        let copy = DigitLayer(layer: layer)
        #expect(copy.digit == 7)
    }

    @Test("setting the pie's part runs its action: it animates from the old part over 0.75 s")
    func pie() throws {
        try MediaClock.$scoped.withValue(0) {
            let pie = PieLayer()
            pie.markLive()
            pie.part = 0.6
            let presented = try #require(pie.presentationTree(atMediaTime: 0.375) as? PieLayer)
            #expect(abs(presented.part - 0.3) < 1e-9)
            #expect(pie.part == 0.6)
        }
    }

    @Test("a digit going from 9 to 0 runs down from -1, not back through 8 ... 1")
    func digitWrap() throws {
        try MediaClock.$scoped.withValue(0) {
            let view = DigitView()
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            view.layer.digit = 9
            CATransaction.commit()
            view.setDigit(10)
            let mid = try #require(view.layer.presentationTree(atMediaTime: 0.125) as? DigitLayer)
            #expect(mid.digit > -1 && mid.digit < 0) // between -1 and 0 on the default curve
            #expect(view.layer.digit == 0)
        }
    }

    @Test("a digit going from 0 to 9 comes from 10")
    func digitWrapUp() throws {
        try MediaClock.$scoped.withValue(0) {
            let view = DigitView()
            view.setDigit(9)
            let mid = try #require(view.layer.presentationTree(atMediaTime: 0.125) as? DigitLayer)
            #expect(mid.digit > 9 && mid.digit < 10)
        }
    }
}
