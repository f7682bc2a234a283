// contentsCenter, the contents filters, isGeometryFlipped and edge anti-aliasing as pixels, on
// both backends (the catalog's scenes hold the goldens and the GPU-CPU agreement).
import Foundation
import OpenQuartzCore
import Testing
import SceneCatalog

@Suite("Contents sampling and flipped geometry in rendered frames")
struct ContentsSamplingTests {
    private func render(_ root: CALayer, _ backend: RenderBackend) throws -> Bitmap {
        try CARenderer.image(of: root, backend: backend).bitmap
    }

    private func layer(_ frame: CGRect, image: CGImage) -> CALayer {
        let layer = CALayer()
        layer.frame = frame
        layer.contents = image
        return layer
    }

    @Test("contentsCenter keeps the corners and the frame width while the middle stretches", arguments: [RenderBackend.cpu, .gpu])
    func nineSlice(backend: RenderBackend) throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 60)
        root.backgroundColor = CGColor(gray: 1, alpha: 1)
        let button = layer(CGRect(x: 0, y: 0, width: 180, height: 50), image: ContentsSamplingScenes.buttonImage())
        button.contentsCenter = CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
        root.addSublayer(button)
        let image = try render(root, backend)
        // Corners: red top left, green top right, blue bottom left, orange bottom right.
        #expect(image[2, 2] == (200, 40, 40, 255), "\(backend)")
        #expect(image[177, 2] == (40, 150, 60, 255), "\(backend)")
        #expect(image[2, 47] == (40, 90, 200, 255), "\(backend)")
        #expect(image[177, 47] == (230, 140, 20, 255), "\(backend)")
        // The frame stays 6 points wide; stretched whole it would be 45 wide on the left.
        #expect(image[30, 25] == (235, 240, 250, 255), "\(backend)")
        #expect(image[150, 25] == (235, 240, 250, 255), "\(backend)")
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        button.contentsCenter = CGRect(x: 0, y: 0, width: 1, height: 1)
        CATransaction.commit()
        let whole = try render(root, backend)
        #expect(whole[30, 25] != (235, 240, 250, 255), "\(backend)")
    }

    @Test("corners shrink in proportion when the layer is smaller than two of them", arguments: [RenderBackend.cpu, .gpu])
    func nineSliceShrinks(backend: RenderBackend) throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 8, height: 8)
        let button = layer(root.bounds, image: ContentsSamplingScenes.buttonImage())
        button.contentsCenter = CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
        root.addSublayer(button)
        let image = try render(root, backend)
        // Each corner is 4x4 pixels of its own colour (12 image pixels of two corners in 8).
        #expect(image[1, 1] == (200, 40, 40, 255) && image[6, 1] == (40, 150, 60, 255), "\(backend)")
        #expect(image[1, 6] == (40, 90, 200, 255) && image[6, 6] == (230, 140, 20, 255), "\(backend)")
    }

    @Test("contentsCenter animates", arguments: [RenderBackend.cpu, .gpu])
    func nineSliceAnimates(backend: RenderBackend) throws {
        let button = layer(CGRect(x: 0, y: 0, width: 96, height: 24), image: ContentsSamplingScenes.buttonImage())
        let animation = CABasicAnimation(keyPath: "contentsCenter")
        animation.fromValue = NSValue(cgRect: CGRect(x: 0, y: 0, width: 1, height: 1))
        animation.toValue = NSValue(cgRect: CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5))
        animation.duration = 1
        animation.beginTime = 10
        button.contentsCenter = CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
        button.add(animation, forKey: "center")
        // At 0 the whole image stretches 4x (left frame 24 wide); at 0.5 the centre is
        // (0.125, 0.125, 0.75, 0.75): 3-point corners and the frame ending at x 18; then 6 points.
        let start = try CARenderer.image(of: button, backend: backend, atTime: 10).bitmap
        let midway = try CARenderer.image(of: button, backend: backend, atTime: 10.5).bitmap
        let end = try CARenderer.image(of: button, backend: backend, atTime: 12).bitmap
        #expect(start[16, 12] != (235, 240, 250, 255), "\(backend)")
        #expect(midway[10, 12] != (235, 240, 250, 255) && midway[22, 12] == (235, 240, 250, 255), "\(backend)")
        #expect(end[14, 12] == (235, 240, 250, 255), "\(backend)")
    }

    @Test("magnificationFilter nearest keeps hard texels; linear blends them", arguments: [RenderBackend.cpu, .gpu])
    func magnification(backend: RenderBackend) throws {
        let checker = CGImage(bitmap: Bitmap(width: 2, height: 1) { x, _ in x == 0 ? (0, 0, 0, 255) : (255, 255, 255, 255) })
        let magnified = layer(CGRect(x: 0, y: 0, width: 20, height: 4), image: checker)
        magnified.magnificationFilter = .nearest
        let hard = try render(magnified, backend)
        #expect(hard[9, 1] == (0, 0, 0, 255) && hard[10, 1] == (255, 255, 255, 255), "\(backend)")
        magnified.magnificationFilter = .linear
        let soft = try render(magnified, backend)
        #expect(soft[9, 1].0 > 90 && soft[9, 1].0 < 140, "\(backend): \(soft[9, 1])")
    }

    @Test("minificationFilter trilinear averages detail finer than a pixel; nearest does not", arguments: [RenderBackend.cpu, .gpu])
    func minification(backend: RenderBackend) throws {
        // Columns alternating black and white, drawn 5 times smaller: pixel centres fall on texel
        // centres (5x + 2), so nearest and an unfiltered base level show pure black or white.
        let stripes = CGImage(bitmap: Bitmap(width: 40, height: 8) { x, _ in x % 2 == 0 ? (0, 0, 0, 255) : (255, 255, 255, 255) })
        let small = layer(CGRect(x: 0, y: 0, width: 8, height: 1), image: stripes)
        small.minificationFilter = .nearest
        let nearest = try render(small, backend)
        #expect((0..<8).allSatisfy { nearest[$0, 0].0 == 0 || nearest[$0, 0].0 == 255 }, "\(backend)")
        small.minificationFilter = .trilinear
        let trilinear = try render(small, backend)
        #expect((0..<8).allSatisfy { abs(Int(trilinear[$0, 0].0) - 128) <= 2 }, "\(backend): \((0..<8).map { trilinear[$0, 0].0 })")
        // A bias of -3 picks the base level again: the stripes come back.
        small.minificationFilterBias = -3
        let biased = try render(small, backend)
        #expect((0..<8).contains { abs(Int(biased[$0, 0].0) - 128) > 60 }, "\(backend)")
    }

    @Test("a flipped superlayer places sublayers from its bottom and keeps images upright", arguments: [RenderBackend.cpu, .gpu])
    func flippedGeometry(backend: RenderBackend) throws {
        let panel = CALayer()
        panel.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        panel.backgroundColor = CGColor(gray: 1, alpha: 1)
        panel.isGeometryFlipped = true
        let bar = CALayer()
        bar.frame = CGRect(x: 0, y: 0, width: 100, height: 10)
        bar.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        panel.addSublayer(bar)
        // The test card: red quadrant at the image's top left, blue at its bottom left.
        let card = layer(CGRect(x: 0, y: 20, width: 64, height: 48), image: TestCard.image())
        panel.addSublayer(card)
        let image = try render(panel, backend)
        #expect(image[50, 95] == (255, 0, 0, 255) && image[50, 5] == (255, 255, 255, 255), "\(backend)")
        // The card spans y 32...80 on screen; its top (y 33) is red, its lower half blue.
        let top = image[5, 35], lower = image[5, 60]
        #expect(top.0 > top.2 && lower.2 > lower.0, "\(backend): \(top) \(lower)")
        // Flipped twice is not flipped.
        card.isGeometryFlipped = true
        #expect(!card.contentsAreFlipped() && bar.contentsAreFlipped())
    }

    @Test("drawn content follows a flipped geometry; text stays upright", arguments: [RenderBackend.cpu, .gpu])
    func flippedDrawing(backend: RenderBackend) throws {
        let panel = CALayer()
        panel.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
        panel.isGeometryFlipped = true
        let arrow = ContentsSamplingScenes.ArrowLayer()
        arrow.frame = panel.bounds
        arrow.setNeedsDisplay()
        panel.addSublayer(arrow)
        let image = try render(panel, backend)
        // The dot drawn near the layer's min-y corner shows at the bottom left.
        #expect(image[5, 35].3 == 255 && image[5, 5].3 == 0, "\(backend): \(image[5, 35]) \(image[5, 5])")
    }

    @Test("edges not anti-aliased are hard; the mask picks which", arguments: [RenderBackend.cpu, .gpu])
    func edgeAntialiasing(backend: RenderBackend) throws {
        func colours(allows: Bool, mask: CAEdgeAntialiasingMask) throws -> Set<[UInt8]> {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 60, height: 60)
            root.backgroundColor = CGColor(gray: 1, alpha: 1)
            let card = CALayer()
            card.frame = CGRect(x: 15, y: 15, width: 30, height: 30)
            card.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            card.allowsEdgeAntialiasing = allows
            card.edgeAntialiasingMask = mask
            card.setAffineTransform(CGAffineTransform(rotationAngle: 0.3))
            root.addSublayer(card)
            let image = try render(root, backend)
            var seen = Set<[UInt8]>()
            for y in 0..<60 { for x in 0..<60 { let p = image[x, y]; seen.insert([p.0, p.1, p.2, p.3]) } }
            return seen
        }
        #expect(try colours(allows: false, mask: [.layerLeftEdge, .layerRightEdge, .layerTopEdge, .layerBottomEdge]).count == 2, "\(backend)")
        #expect(try colours(allows: true, mask: []).count == 2, "\(backend)")
        #expect(try colours(allows: true, mask: [.layerLeftEdge]).count > 2, "\(backend)")
        #expect(try colours(allows: true, mask: [.layerLeftEdge, .layerRightEdge, .layerTopEdge, .layerBottomEdge]).count > 10, "\(backend)")
    }
}
