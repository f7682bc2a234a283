import Foundation
import OpenQuartzCore

/// Scenes about clipping in combination: rounded clips with borders under 3D, and clips nested
/// deep.
enum ClipScenes {
    static var all: [DemoScene] { [roundedBorderClip3D, nestedClips] }

    static let roundedBorderClip3D = DemoScene(
        name: "rounded-border-clip-3d",
        summary: "A card with cornerRadius 18, a 4-point dark border and masksToBounds, holding an oversized test card "
            + "sublayer, turned 40 degrees about y and 15 about z under perspective (m34 = -1/400): the image is "
            + "clipped to the rounded outline, which foreshortens with the card, and the border runs over it, "
            + "evenly anti-aliased on the near and far sides.",
        size: CGSize(width: 220, height: 160)
    ) {
        let (root, stage) = ProjectionScenes.perspectiveStage(CGSize(width: 220, height: 160), m34: -1.0 / 400)
        let card = CALayer()
        card.bounds = CGRect(x: 0, y: 0, width: 140, height: 100)
        card.position = CGPoint(x: 110, y: 80)
        card.cornerRadius = 18
        card.masksToBounds = true
        card.borderWidth = 4
        card.borderColor = CGColor(gray: 0.15, alpha: 1)
        card.backgroundColor = .white
        let image = CALayer()
        image.frame = CGRect(x: -20, y: -15, width: 180, height: 130)
        image.contents = TestCard.image()
        card.addSublayer(image)
        card.transform = CATransform3DRotate(CATransform3DMakeRotation(40 * .pi / 180, 0, 1, 0), 15 * .pi / 180, 0, 0, 1)
        stage.addSublayer(card)
        return root
    }

    static let nestedClips = DemoScene(
        name: "nested-clips-5",
        summary: "Five clipping layers nested, each turned 9 degrees more and inset 12 points, the last one holding a "
            + "test card larger than all of them: the card shows only inside the innermost square, every clip edge "
            + "anti-aliased, each level's translucent tint visible in the band it adds.",
        size: CGSize(width: 200, height: 200)
    ) {
        let root = SceneKit.root(CGSize(width: 200, height: 200))
        var parent = root
        var frame = CGRect(x: 20, y: 20, width: 160, height: 160)
        for level in 0..<5 {
            let clip = CALayer()
            clip.name = "clip \(level)"
            clip.frame = frame
            clip.masksToBounds = true
            clip.backgroundColor = SceneKit.color(0.2 * CGFloat(level), 0.3, 1 - 0.15 * CGFloat(level), 0.25)
            clip.setAffineTransform(CGAffineTransform(rotationAngle: 9 * .pi / 180))
            parent.addSublayer(clip)
            parent = clip
            frame = CGRect(x: 12, y: 12, width: frame.width - 24, height: frame.height - 24)
        }
        let card = CALayer()
        card.frame = CGRect(x: -60, y: -60, width: 200, height: 160)
        card.contents = TestCard.image()
        parent.addSublayer(card)
        return root
    }
}
