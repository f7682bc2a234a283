// `import OpenQuartzCore` alone is enough for code written against QuartzCore: Foundation's
// geometry types, NSNumber and URL come with it (this file imports nothing else of ours).
import OpenQuartzCore
import Testing

@Test("import OpenQuartzCore alone brings CGRect, CGFloat, NSNumber, URL and the layer model")
func openQuartzCoreAloneIsEnough() throws {
    let layer = CALayer()
    layer.frame = CGRect(x: 0, y: 0, width: 40, height: CGFloat(30))
    let animation = CABasicAnimation(keyPath: "opacity")
    animation.fromValue = NSNumber(value: 0.25)
    let url = URL(fileURLWithPath: "/tmp")
    #expect(layer.bounds.size == CGSize(width: 40, height: 30) && url.path == "/tmp"
            && (animation.fromValue as? NSNumber)?.doubleValue == 0.25)
}
