import QuartzCore
import Testing

// The checklist over Apple's documented QuartzCore interface (AppleInterface.txt): every member
// is used here with Apple's name and type, or is marked there as impossible on Linux (with the
// reason) or as an open issue's. A member added to the manifest without a use, or a use naming
// no member, fails the test; so does a documented default that differs.

@Suite("Apple's documented QuartzCore interface")
struct QuartzCoreSurfaceTests {
    @Test("every documented member is used with Apple's name and type, or marked with why it is missing")
    func everyMemberIsCovered() throws {
        let checklist = SurfaceChecklist()
        try checklist.layerMembers()
        checklist.layerConstants()
        checklist.delegateAndActions()
        checklist.layerSubclasses()
        checklist.emitters()
        checklist.timing()
        checklist.animations()
        checklist.functionsAndTransactions()
        checklist.transforms()
        checklist.displayLinkAndRenderer()

        let (used, impossible, owned) = try checklist.check(against: "AppleInterface.txt")
        print("QuartzCore surface: \(used) of \(used + impossible + owned) members used; \(impossible) cannot exist on Linux; \(owned) belong to open issues")
    }

    @Test("a subclass written for Apple overrides what Apple declares open")
    func overridesCompile() throws {
        let layer = EveryOverride()
        layer.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        _ = layer.presentation()
        layer.add(CABasicAnimation(keyPath: "opacity"), forKey: "fade")
        #expect(layer.calls.isSuperset(of: ["frame", "presentation", "add"]))
        let copy = EveryAnimationOverride().copy() as! EveryAnimationOverride
        #expect(copy.tag == "copied")
    }

    @Test("subclasses written the two usual ways compile unchanged; adopting LayerPresentationCopying presents the own class")
    func subclassInitializers() {
        let own = OwnInitializerOnly(color: CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        let copied = OverridesInitLayer()
        copied.tint = 3
        #expect(OverridesInitLayer(layer: copied).tint == 3, "its init(layer:) copies its own property")
        let tree = CALayer()
        tree.addSublayer(own)
        tree.addSublayer(copied)
        let presented = tree.presentationTree(atMediaTime: 0)
        #expect(type(of: presented.sublayers![0]) == CALayer.self, "a subclass is presented as its library class")
        #expect(presented.sublayers![1] is OverridesInitLayer && (presented.sublayers![1] as! OverridesInitLayer).tint == 3)
    }
}

/// Ported code's usual subclass with its own initializer and no init(layer:).
final class OwnInitializerOnly: CALayer {
    let color: CGColor
    init(color: CGColor) {
        self.color = color
        super.init()
        backgroundColor = color
    }
    required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }
}

/// Ported code's subclass that copies its own property in `override init(layer:)`, adopting
/// LayerPresentationCopying to be presented as itself.
class OverridesInitLayer: CALayer, LayerPresentationCopying {
    var tint = 0
    override init() { super.init() }
    required override init(layer: Any) {
        tint = (layer as? OverridesInitLayer)?.tint ?? 0
        super.init(layer: layer)
    }
    required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }
}

