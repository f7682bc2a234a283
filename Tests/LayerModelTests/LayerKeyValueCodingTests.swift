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
