import Foundation
import OpenQuartzCore

extension SeedExamples {
    /// Seed 000's pie, grown to part 0.6 as a shape layer's strokeEnd (a circle of radius 40
    /// stroked 80 wide is a disc; the stroke's end is the pie's part), tilting about x under
    /// m34 = -0.005.
    static func pie() -> CALayer {
        let stage = root(240, 240, .white)
        var perspective = CATransform3DIdentity
        perspective.m34 = -0.005
        stage.sublayerTransform = perspective
        let plate = CALayer()
        plate.frame = CGRect(x: 40, y: 40, width: 160, height: 160)
        plate.backgroundColor = rgb(0xDDDDDD)
        plate.cornerRadius = 80
        plate.borderWidth = 2
        plate.borderColor = rgb(0x999999)
        let tilt = CABasicAnimation(keyPath: "transform.rotation.x")
        tilt.fromValue = 0.0
        tilt.toValue = 1.2
        tilt.duration = 4
        tilt.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        tilt.autoreverses = true
        tilt.repeatCount = 1e9
        plate.add(tilt, forKey: "tilt")
        let pie = CAShapeLayer()
        pie.frame = CGRect(x: 0, y: 0, width: 160, height: 160)
        let circle = CGMutablePath()
        circle.addArc(center: CGPoint(x: 80, y: 80), radius: 40, startAngle: -.pi / 2, endAngle: 3 * .pi / 2, clockwise: false)
        pie.path = circle
        pie.fillColor = nil
        pie.strokeColor = rgb(0xD83B3B)
        pie.lineWidth = 80
        pie.strokeEnd = 0.6
        let part = CABasicAnimation(keyPath: "strokeEnd")
        part.fromValue = 0.0
        part.toValue = 0.6
        part.duration = 2
        part.timingFunction = CAMediaTimingFunction(name: .easeOut)
        pie.add(part, forKey: "part")
        plate.addSublayer(pie)
        stage.addSublayer(plate)
        return stage
    }
}
