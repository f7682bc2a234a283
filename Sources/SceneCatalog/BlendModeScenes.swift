import Foundation
import OpenQuartzCore

/// Scenes about `CALayer.compositingFilter`: the W3C blend modes by their Core Animation names,
/// and the Porter-Duff operators, each composited with what lies beneath in its isolation group.
public enum BlendModeScenes {
    static var all: [DemoScene] { [separableModes, nonSeparableModes, compositingOperators] }

    /// The backdrop every cell shares: a test card (colour bars, gradients) beside vertical bands
    /// of opaque and translucent colours.
    static func backdrop(_ frame: CGRect) -> CALayer {
        let cell = CALayer()
        cell.frame = frame
        let card = CALayer()
        card.frame = CGRect(x: 0, y: 0, width: frame.width / 2, height: frame.height)
        card.contents = TestCard.image()
        cell.addSublayer(card)
        let bands: [CGColor] = [SceneKit.color(0.12, 0.56, 1), SceneKit.color(1, 0.84, 0), SceneKit.color(0.9, 0.3, 0.2, 0.6),
                                SceneKit.color(0.08, 0.08, 0.08)]
        let width = frame.width / 2 / CGFloat(bands.count)
        for (i, color) in bands.enumerated() {
            cell.addSublayer(SceneKit.box("band", CGRect(x: frame.width / 2 + CGFloat(i) * width, y: 0, width: width, height: frame.height), color))
        }
        return cell
    }

    /// A blended subtree: a translucent magenta rounded card holding an opaque green square.
    static func blended(_ name: String, in cell: CALayer) {
        let card = SceneKit.box(name, CGRect(x: 10, y: 8, width: cell.bounds.width - 20, height: cell.bounds.height - 16),
                                SceneKit.color(0.8, 0.2, 0.9, 0.85))
        card.cornerRadius = 12
        card.compositingFilter = name
        let inner = SceneKit.box("inner", CGRect(x: card.bounds.width / 2 - 12, y: card.bounds.height / 2 - 12, width: 24, height: 24),
                                 SceneKit.color(0.1, 0.9, 0.4))
        card.addSublayer(inner)
        cell.addSublayer(card)
    }

    /// Cells of blended cards, five to a row, one per name.
    static func cells(_ names: [String], size: CGSize) -> CALayer {
        let root = SceneKit.root(size, color: SceneKit.color(1, 1, 1))
        for (i, name) in names.enumerated() {
            let cell = backdrop(CGRect(x: 5 + CGFloat(i % 5) * 99, y: 5 + CGFloat(i / 5) * 58, width: 94, height: 54))
            blended(name, in: cell)
            root.addSublayer(cell)
        }
        return root
    }

    static let separableModes = DemoScene(
        name: "blend-modes-separable",
        summary: "The eleven separable blend modes of compositingFilter, one cell each in the order multiply, screen, "
            + "overlay, darken, lighten, colorDodge, colorBurn, hardLight, softLight, difference, exclusion: a translucent "
            + "magenta rounded card holding a green square, blended over a test card and four bands (blue, yellow, "
            + "translucent red, near-black). Multiply darkens everything, screen lightens, difference inverts over the "
            + "bright bands.",
        size: CGSize(width: 500, height: 180)
    ) {
        cells(["multiplyBlendMode", "screenBlendMode", "overlayBlendMode", "darkenBlendMode", "lightenBlendMode",
               "colorDodgeBlendMode", "colorBurnBlendMode", "hardLightBlendMode", "softLightBlendMode", "differenceBlendMode",
               "exclusionBlendMode"], size: CGSize(width: 500, height: 180))
    }

    static let nonSeparableModes = DemoScene(
        name: "blend-modes-non-separable",
        summary: "The four non-separable blend modes, in the order hue, saturation, color, luminosity, over the same "
            + "backdrop: hue keeps the backdrop's lightness and saturation with the card's hue, saturation only its "
            + "saturation (the white squares and the near-black band stay grey), color the card's hue and saturation, luminosity the card's lightness "
            + "with the backdrop's colours.",
        size: CGSize(width: 500, height: 64)
    ) {
        cells(["hueBlendMode", "saturationBlendMode", "colorBlendMode", "luminosityBlendMode"], size: CGSize(width: 500, height: 64))
    }

    static let compositingOperators = DemoScene(
        name: "compositing-operators",
        summary: "Porter-Duff compositing filters, and a blend mode's isolation group. Left to right: sourceAtopCompositing "
            + "(the card only where the backdrop is, over it), sourceInCompositing (the card only where the backdrop is, the "
            + "backdrop gone inside the card's bounds), sourceOutCompositing (the card only where the backdrop is not: over "
            + "opaque backdrop nothing, the bounds cleared), additionCompositing (brightened), then multiplyBlendMode on a "
            + "card inside a group of opacity 0.9 that holds a yellow square: the card multiplies the yellow square only, and "
            + "shows unchanged over the page's blue stripe, which is outside its group.",
        size: CGSize(width: 500, height: 70)
    ) {
        let root = SceneKit.root(CGSize(width: 500, height: 70), color: SceneKit.color(1, 1, 1))
        for (i, name) in ["sourceAtopCompositing", "sourceInCompositing", "sourceOutCompositing", "additionCompositing"].enumerated() {
            let cell = backdrop(CGRect(x: 5 + CGFloat(i) * 99, y: 8, width: 94, height: 54))
            blended(name, in: cell)
            root.addSublayer(cell)
        }
        root.addSublayer(SceneKit.box("stripe", CGRect(x: 401, y: 0, width: 94, height: 20), SceneKit.color(0.12, 0.56, 1)))
        let group = CALayer()
        group.frame = CGRect(x: 401, y: 8, width: 94, height: 54)
        group.opacity = 0.9
        group.addSublayer(SceneKit.box("yellow", CGRect(x: 0, y: 20, width: 94, height: 34), SceneKit.color(1, 0.84, 0)))
        blended("multiplyBlendMode", in: group)
        root.addSublayer(group)
        return root
    }
}
