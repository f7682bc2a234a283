// Key-value coding reaches every declared property of CALayer by Apple's key (Bool ones without
// "is"), by key and by key path, and writes the property itself, not a private store; numbers
// may come as NSNumber of any type; defaultValue(forKey:) answers with the declared defaults.
import Foundation
import LayerModel
import OpenCoreGraphics
import Testing

/// CALayer's declared properties as Apple's QuartzCore names them for key-value coding, with a
/// value to set that differs from the default and a check that the Swift property took it.
nonisolated(unsafe) private let declared: [(key: String, value: Any, took: (CALayer) -> Bool)] = [
    ("bounds", CGRect(x: 1, y: 2, width: 30, height: 40), { $0.bounds == CGRect(x: 1, y: 2, width: 30, height: 40) }),
    ("position", CGPoint(x: 5, y: 6), { $0.position == CGPoint(x: 5, y: 6) }),
    ("frame", NSValue(cgRect: CGRect(x: 0, y: 0, width: 8, height: 8)), { $0.frame == CGRect(x: 0, y: 0, width: 8, height: 8) }),
    ("zPosition", NSNumber(value: Int8(3)), { $0.zPosition == 3 }),
    ("anchorPoint", CGPoint(x: 0, y: 1), { $0.anchorPoint == CGPoint(x: 0, y: 1) }),
    ("anchorPointZ", 2.0, { $0.anchorPointZ == 2 }),
    ("transform", NSValue(caTransform3D: CATransform3DMakeScale(2, 2, 1)), { $0.transform == CATransform3DMakeScale(2, 2, 1) }),
    ("sublayerTransform", CATransform3DMakeTranslation(1, 0, 0), { $0.sublayerTransform == CATransform3DMakeTranslation(1, 0, 0) }),
    ("hidden", true, { $0.isHidden }),
    ("opacity", NSNumber(value: 0.5), { $0.opacity == 0.5 }),
    ("name", "card", { $0.name == "card" }),
    ("backgroundColor", CGColor(red: 1, green: 0, blue: 0, alpha: 1), { $0.backgroundColor?.alpha == 1 }),
    ("contentsRect", CGRect(x: 0, y: 0, width: 0.5, height: 1), { $0.contentsRect.width == 0.5 }),
    ("contentsGravity", "center", { $0.contentsGravity == .center }),
    ("contentsScale", 2, { $0.contentsScale == 2 }),
    ("contentsFormat", "RGBAh", { $0.contentsFormat == .RGBA16Float }),
    ("masksToBounds", NSNumber(value: true), { $0.masksToBounds }),
    ("doubleSided", false, { !$0.isDoubleSided }),
    ("cornerRadius", 4, { $0.cornerRadius == 4 }),
    ("maskedCorners", CACornerMask.layerMinXMinYCorner, { $0.maskedCorners == .layerMinXMinYCorner }),
    ("cornerCurve", "continuous", { $0.cornerCurve == .continuous }),
    ("borderWidth", 2, { $0.borderWidth == 2 }),
    ("borderColor", CGColor(red: 0, green: 1, blue: 0, alpha: 1), { $0.borderColor?.components?[1] == 1 }),
    ("shadowOpacity", Float(0.3), { $0.shadowOpacity == 0.3 }),
    ("shadowRadius", 9, { $0.shadowRadius == 9 }),
    ("shadowOffset", NSValue(cgSize: CGSize(width: 1, height: 2)), { $0.shadowOffset == CGSize(width: 1, height: 2) }),
    ("shadowColor", CGColor(red: 0, green: 0, blue: 1, alpha: 1), { $0.shadowColor?.components?[2] == 1 }),
    ("shadowPath", CGPath(rect: CGRect(x: 0, y: 0, width: 2, height: 2), transform: nil), { $0.shadowPath != nil }),
    ("allowsGroupOpacity", false, { !$0.allowsGroupOpacity }),
    ("shouldRasterize", true, { $0.shouldRasterize }),
    ("rasterizationScale", 2, { $0.rasterizationScale == 2 }),
    ("needsDisplayOnBoundsChange", true, { $0.needsDisplayOnBoundsChange }),
    ("opaque", true, { $0.isOpaque }),
    ("drawsAsynchronously", true, { $0.drawsAsynchronously }),
    ("beginTime", 1.5, { $0.beginTime == 1.5 }),
    ("duration", 2, { $0.duration == 2 }),
    ("speed", NSNumber(value: 0), { $0.speed == 0 }),
    ("timeOffset", 0.25, { $0.timeOffset == 0.25 }),
    ("repeatCount", 3, { $0.repeatCount == 3 }),
    ("repeatDuration", 4, { $0.repeatDuration == 4 }),
    ("autoreverses", true, { $0.autoreverses }),
    ("fillMode", "both", { $0.fillMode == .both }),
    ("sublayers", [CALayer()], { $0.sublayers?.count == 1 }),
    ("mask", CALayer(), { $0.mask != nil }),
    ("contents", CGImage(bitmap: Bitmap(width: 1, height: 1)), { $0.contents is CGImage }),
    ("actions", ["opacity": NSNull()] as [String: CAAction], { $0.actions?["opacity"] != nil }),
    ("style", ["opacity": 0.5] as [String: Any], { $0.style?["opacity"] != nil }),
]

