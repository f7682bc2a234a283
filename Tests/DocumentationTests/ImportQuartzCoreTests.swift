// `import QuartzCore` on Linux, as a file written for Apple's platforms has it, with Testing beside
// it: the layer model, CARenderer, Core Graphics and Foundation (this file imports nothing else).
import QuartzCore
import Testing

@Test("import QuartzCore alone brings the layer model, CARenderer, CGPath, NSNumber and URL")
func quartzCoreAloneIsEnough() throws {
    let layer = CAShapeLayer()
    layer.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
    layer.path = CGPath(ellipseIn: layer.bounds, transform: nil)
    layer.fillColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
    let fade = CABasicAnimation(keyPath: "opacity")
    fade.toValue = NSNumber(value: 0.5)
    layer.add(fade, forKey: "fade")
    let image = try CARenderer.image(of: layer, backend: .cpu)
    #expect(image.width == 20 && URL(fileURLWithPath: "/").path == "/")
}
