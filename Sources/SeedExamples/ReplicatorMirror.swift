import Foundation
import OpenQuartzCore

extension SeedExamples {
    /// Seed 000's mirror with CAReplicatorLayer: a second instance flipped below, faded and darkened.
    static func replicatorMirror() -> CALayer {
        let stage = root(240, 260, rgb(0x1C1F26))
        let mirror = CAReplicatorLayer()
        mirror.frame = CGRect(x: 40, y: 20, width: 160, height: 120)
        mirror.instanceCount = 2
        mirror.instanceTransform = CATransform3DConcat(CATransform3DMakeScale(1, -1, 1), CATransform3DMakeTranslation(0, 120, 0))
        mirror.instanceAlphaOffset = -0.7
        mirror.instanceRedOffset = -0.2
        mirror.instanceGreenOffset = -0.2
        mirror.instanceBlueOffset = -0.2
        let photo = CALayer()
        photo.frame = CGRect(x: 0, y: 0, width: 160, height: 120)
        photo.contents = try? CGImage.load(contentsOf: examples.appendingPathComponent("page.png"))
        photo.contentsGravity = .resizeAspectFill
        photo.masksToBounds = true
        photo.cornerRadius = 8
        mirror.addSublayer(photo)
        stage.addSublayer(mirror)
        return stage
    }
}