@Suite("Layer key-value coding")
struct LayerKeyValueCodingTests {
    @Test("every declared property is set and read by its key, writing the property itself",
          arguments: declared.indices)
    func declaredProperty(index: Int) {
        let (key, value, took) = declared[index]
        let layer = CALayer()
        layer.setValue(value, forKeyPath: key)
        #expect(took(layer), "\(key): the property did not take the value")
        #expect(layer.value(forKey: key) != nil, "\(key) reads nil")
        let copy = CALayer()
        copy.setValue(layer.value(forKey: key), forKeyPath: key)
        #expect(took(copy), "\(key): the value read back is not the value set")
    }

    @Test("defaultValue(forKey:) answers with the declared defaults, nil for keys of one's own")
    func defaults() {
        #expect(CALayer.defaultValue(forKey: "opacity") as? CGFloat == 1)
        #expect(CALayer.defaultValue(forKey: "anchorPoint") as? CGPoint == CGPoint(x: 0.5, y: 0.5))
        #expect(CALayer.defaultValue(forKey: "shadowOffset") as? CGSize == CGSize(width: 0, height: -3))
        #expect(CALayer.defaultValue(forKey: "doubleSided") as? Bool == true)
        #expect(CALayer.defaultValue(forKey: "contentsGravity") as? CALayerContentsGravity == .resize)
        #expect(CALayer.defaultValue(forKey: "cornerRadius") as? CGFloat == 0)
        #expect(CALayer.defaultValue(forKey: "myOwnKey") == nil)
        #expect(CAShapeLayer.defaultValue(forKey: "lineWidth") as? CGFloat == 1)
        #expect(CAShapeLayer.defaultValue(forKey: "opacity") as? CGFloat == 1, "a subclass answers for CALayer's keys too")
    }

    @Test("the superlayer is read by key and cannot be set")
    func superlayerIsReadOnly() {
        let parent = CALayer(), child = CALayer()
        parent.addSublayer(child)
        #expect(child.value(forKey: "superlayer") as? CALayer === parent)
        child.setValue(CALayer(), forKeyPath: "superlayer")
        #expect(child.superlayer === parent)
    }
}

