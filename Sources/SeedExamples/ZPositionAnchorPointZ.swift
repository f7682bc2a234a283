import Foundation
import OpenQuartzCore

extension SeedExamples {
    /// Seed 000's zPosition against anchorPointZ, both turned 0.6 rad about y under perspective.
    static func zPositionAndAnchorPointZ() -> CALayer {
        let stage = root(360, 200, .white)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 200
        stage.sublayerTransform = perspective
        func card(_ name: String, _ frame: CGRect, _ fill: UInt32, _ edge: UInt32) -> CALayer {
            let card = CALayer()
            card.name = name
            card.frame = frame
            card.backgroundColor = rgb(fill)
            card.transform = CATransform3DMakeRotation(0.6, 0, 1, 0)
            card.borderWidth = 2
            card.borderColor = rgb(edge)
            return card
        }
        let raised = card("zPosition 30", CGRect(x: 50, y: 50, width: 100, height: 100), 0x4A90D9, 0x1D3F66)
        raised.zPosition = 30
        let pivoted = card("anchorPointZ 40", CGRect(x: 230, y: 50, width: 100, height: 100), 0xD9904A, 0x66401D)
        pivoted.anchorPointZ = 40
        let flat = CALayer()
        flat.frame = CGRect(x: 155, y: 75, width: 50, height: 50)
        flat.backgroundColor = rgb(0x999999)
        stage.addSublayer(raised)
        stage.addSublayer(pivoted)
        stage.addSublayer(flat)
        return stage
    }
}
