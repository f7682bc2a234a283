import Foundation
import OpenQuartzCore

extension SeedExamples {
    /// Seed 000's nested transactions: the outer one (2 s, linear) moves the blue square, an inner
    /// one (0.5 s) the red, and an inner one without actions jumps the green.
    static func nestedTransactionsTree() -> CALayer {
        let stage = root(320, 180, rgb(0xF7F7F2))
        for (name, y, color) in [("outer", 20.0, 0x3B6FD8), ("inner", 70, 0xD83B6F), ("instant", 120, 0x3BD88F)] as [(String, CGFloat, UInt32)] {
            let square = CALayer()
            square.name = name
            square.frame = CGRect(x: 20, y: y, width: 40, height: 40)
            square.backgroundColor = rgb(color)
            square.cornerRadius = 6
            stage.addSublayer(square)
        }
        return stage
    }

    static func nestedTransactions(_ root: CALayer) {
        CATransaction.begin()
        CATransaction.setAnimationDuration(2)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
        layer("outer", in: root).position = CGPoint(x: 280, y: 40)
        CATransaction.begin()
        CATransaction.setAnimationDuration(0.5)
        layer("inner", in: root).position = CGPoint(x: 280, y: 90)
        CATransaction.commit()
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        layer("instant", in: root).position = CGPoint(x: 280, y: 140)
        CATransaction.commit()
        CATransaction.commit()
    }
}
