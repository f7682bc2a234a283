// Generated from the ```swift blocks of the README and docs/ by DocumentationExampleTests,
// which fails when this file and the pages differ (DOC_EXAMPLES_RECORD=1 swift test --filter
// DocumentationExample rewrites it): each page's examples as one function, so building the
// tests compiles every example as it is written. Not run: they write files of their own.

#if canImport(QuartzCore)
import QuartzCore
#else
import OpenQuartzCore
#endif

import LottieImport

func readmeExamples() throws {
    // example 1

    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 240, height: 180)
    var perspective = CATransform3DIdentity
    perspective.m34 = -1.0 / 500
    root.sublayerTransform = perspective

    let card = CALayer()
    card.frame = CGRect(x: 50, y: 30, width: 140, height: 105)
    card.contents = try CGImage.load(contentsOf: URL(fileURLWithPath: "card.png"))
    card.transform = CATransform3DMakeRotation(.pi / 4, 1, 0, 0)
    root.addSublayer(card)

    let image = try CARenderer.image(of: root, scale: 2, backend: .gpu)   // or .cpu
    try image.writePNG(to: URL(fileURLWithPath: "card-tilted.png"))
    // example 2
    let spin = CABasicAnimation(keyPath: "transform.rotation.z")
    spin.fromValue = 0.0
    spin.toValue = Double.pi * 2
    spin.duration = 2
    card.add(spin, forKey: "spin")

    let renderer = CARenderer(backend: .cpu)
    renderer.layer = root
    renderer.bounds = root.bounds
    try renderer.renderFrames(from: 0, to: 2, fps: 30) { index, time, frame in
        try frame.writePNG(to: URL(fileURLWithPath: "frame-\(index).png"))
    }
}

func docsApiExamples() throws {
    // example 1
    let page = CALayer()
    page.frame = CGRect(x: 0, y: 0, width: 160, height: 240)
    page.backgroundColor = .white
    let corners = CAShapeLayer()
    corners.frame = page.bounds
    let path = CGMutablePath()
    path.addRoundedRect(in: page.bounds, topLeft: 25, topRight: 0, bottomRight: 0, bottomLeft: 25)
    corners.path = path
    page.mask = corners          // the mask clips the page's own shadow too, as in Core Animation

    let holder = CALayer()       // so the shadow goes on a container, as the tutorial finds out
    holder.frame = page.frame
    holder.shadowPath = path
    holder.shadowRadius = 100    // large radii blur a halved copy: the cost stays nearly flat
    holder.shadowOpacity = 0.9
    holder.addSublayer(page)
    // example 2
    let sparks = CAEmitterLayer()
    sparks.emitterPosition = CGPoint(x: 200, y: 270)
    sparks.emitterShape = .line
    sparks.emitterSize = CGSize(width: 60, height: 0)
    sparks.renderMode = .additive
    let spark = CAEmitterCell()
    spark.name = "spark"
    spark.contents = try CGImage.load(contentsOf: URL(fileURLWithPath: "spark.png"))  // without one, nothing draws
    spark.birthRate = 90                      // a second
    spark.lifetime = 2.2
    spark.velocity = 150
    spark.emissionLongitude = -.pi / 2        // up
    spark.emissionRange = 0.7
    spark.yAcceleration = 120                 // falling back
    spark.alphaSpeed = -0.35
    sparks.emitterCells = [spark]
    // example 3
    final class MapLayer: CATiledLayer {
        override func draw(in ctx: CGContext) {
            // One tile: draw what meets the clip's bounding box; the transform carries its resolution.
            let tile = ctx.boundingBoxOfClipPath
            ctx.setFillColor(red: 0.9, green: 0.6, blue: 0.4, alpha: 1)
            ctx.fill(tile.insetBy(dx: 8, dy: 8))
        }
    }
    let map = MapLayer()
    map.bounds = CGRect(x: 0, y: 0, width: 20_000, height: 20_000)
    map.levelsOfDetail = 8        // full resolution and seven halvings below it
    map.levelsOfDetailBias = 2    // and 2x and 4x above it, for zooming in
    map.setNeedsDisplay()
}

func docsLottieExamples() throws {
    // example 1

    let url = URL(fileURLWithPath: "anim.json")
    let document = try LottieDocument(contentsOf: url)     // errors name the JSON path at fault
    let layer = try document.makeLayer()                     // bounds w x h, animations attached
    layer.speed = 0                                          // paused as lottie-ios pauses it
    layer.timeOffset = document.frame(atProgress: 0.5) / document.frameRate

    // Or shown in a viewport, fitted as lottie-ios's .scaleAspectFit, and sought by frame,
    // progress or time (what `quartz render anim.json --size 400x300` does):
    let player = try LottiePlayer(document: document, viewport: CGSize(width: 400, height: 300))
    player.seek(toProgress: 0.5)
    let tree = player.presentation()                         // a tree to render
}