@Suite("Key-value coding of the layer subclasses' properties")
struct SubclassKeyValueCodingTests {
    @Test("names, numbers of any type and boxed values set subclass properties, and read back as Apple's keys hold them")
    func subclassPropertiesConvert() {
        let text = CATextLayer()
        text.setValue("center", forKey: "alignmentMode")
        #expect(text.alignmentMode == .center)
        text.truncationMode = .middle
        #expect(text.value(forKey: "truncationMode") as? String == "middle", "a string constant reads back as its name")
        text.setValue(NSNumber(value: 18), forKey: "fontSize")
        #expect(text.fontSize == 18)
        text.setValue(NSNumber(value: 1), forKey: "wrapped")
        #expect(text.isWrapped)

        let shape = CAShapeLayer()
        shape.setValue("round", forKey: "lineCap")
        shape.setValue("even-odd", forKey: "fillRule")
        shape.setValue(NSNumber(value: Float(0.25)), forKey: "strokeEnd")
        shape.setValue([4, 2], forKey: "lineDashPattern")
        #expect(shape.lineCap == .round && shape.fillRule == .evenOdd && shape.strokeEnd == 0.25)
        #expect(shape.lineDashPattern?.map(\.doubleValue) == [4, 2])

        let replicator = CAReplicatorLayer()
        replicator.setValue(NSValue(caTransform3D: CATransform3DMakeTranslation(10, 0, 0)), forKey: "instanceTransform")
        replicator.setValue(NSNumber(value: 3.0), forKey: "instanceCount")
        #expect(replicator.instanceTransform.m41 == 10 && replicator.instanceCount == 3)

        let gradient = CAGradientLayer()
        gradient.setValue(NSValue(cgPoint: CGPoint(x: 0, y: 0.5)), forKey: "startPoint")
        gradient.setValue("radial", forKey: "type")
        #expect(gradient.startPoint == CGPoint(x: 0, y: 0.5) && gradient.type == .radial)

        shape.setValue(CGPoint.zero, forKey: "lineWidth")
        #expect(shape.lineWidth == 1, "a value that does not convert reads as the default, not a stray value")
    }

    /// Every declared property of the library's layer subclasses: its key, a value as Apple's
    /// key-value coding hands it (names as strings, numbers as NSNumber, structs boxed), and
    /// whether a layer holds it.
    nonisolated(unsafe) static let subclassKeys: [(make: () -> CALayer, key: String, value: Any, took: (CALayer) -> Bool)] = {
        let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        let path = CGPath(rect: CGRect(x: 0, y: 0, width: 4, height: 4), transform: nil)
        func shape(_ l: CALayer) -> CAShapeLayer { l as! CAShapeLayer }
        func text(_ l: CALayer) -> CATextLayer { l as! CATextLayer }
        func gradient(_ l: CALayer) -> CAGradientLayer { l as! CAGradientLayer }
        func replicator(_ l: CALayer) -> CAReplicatorLayer { l as! CAReplicatorLayer }
        let s = { CAShapeLayer() as CALayer }, t = { CATextLayer() as CALayer }
        let g = { CAGradientLayer() as CALayer }, r = { CAReplicatorLayer() as CALayer }
        return [
            (s, "path", path, { shape($0).path == path }),
            (s, "fillColor", red, { shape($0).fillColor == red }),
            (s, "fillRule", "even-odd", { shape($0).fillRule == .evenOdd }),
            (s, "strokeColor", red, { shape($0).strokeColor == red }),
            (s, "strokeStart", NSNumber(value: 0.25), { shape($0).strokeStart == 0.25 }),
            (s, "strokeEnd", NSNumber(value: Float(0.5)), { shape($0).strokeEnd == 0.5 }),
            (s, "lineWidth", NSNumber(value: 3), { shape($0).lineWidth == 3 }),
            (s, "miterLimit", NSNumber(value: 4), { shape($0).miterLimit == 4 }),
            (s, "lineCap", "round", { shape($0).lineCap == .round }),
            (s, "lineJoin", "bevel", { shape($0).lineJoin == .bevel }),
            (s, "lineDashPhase", NSNumber(value: 2), { shape($0).lineDashPhase == 2 }),
            (s, "lineDashPattern", [NSNumber(value: 3), NSNumber(value: 1)], { shape($0).lineDashPattern?.map(\.doubleValue) == [3, 1] }),
            (t, "string", "hello", { text($0).string as? String == "hello" }),
            (t, "font", "Helvetica-Bold", { text($0).font as? String == "Helvetica-Bold" }),
            (t, "fontSize", NSNumber(value: 12), { text($0).fontSize == 12 }),
            (t, "foregroundColor", red, { text($0).foregroundColor == red }),
            (t, "wrapped", NSNumber(value: true), { text($0).isWrapped }),
            (t, "alignmentMode", "right", { text($0).alignmentMode == .right }),
            (t, "truncationMode", "end", { text($0).truncationMode == .end }),
            (t, "allowsFontSubpixelQuantization", NSNumber(value: 1), { text($0).allowsFontSubpixelQuantization }),
            (g, "colors", [red, red], { gradient($0).colors?.count == 2 }),
            (g, "locations", [NSNumber(value: 0), NSNumber(value: 1)], { gradient($0).locations?.map(\.doubleValue) == [0, 1] }),
            (g, "startPoint", NSValue(cgPoint: CGPoint(x: 0, y: 0.5)), { gradient($0).startPoint == CGPoint(x: 0, y: 0.5) }),
            (g, "endPoint", NSValue(cgPoint: CGPoint(x: 1, y: 0.5)), { gradient($0).endPoint == CGPoint(x: 1, y: 0.5) }),
            (g, "type", "conic", { gradient($0).type == .conic }),
            (r, "instanceCount", NSNumber(value: 4), { replicator($0).instanceCount == 4 }),
            (r, "preservesDepth", NSNumber(value: true), { replicator($0).preservesDepth }),
            (r, "instanceDelay", NSNumber(value: 0.5), { replicator($0).instanceDelay == 0.5 }),
            (r, "instanceTransform", NSValue(caTransform3D: CATransform3DMakeScale(2, 2, 1)), { replicator($0).instanceTransform == CATransform3DMakeScale(2, 2, 1) }),
            (r, "instanceColor", red, { replicator($0).instanceColor == red }),
            (r, "instanceRedOffset", NSNumber(value: -0.1), { replicator($0).instanceRedOffset == -0.1 }),
            (r, "instanceGreenOffset", NSNumber(value: -0.2), { replicator($0).instanceGreenOffset == -0.2 }),
            (r, "instanceBlueOffset", NSNumber(value: -0.3), { replicator($0).instanceBlueOffset == -0.3 }),
            (r, "instanceAlphaOffset", NSNumber(value: -0.4), { replicator($0).instanceAlphaOffset == -0.4 }),
            ({ CAScrollLayer() }, "scrollMode", "vertically", { ($0 as! CAScrollLayer).scrollMode == .vertically }),
        ]
    }()

