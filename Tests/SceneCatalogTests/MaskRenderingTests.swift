// Masks in pixels, on both backends: a soft mask's alpha multiplies the layer, outside it nothing.
import Foundation
import OpenQuartzCore
import SceneCatalog
import Testing

@Suite("Mask rendering")
struct MaskRenderingTests {
    @Test("a half-transparent mask over the left half gives half-alpha red there and nothing elsewhere",
          arguments: [RenderBackend.cpu, .gpu])
    func softMask(backend: RenderBackend) throws {
        let layer = CALayer()
        layer.frame = CGRect(x: 0, y: 0, width: 20, height: 10)
        layer.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        let mask = CALayer()
        mask.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        mask.backgroundColor = CGColor(gray: 0, alpha: 0.5)
        layer.mask = mask
        let image = try CARenderer.image(of: layer, bounds: CGRect(x: 0, y: 0, width: 20, height: 10), backend: backend)
        let left = image.bitmap[4, 5], right = image.bitmap[15, 5]
        #expect(abs(Int(left.0) - 128) <= 1 && left.1 == 0 && left.2 == 0 && abs(Int(left.3) - 128) <= 1)
        #expect(right == (0, 0, 0, 0))
    }

    @Test("the mask of the masked-shadow scene removes the shadow; the container's shadow shows",
          arguments: [RenderBackend.cpu, .gpu])
    func shadowClipped(backend: RenderBackend) throws {
        let image = try #require(DemoScene.named("masked-shadow")).render(backend: backend)
        // 4 points right of each page: backdrop beside the masked page, darkened beside the container.
        let beside = image.bitmap[80 + 55 + 4, 75], besideContainer = image.bitmap[220 + 55 + 4, 75]
        #expect(beside == (140, 153, 166, 255) || abs(Int(beside.0) - 140) <= 1)
        #expect(Int(besideContainer.0) < Int(beside.0) - 30)
    }
}