extension SurfaceChecklist {
    func functionsAndTransactions() {
        use("CAValueFunction.init(name:)") { #expect(CAValueFunction(name: CAValueFunctionName(rawValue: "bogus")) == nil) }
        use("CAValueFunction.name") { #expect(CAValueFunction(name: .rotateZ)?.name == .rotateZ) }
        let names: [(String, CAValueFunctionName)] = [
            ("rotateX", .rotateX), ("rotateY", .rotateY), ("rotateZ", .rotateZ), ("scale", .scale), ("scaleX", .scaleX),
            ("scaleY", .scaleY), ("scaleZ", .scaleZ), ("translate", .translate), ("translateX", .translateX),
            ("translateY", .translateY), ("translateZ", .translateZ),
        ]
        for (name, function) in names {
            use("CAValueFunctionName.\(name)") { #expect(CAValueFunction(name: function)?.name.rawValue == name) }
        }

        use("CATransaction.begin()") { CATransaction.begin() }
        use("CATransaction.animationDuration()") { #expect(CATransaction.animationDuration() == 0.25) }
        use("CATransaction.setAnimationDuration(_:)") {
            CATransaction.setAnimationDuration(1)
            #expect(CATransaction.animationDuration() == 1)
        }
        use("CATransaction.animationTimingFunction()") { #expect(CATransaction.animationTimingFunction() == nil) }
        use("CATransaction.setAnimationTimingFunction(_:)") { CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .easeOut)) }
        use("CATransaction.disableActions()") { #expect(!CATransaction.disableActions()) }
        use("CATransaction.setDisableActions(_:)") {
            CATransaction.setDisableActions(true)
            #expect(CATransaction.disableActions())
        }
        use("CATransaction.completionBlock()") { #expect(CATransaction.completionBlock() == nil) }
        nonisolated(unsafe) var completed = false
        use("CATransaction.setCompletionBlock(_:)") { CATransaction.setCompletionBlock { completed = true } }
        use("CATransaction.setValue(_:forKey:)") { CATransaction.setValue(NSNumber(value: 2), forKey: kCATransactionAnimationDuration) }
        use("CATransaction.value(forKey:)") { #expect((CATransaction.value(forKey: kCATransactionAnimationDuration) as? NSNumber)?.doubleValue == 2) }
        use("CATransaction.commit()") {
            CATransaction.commit()
            #expect(completed, "a transaction without animations completes at its commit")
        }
        use("CATransaction.flush()") { CATransaction.flush() }
        use("CATransaction.lock()") { CATransaction.lock() }
        use("CATransaction.unlock()") { CATransaction.unlock() }
        use("kCATransactionAnimationDuration") { #expect(kCATransactionAnimationDuration == "animationDuration") }
        use("kCATransactionDisableActions") { #expect(kCATransactionDisableActions == "disableActions") }
        use("kCATransactionAnimationTimingFunction") { #expect(kCATransactionAnimationTimingFunction == "animationTimingFunction") }
        use("kCATransactionCompletionBlock") { #expect(kCATransactionCompletionBlock == "completionBlock") }
    }

    func transforms() {
        use("CATransform3D.init()") { #expect(CATransform3DIsIdentity(CATransform3D())) }
        use("CATransform3D.m11-m44") {
            var t = CATransform3D()
            t.m34 = -1 / 500
            let all: [CGFloat] = [t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24,
                                  t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44]
            #expect(all == [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -1 / 500, 0, 0, 0, 1])
        }
        use("CATransform3DIdentity") { #expect(CATransform3DIdentity.m44 == 1) }
        use("CATransform3DIsIdentity(_:)") { #expect(!CATransform3DIsIdentity(CATransform3DMakeScale(2, 1, 1))) }
        use("CATransform3DEqualToTransform(_:_:)") { #expect(CATransform3DEqualToTransform(CATransform3DIdentity, CATransform3D())) }
        use("CATransform3DMakeTranslation(_:_:_:)") { #expect(CATransform3DMakeTranslation(1, 2, 3).m43 == 3) }
        use("CATransform3DMakeScale(_:_:_:)") { #expect(CATransform3DMakeScale(1, 2, 3).m22 == 2) }
        use("CATransform3DMakeRotation(_:_:_:_:)") { #expect(abs(CATransform3DMakeRotation(.pi / 2, 0, 0, 1).m12 - 1) < 1e-12) }
        use("CATransform3DTranslate(_:_:_:_:)") { #expect(CATransform3DTranslate(CATransform3DMakeScale(2, 2, 2), 1, 0, 0).m41 == 2) }
        use("CATransform3DScale(_:_:_:_:)") { #expect(CATransform3DScale(CATransform3DIdentity, 3, 1, 1).m11 == 3) }
        use("CATransform3DRotate(_:_:_:_:_:)") { _ = CATransform3DRotate(CATransform3DIdentity, .pi, 0, 1, 0) }
        use("CATransform3DConcat(_:_:)") {
            let t = CATransform3DConcat(CATransform3DMakeScale(2, 2, 1), CATransform3DMakeTranslation(5, 0, 0))
            #expect(t.m11 == 2 && t.m41 == 5, "a then b: scale first, then translate")
        }
        use("CATransform3DInvert(_:)") { #expect(CATransform3DInvert(CATransform3DMakeScale(2, 4, 1)).m22 == 0.25) }
        use("CATransform3DMakeAffineTransform(_:)") { #expect(CATransform3DMakeAffineTransform(CGAffineTransform(translationX: 3, y: 4)).m42 == 4) }
        use("CATransform3DIsAffine(_:)") { #expect(CATransform3DIsAffine(CATransform3DMakeScale(2, 2, 1))) }
        use("CATransform3DGetAffineTransform(_:)") { #expect(CATransform3DGetAffineTransform(CATransform3DMakeTranslation(3, 4, 0)).ty == 4) }
        use("NSValue.init(caTransform3D:)") { _ = NSValue(caTransform3D: CATransform3DMakeScale(2, 2, 2)) }
        use("NSValue.caTransform3DValue") {
            #expect(NSValue(caTransform3D: CATransform3DMakeScale(2, 2, 2)).caTransform3DValue == CATransform3DMakeScale(2, 2, 2))
        }
    }

    func displayLinkAndRenderer() {
        nonisolated(unsafe) var fired = 0
        let link = CADisplayLink { _ in fired += 1 }
        use("CADisplayLink.add(to:forMode:)") { link.add(to: .main, forMode: .default) }
        use("CADisplayLink.timestamp") { let t: CFTimeInterval = link.timestamp; #expect(t == 0) }
        use("CADisplayLink.targetTimestamp") { let t: CFTimeInterval = link.targetTimestamp; #expect(t == 0) }
        use("CADisplayLink.duration") { let t: CFTimeInterval = link.duration; #expect(t == 0) }
        use("CADisplayLink.isPaused") { #expect(!link.isPaused) }
        use("CADisplayLink.preferredFramesPerSecond") { #expect(link.preferredFramesPerSecond == 0) }
        use("CADisplayLink.preferredFrameRateRange") { #expect(link.preferredFrameRateRange == .default) }
        use("CADisplayLink.frameInterval") { #expect(deprecatedFrameInterval(of: link) == 1) }
        use("CADisplayLink.remove(from:forMode:)") { link.remove(from: .main, forMode: .default) }
        use("CADisplayLink.invalidate()") { link.invalidate() }

        let renderer = CARenderer()
        use("CARenderer.layer") { #expect(renderer.layer == nil) }
        use("CARenderer.bounds") { #expect(renderer.bounds == .zero) }
        use("CARenderer.beginFrame(atTime:timeStamp:)") { renderer.beginFrame(atTime: 0, timeStamp: nil) }
        use("CARenderer.updateBounds()") { #expect(renderer.updateBounds() == renderer.bounds) }
        use("CARenderer.addUpdate(_:)") { renderer.addUpdate(.zero) }
        use("CARenderer.render()") { renderer.render() }
        use("CARenderer.nextFrameTime()") { let _: CFTimeInterval = renderer.nextFrameTime() }
        use("CARenderer.endFrame()") { renderer.endFrame() }
    }
}

@available(*, deprecated, message: "reads Apple's deprecated frameInterval on purpose")
private func deprecatedFrameInterval(of link: CADisplayLink) -> Int { link.frameInterval }

/// A layer subclass overriding what Apple's CALayer declares open, as ported code does; it
/// compiles only where those members are overridable.
final class EveryOverride: CALayer {
    var calls: Set<String> = []

    override init() { super.init() }
    override init(layer: Any) { super.init(layer: layer) }
    required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }

    override class func defaultValue(forKey key: String) -> Any? { super.defaultValue(forKey: key) }
    override class func needsDisplay(forKey key: String) -> Bool { key == "progress" || super.needsDisplay(forKey: key) }
    override class func defaultAction(forKey event: String) -> CAAction? { super.defaultAction(forKey: event) }
    override class func cornerCurveExpansionFactor(_ curve: CALayerCornerCurve) -> CGFloat { super.cornerCurveExpansionFactor(curve) }
    override func shouldArchiveValue(forKey key: String) -> Bool { super.shouldArchiveValue(forKey: key) }
    override func presentation() -> Self? { calls.insert("presentation"); return super.presentation() }
    override func model() -> Self { super.model() }
    override var frame: CGRect { didSet { calls.insert("frame") } }
    override var bounds: CGRect { didSet {} }
    override var position: CGPoint { didSet {} }
    override var transform: CATransform3D { didSet {} }
    override var opacity: Float { didSet {} }
    override var contents: Any? { didSet {} }
    override var backgroundColor: CGColor? { didSet {} }
    override var sublayers: [CALayer]? { didSet {} }
    override var visibleRect: CGRect { super.visibleRect }
    override func affineTransform() -> CGAffineTransform { super.affineTransform() }
    override func setAffineTransform(_ m: CGAffineTransform) { super.setAffineTransform(m) }
    override func contentsAreFlipped() -> Bool { super.contentsAreFlipped() }
    override func addSublayer(_ layer: CALayer) { super.addSublayer(layer) }
    override func insertSublayer(_ layer: CALayer, at idx: UInt32) { super.insertSublayer(layer, at: idx) }
    override func removeFromSuperlayer() { super.removeFromSuperlayer() }
    override func convert(_ p: CGPoint, from l: CALayer?) -> CGPoint { super.convert(p, from: l) }
    override func convert(_ p: CGPoint, to l: CALayer?) -> CGPoint { super.convert(p, to: l) }
    override func convert(_ r: CGRect, from l: CALayer?) -> CGRect { super.convert(r, from: l) }
    override func convert(_ r: CGRect, to l: CALayer?) -> CGRect { super.convert(r, to: l) }
    override func convertTime(_ t: CFTimeInterval, from l: CALayer?) -> CFTimeInterval { super.convertTime(t, from: l) }
    override func convertTime(_ t: CFTimeInterval, to l: CALayer?) -> CFTimeInterval { super.convertTime(t, to: l) }
    override func ancestorShared(with layer: CALayer) -> CALayer? { super.ancestorShared(with: layer) }
    override func hitTest(_ p: CGPoint) -> CALayer? { super.hitTest(p) }
    override func contains(_ p: CGPoint) -> Bool { super.contains(p) }
    override func scroll(_ p: CGPoint) { super.scroll(p) }
    override func scrollRectToVisible(_ r: CGRect) { super.scrollRectToVisible(r) }
    override func display() { super.display() }
    override func setNeedsDisplay() { super.setNeedsDisplay() }
    override func setNeedsDisplay(_ r: CGRect) { super.setNeedsDisplay(r) }
    override func needsDisplay() -> Bool { super.needsDisplay() }
    override func displayIfNeeded() { super.displayIfNeeded() }
    override func draw(in ctx: CGContext) { super.draw(in: ctx) }
    override func preferredFrameSize() -> CGSize { super.preferredFrameSize() }
    override func setNeedsLayout() { super.setNeedsLayout() }
    override func needsLayout() -> Bool { super.needsLayout() }
    override func layoutIfNeeded() { super.layoutIfNeeded() }
    override func layoutSublayers() { super.layoutSublayers() }
    override func action(forKey event: String) -> CAAction? { super.action(forKey: event) }
    override func add(_ anim: CAAnimation, forKey key: String?) { calls.insert("add"); super.add(anim, forKey: key) }
    override func removeAllAnimations() { super.removeAllAnimations() }
    override func removeAnimation(forKey key: String) { super.removeAnimation(forKey: key) }
    override func animationKeys() -> [String]? { super.animationKeys() }
    override func animation(forKey key: String) -> CAAnimation? { super.animation(forKey: key) }
    override func value(forKey key: String) -> Any? { super.value(forKey: key) }
    override func setValue(_ value: Any?, forKey key: String) { super.setValue(value, forKey: key) }
    override func value(forKeyPath keyPath: String) -> Any? { super.value(forKeyPath: keyPath) }
    override func setValue(_ value: Any?, forKeyPath keyPath: String) { super.setValue(value, forKeyPath: keyPath) }
}

/// An animation subclass overriding NSCopying's copy as ported code does.
final class EveryAnimationOverride: CABasicAnimation {
    var tag = ""
    override func copy(with zone: NSZone? = nil) -> Any {
        let copy = super.copy(with: zone) as! EveryAnimationOverride
        copy.tag = "copied"
        return copy
    }
    override func value(forKey key: String) -> Any? { super.value(forKey: key) }
    override func setValue(_ value: Any?, forKey key: String) { super.setValue(value, forKey: key) }
    override class func defaultValue(forKey key: String) -> Any? { super.defaultValue(forKey: key) }
}