    @Test("every declared property of the layer subclasses round-trips by key, and defaultValue(forKey:) is the property's default",
          arguments: subclassKeys.indices)
    func subclassKeyRoundTrips(index: Int) {
        let (make, key, value, took) = Self.subclassKeys[index]
        let layer = make()
        let fresh = make()
        let defaultRead = fresh.value(forKey: key)
        layer.setValue(value, forKey: key)
        #expect(took(layer), "\(key): the property did not take the value")
        let copy = make()
        copy.setValue(layer.value(forKey: key), forKey: key)
        #expect(took(copy), "\(key): the value read back is not the value set")
        let declared = type(of: fresh).defaultValue(forKey: key)
        #expect(String(describing: declared) == String(describing: defaultRead), "\(key): defaultValue(forKey:) is not what a new layer reads")
        #expect(!took(fresh), "\(key): the test's value is the default, so it proves nothing")
    }

    @Test("the new CALayer keys round-trip by key-value coding")
    func newLayerKeys() {
        let layer = CALayer()
        layer.setValue("multiplyBlendMode", forKey: "compositingFilter")
        layer.setValue(NSNumber(value: true), forKey: "wantsExtendedDynamicRangeContent")
        layer.setValue("never", forKey: "toneMapMode")
        layer.setValue(NSNumber(value: 2), forKey: "contentsHeadroom")
        layer.setValue("high", forKey: "preferredDynamicRange")
        #expect(layer.compositingFilter as? String == "multiplyBlendMode")
        #expect(layer.wantsExtendedDynamicRangeContent && layer.toneMapMode == .never)
        #expect(layer.contentsHeadroom == 2 && layer.preferredDynamicRange == .high)
        let copy = CALayer(layer: layer)
        #expect(copy.toneMapMode == .never && copy.compositingFilter as? String == "multiplyBlendMode", "presentation copies keep them")
    }

    @Test("value functions take a vector for translate and scale")
    func vectorValueFunctions() {
        let layer = CALayer()
        let move = CABasicAnimation(keyPath: "transform")
        move.valueFunction = CAValueFunction(name: .translate)
        move.fromValue = [0, 0, 0]
        move.toValue = [NSNumber(value: 10), 20, 0]
        move.duration = 1
        move.beginTime = 1
        layer.add(move, forKey: "move")
        let t = layer.presentationTree(atMediaTime: 1.5).transform
        #expect(abs(t.m41 - 5) < 1e-9 && abs(t.m42 - 10) < 1e-9)
    }
}
