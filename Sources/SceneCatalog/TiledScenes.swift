import Foundation
import OpenQuartzCore

/// Scenes about CATiledLayer: content drawn by tiles at the level of detail a frame shows.
enum TiledScenes {
    static var all: [DemoScene] { [map] }

    static let map = DemoScene(
        name: "tiled-map",
        summary: "A 16,000 x 12,000-point map drawn by a CATiledLayer (256-pixel tiles, seven levels of detail): "
            + "blocks of streets in eight districts, a river crossing it diagonally. Left, the whole map at 1/80 of "
            + "its size, drawn from 9 tiles at 1/64 resolution. Right, the river's bank among blocks at 0.6 of "
            + "full size (full-resolution tiles), tilted back in perspective: the streets straight and sharp near the "
            + "bottom, no seam where the tiles meet. No backing store "
            + "of the map is made (it would be 768 MB).",
        size: CGSize(width: 360, height: 200)
    ) {
        let root = SceneKit.root(CGSize(width: 360, height: 200))
        let overview = CALayer()
        overview.frame = CGRect(x: 10, y: 10, width: 200, height: 150)
        overview.masksToBounds = true
        let whole = MapTiles()
        whole.transform = CATransform3DMakeScale(1.0 / 80, 1.0 / 80, 1)
        whole.position = CGPoint(x: 100, y: 75)
        overview.addSublayer(whole)
        root.addSublayer(overview)

        let detail = CALayer()
        detail.frame = CGRect(x: 220, y: 10, width: 130, height: 180)
        detail.masksToBounds = true
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 300
        detail.sublayerTransform = perspective
        let near = MapTiles()
        // Map point (2,000, 2,300), by the river's bank, at the panel's centre, at 0.6 of its
        // size and tilted back about it.
        near.anchorPoint = CGPoint(x: 2_000.0 / 16_000, y: 2_300.0 / 12_000)
        near.position = CGPoint(x: 65, y: 90)
        near.transform = CATransform3DRotate(CATransform3DMakeScale(0.6, 0.6, 1), 0.7, 1, 0, 0)
        detail.addSublayer(near)
        root.addSublayer(detail)
        return root
    }
}

/// The map: its drawing reads the clip's bounding box and draws only the blocks that meet it,
/// as tiled drawing must (a tile of the whole map at full resolution would be 768 MB).
final class MapTiles: CATiledLayer, @unchecked Sendable {
    override init() {
        super.init()
        bounds = CGRect(x: 0, y: 0, width: 16_000, height: 12_000)
        levelsOfDetail = 7
        backgroundColor = CGColor(red: 0.93, green: 0.92, blue: 0.88, alpha: 1)
        setNeedsDisplay()
    }

    required init?(coder: NSCoder) { super.init(coder: coder) }
    override init(layer: Any) { super.init(layer: layer) }

    override func draw(in ctx: CGContext) {
        let clip = ctx.boundingBoxOfClipPath
        let block = 100.0, street = 14.0
        let c0 = max(Int(clip.minX / block) - 1, 0), c1 = min(Int(clip.maxX / block) + 1, 160)
        let r0 = max(Int(clip.minY / block) - 1, 0), r1 = min(Int(clip.maxY / block) + 1, 120)
        guard c0 <= c1, r0 <= r1 else { return }
        for row in r0...r1 {
            for column in c0...c1 {
                // Eight districts, each its colour, shaded a little block by block.
                let district = (column / 40) + 4 * (row / 60)
                let shade = 0.04 * Double((column * 7 + row * 13) % 5)
                let hue = [(0.85, 0.55, 0.45), (0.55, 0.7, 0.85), (0.6, 0.8, 0.55), (0.9, 0.78, 0.5),
                           (0.75, 0.6, 0.85), (0.5, 0.78, 0.75), (0.88, 0.62, 0.7), (0.7, 0.72, 0.6)][district % 8]
                ctx.setFillColor(red: hue.0 - shade, green: hue.1 - shade, blue: hue.2 - shade, alpha: 1)
                ctx.fill(CGRect(x: Double(column) * block + street / 2, y: Double(row) * block + street / 2,
                                width: block - street, height: block - street))
            }
        }
        // The river: a wide band from the top left to the bottom right.
        ctx.setStrokeColor(red: 0.25, green: 0.5, blue: 0.85, alpha: 1)
        ctx.setLineWidth(260)
        ctx.move(to: CGPoint(x: -500, y: 1_000))
        ctx.addLine(to: CGPoint(x: 16_500, y: 11_000))
        ctx.strokePath()
    }
}
