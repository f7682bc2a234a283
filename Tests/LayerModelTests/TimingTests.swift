// CAMediaTiming, timing functions and time spaces, as the seed (000, 6.3.9) and Apple document them.
import Foundation
import LayerModel
import Testing

/// x(s), y(s) of the cubic Bézier, solved here by plain bisection to 1e-12: an independent check
/// of the solver's Newton iteration.
private func bezierReference(_ x: Double, _ p: (Double, Double, Double, Double)) -> Double {
    func b(_ s: Double, _ a: Double, _ c: Double) -> Double { 3 * (1 - s) * (1 - s) * s * a + 3 * (1 - s) * s * s * c + s * s * s }
    var lo = 0.0, hi = 1.0
    for _ in 0..<100 {
        let mid = (lo + hi) / 2
        if b(mid, p.0, p.2) < x { lo = mid } else { hi = mid }
    }
    return b((lo + hi) / 2, p.1, p.3)
}

@Suite("Timing")
struct TimingTests {
    @Test("named timing functions have Apple's control points")
    func namedControlPoints() {
        let expected: [(CAMediaTimingFunctionName, (Float, Float, Float, Float))] = [
            (.default, (0.25, 0.1, 0.25, 1)), (.easeIn, (0.42, 0, 1, 1)), (.easeOut, (0, 0, 0.58, 1)),
            (.easeInEaseOut, (0.42, 0, 0.58, 1)), (.linear, (0, 0, 1, 1)),
        ]
        for (name, points) in expected {
            #expect(CAMediaTimingFunction(name: name).controlPoints == points, "\(name.rawValue)")
        }
        var values: [Float] = [0, 0]
        CAMediaTimingFunction(name: .easeIn).getControlPoint(at: 1, values: &values)
        #expect(values == [0.42, 0])
        CAMediaTimingFunction(name: .easeIn).getControlPoint(at: 3, values: &values)
        #expect(values == [1, 1])
    }

    @Test("timing functions are solved to 1e-6 against an independent bisection")
    func solverAccuracy() {
        for function in [CAMediaTimingFunction(name: .default), CAMediaTimingFunction(name: .easeInEaseOut),
                         CAMediaTimingFunction(controlPoints: 0.9, -0.5, 0.1, 1.5)] {
            let p = function.controlPoints
            for i in 0...100 {
                let x = Double(i) / 100
                let reference = bezierReference(x, (Double(p.0), Double(p.1), Double(p.2), Double(p.3)))
                #expect(abs(function.evaluate(x) - reference) < 1e-6, "\(function) at \(x)")
            }
        }
        #expect(abs(CAMediaTimingFunction(name: .linear).evaluate(0.37) - 0.37) < 1e-12)
        // Control points are Floats (as Apple's): 0.42 and 0.58 are not exactly symmetric.
        #expect(abs(CAMediaTimingFunction(name: .easeInEaseOut).evaluate(0.5) - 0.5) < 1e-7)
    }

    @Test("nested speeds multiply: 3 x 0.5 x 4 = 6")
    func speedProduct() {
        let a = CALayer(), b = CALayer(), c = CALayer()
        a.speed = 3
        b.speed = 0.5
        c.speed = 4
        a.addSublayer(b)
        b.addSublayer(c)
        #expect(c.convertTime(10, from: nil) == 60)
        #expect(c.convertTime(60, to: nil) == 10)
        #expect(c.convertTime(6, from: a) == 12) // a's 6 s are b's 3 s are c's 12 s
    }

    @Test("beginTime and timeOffset shift a layer's local time")
    func localTime() {
        let layer = CALayer()
        layer.beginTime = 5
        layer.timeOffset = 1
        layer.speed = 2
        #expect(layer.layerTime(atMediaTime: 7) == 5) // (7 - 5) * 2 + 1
        #expect(layer.mediaTime(atLayerTime: 5) == 7)
    }

    @Test("the seed's pause and resume recipe continues without a jump")
    func pauseResume() {
        let layer = CALayer()
        // Pause at media time 10.
        let pausedTime = layer.convertTime(10, from: nil)
        layer.speed = 0
        layer.timeOffset = pausedTime
        #expect(layer.layerTime(atMediaTime: 13) == 10) // frozen
        // Resume at media time 15.
        let paused = layer.timeOffset
        layer.speed = 1
        layer.timeOffset = 0
        layer.beginTime = 0
        let timeSincePause = layer.convertTime(15, from: nil) - paused
        layer.beginTime = timeSincePause
        #expect(layer.layerTime(atMediaTime: 15) == 10) // no jump
        #expect(layer.layerTime(atMediaTime: 16) == 11)
    }
}
