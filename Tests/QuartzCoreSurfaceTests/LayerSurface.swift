import QuartzCore
import Testing

// CALayer's documented members, each used with Apple's name and type, with the default Apple
// documents checked where it documents one.

extension SurfaceChecklist {
    func layerMembers() throws {
        let layer = CALayer()
        use("CALayer.init()") { #expect(layer.sublayers == nil) }
        use("CALayer.init(layer:)") {
            layer.opacity = 0.5
            #expect(CALayer(layer: layer).opacity == 0.5)
            layer.opacity = 1
        }
        use("CALayer.init(coder:)") {
            // Declared (required, as Apple's) so subclasses' init?(coder:) compile; there is
            // never an archived layer to decode here.
            #expect(CALayer(coder: NSCoder()) == nil)
        }
        use("CALayer.presentation()") { let _: CALayer? = layer.presentation() }
        use("CALayer.model()") { #expect(layer.model() === layer) }
        use("CALayer.defaultValue(forKey:)") {
            #expect(CALayer.defaultValue(forKey: "anchorPoint") as? CGPoint == CGPoint(x: 0.5, y: 0.5))
            #expect((CALayer.defaultValue(forKey: "opacity") as? NSNumber)?.floatValue == 1
                    || CALayer.defaultValue(forKey: "opacity") as? CGFloat == 1)
        }
        use("CALayer.needsDisplay(forKey:)") { #expect(!CALayer.needsDisplay(forKey: "opacity")) }
        use("CALayer.shouldArchiveValue(forKey:)") { #expect(layer.shouldArchiveValue(forKey: "opacity")) }
        use("CALayer.value(forKey:)") { #expect(layer.value(forKey: "name") == nil) }
        use("CALayer.setValue(_:forKey:)") {
            layer.setValue("tagged", forKey: "name")
            #expect(layer.name == "tagged")
        }
        use("CALayer.value(forKeyPath:)") { #expect(layer.value(forKeyPath: "bounds.size.width") as? CGFloat == 0) }
        use("CALayer.setValue(_:forKeyPath:)") {
            layer.setValue(NSNumber(value: 40), forKeyPath: "bounds.size.width")
            #expect(layer.bounds.width == 40)
            layer.bounds = .zero
        }

        // Geometry
        use("CALayer.bounds") { #expect(layer.bounds == .zero) }
        use("CALayer.position") { #expect(layer.position == .zero) }
        use("CALayer.zPosition") { let z: CGFloat = layer.zPosition; #expect(z == 0) }
        use("CALayer.anchorPoint") { #expect(layer.anchorPoint == CGPoint(x: 0.5, y: 0.5)) }
        use("CALayer.anchorPointZ") { let z: CGFloat = layer.anchorPointZ; #expect(z == 0) }
        use("CALayer.transform") { #expect(CATransform3DIsIdentity(layer.transform)) }
        use("CALayer.affineTransform()") { #expect(layer.affineTransform() == .identity) }
        use("CALayer.setAffineTransform(_:)") {
            layer.setAffineTransform(CGAffineTransform(scaleX: 2, y: 2))
            #expect(layer.transform.m11 == 2)
            layer.transform = CATransform3DIdentity
        }
        use("CALayer.frame") {
            layer.frame = CGRect(x: 10, y: 20, width: 30, height: 40)
            #expect(layer.position == CGPoint(x: 25, y: 40) && layer.bounds.size == CGSize(width: 30, height: 40))
        }
        use("CALayer.isHidden") { #expect(!layer.isHidden) }
        use("CALayer.isDoubleSided") { #expect(layer.isDoubleSided) }
        use("CALayer.isGeometryFlipped") { #expect(!layer.isGeometryFlipped) }
        use("CALayer.contentsAreFlipped()") { #expect(!layer.contentsAreFlipped()) }
        use("CALayer.sublayerTransform") { #expect(CATransform3DIsIdentity(layer.sublayerTransform)) }
        let child = CALayer()
        child.frame = CGRect(x: 5, y: 5, width: 10, height: 10)
        layer.addSublayer(child)
        use("CALayer.convert(_:from:)#point") { #expect(child.convert(CGPoint(x: 5, y: 5), from: layer) == .zero) }
        use("CALayer.convert(_:to:)#point") { #expect(child.convert(CGPoint.zero, to: layer) == CGPoint(x: 5, y: 5)) }
        use("CALayer.convert(_:from:)#rect") {
            #expect(child.convert(CGRect(x: 5, y: 5, width: 1, height: 1), from: layer) == CGRect(x: 0, y: 0, width: 1, height: 1))
        }
        use("CALayer.convert(_:to:)#rect") {
            #expect(child.convert(CGRect(x: 0, y: 0, width: 1, height: 1), to: layer) == CGRect(x: 5, y: 5, width: 1, height: 1))
        }
        use("CALayer.convertTime(_:from:)") {
            child.speed = 2
            #expect(child.convertTime(3, from: layer) == 6)
        }
        use("CALayer.convertTime(_:to:)") {
            #expect(child.convertTime(6, to: layer) == 3)
            child.speed = 1
        }
        use("CALayer.cornerCurveExpansionFactor(_:)") {
            #expect(CALayer.cornerCurveExpansionFactor(.circular) == 1)
            #expect(CALayer.cornerCurveExpansionFactor(.continuous) > 1)
        }
        use("CALayer.ancestorShared(with:)") { #expect(child.ancestorShared(with: layer) === layer) }

        // The tree
        use("CALayer.superlayer") { #expect(child.superlayer === layer) }
        use("CALayer.sublayers") { #expect(layer.sublayers?.count == 1) }
        use("CALayer.addSublayer(_:)") { layer.addSublayer(CALayer()) }
        use("CALayer.insertSublayer(_:at:)") { layer.insertSublayer(CALayer(), at: UInt32(0)) }
        use("CALayer.insertSublayer(_:below:)") { layer.insertSublayer(CALayer(), below: child) }
        use("CALayer.insertSublayer(_:above:)") { layer.insertSublayer(CALayer(), above: child) }
        use("CALayer.replaceSublayer(_:with:)") {
            let old = layer.sublayers![0]
            layer.replaceSublayer(old, with: CALayer())
            #expect(old.superlayer == nil)
        }
        use("CALayer.removeFromSuperlayer()") {
            let extra = layer.sublayers!.last!
            extra.removeFromSuperlayer()
            #expect(extra.superlayer == nil)
        }
        use("CALayer.mask") { #expect(layer.mask == nil) }
        use("CALayer.masksToBounds") { #expect(!layer.masksToBounds) }

        // Hit testing and scrolling
        use("CALayer.hitTest(_:)") { #expect(layer.hitTest(CGPoint(x: 25, y: 40)) != nil) }
        use("CALayer.contains(_:)") { #expect(child.contains(CGPoint(x: 1, y: 1))) }
        use("CALayer.visibleRect") { #expect(child.visibleRect == child.bounds) }
        let scroller = CAScrollLayer()
        scroller.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        let page = CALayer()
        page.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        scroller.addSublayer(page)
        use("CALayer.scroll(_:)") {
            page.scroll(CGPoint(x: 20, y: 30))
            #expect(scroller.bounds.origin == CGPoint(x: 20, y: 30))
        }
        use("CALayer.scrollRectToVisible(_:)") {
            page.scrollRectToVisible(CGRect(x: 90, y: 90, width: 5, height: 5))
            #expect(scroller.bounds.contains(CGPoint(x: 92, y: 92)))
        }

        // Content
        use("CALayer.contents") { #expect(layer.contents == nil) }
        use("CALayer.contentsRect") { #expect(layer.contentsRect == CGRect(x: 0, y: 0, width: 1, height: 1)) }
        use("CALayer.contentsCenter") { #expect(layer.contentsCenter == CGRect(x: 0, y: 0, width: 1, height: 1)) }
        use("CALayer.contentsGravity") { #expect(layer.contentsGravity == .resize) }
        use("CALayer.contentsScale") { let s: CGFloat = layer.contentsScale; #expect(s == 1) }
        use("CALayer.contentsFormat") { #expect(layer.contentsFormat == .RGBA8Uint) }
        use("CALayer.minificationFilter") { #expect(layer.minificationFilter == .linear) }
        use("CALayer.magnificationFilter") { #expect(layer.magnificationFilter == .linear) }
        use("CALayer.minificationFilterBias") { let b: Float = layer.minificationFilterBias; #expect(b == 0) }
        use("CALayer.isOpaque") { #expect(!layer.isOpaque) }
        use("CALayer.wantsExtendedDynamicRangeContent") { #expect(!layer.wantsExtendedDynamicRangeContent) }
        use("CALayer.toneMapMode") { #expect(layer.toneMapMode == .automatic) }
        use("CALayer.contentsHeadroom") { let h: CGFloat = layer.contentsHeadroom; #expect(h == 0) }
        use("CALayer.preferredDynamicRange") { #expect(layer.preferredDynamicRange == .automatic) }
        let drawn = CALayer()
        drawn.bounds = CGRect(x: 0, y: 0, width: 4, height: 4)
        use("CALayer.setNeedsDisplay()") { drawn.setNeedsDisplay() }
        use("CALayer.needsDisplay()") { #expect(drawn.needsDisplay()) }
        use("CALayer.display()") {
            drawn.display()
            #expect(!drawn.needsDisplay() && drawn.contents != nil)
        }
        use("CALayer.setNeedsDisplay(_:)") { drawn.setNeedsDisplay(CGRect(x: 0, y: 0, width: 1, height: 1)) }
        use("CALayer.displayIfNeeded()") {
            drawn.displayIfNeeded()
            #expect(!drawn.needsDisplay())
        }
        use("CALayer.needsDisplayOnBoundsChange") { #expect(!layer.needsDisplayOnBoundsChange) }
        use("CALayer.drawsAsynchronously") { #expect(!layer.drawsAsynchronously) }
        use("CALayer.draw(in:)") {
            let context = CGContext(width: 4, height: 4)!
            drawn.draw(in: context)
        }
        use("CALayer.render(in:)") {
            let context = CGContext(width: 4, height: 4)!
            drawn.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            drawn.render(in: context)
        }

        // Appearance
        use("CALayer.edgeAntialiasingMask") {
            #expect(layer.edgeAntialiasingMask == [.layerLeftEdge, .layerRightEdge, .layerBottomEdge, .layerTopEdge])
        }
        use("CALayer.allowsEdgeAntialiasing") { let _: Bool = layer.allowsEdgeAntialiasing }
        use("CALayer.backgroundColor") { #expect(layer.backgroundColor == nil) }
        use("CALayer.cornerRadius") { let r: CGFloat = layer.cornerRadius; #expect(r == 0) }
        use("CALayer.maskedCorners") {
            #expect(layer.maskedCorners == [.layerMinXMinYCorner, .layerMaxXMinYCorner, .layerMinXMaxYCorner, .layerMaxXMaxYCorner])
        }
        use("CALayer.cornerCurve") { #expect(layer.cornerCurve == .circular) }
        use("CALayer.borderWidth") { let w: CGFloat = layer.borderWidth; #expect(w == 0) }
        use("CALayer.borderColor") { #expect(isOpaqueGray(layer.borderColor, 0)) }
        use("CALayer.opacity") { let o: Float = layer.opacity; #expect(o == 1) }
        use("CALayer.allowsGroupOpacity") { #expect(layer.allowsGroupOpacity) }
        use("CALayer.compositingFilter") { #expect(layer.compositingFilter == nil) }
        use("CALayer.filters") { let f: [Any]? = layer.filters; #expect(f == nil) }
        use("CALayer.backgroundFilters") { let f: [Any]? = layer.backgroundFilters; #expect(f == nil) }
        use("CALayer.shouldRasterize") { #expect(!layer.shouldRasterize) }
        use("CALayer.rasterizationScale") { let s: CGFloat = layer.rasterizationScale; #expect(s == 1) }
        use("CALayer.shadowColor") { #expect(isOpaqueGray(layer.shadowColor, 0)) }
        use("CALayer.shadowOpacity") { let o: Float = layer.shadowOpacity; #expect(o == 0) }
        use("CALayer.shadowOffset") { #expect(layer.shadowOffset == CGSize(width: 0, height: -3)) }
        use("CALayer.shadowRadius") { let r: CGFloat = layer.shadowRadius; #expect(r == 3) }
        use("CALayer.shadowPath") { #expect(layer.shadowPath == nil) }

        // Layout
        use("CALayer.preferredFrameSize()") { #expect(child.preferredFrameSize() == CGSize(width: 10, height: 10)) }
        use("CALayer.setNeedsLayout()") { child.setNeedsLayout() }
        use("CALayer.needsLayout()") { #expect(child.needsLayout()) }
        use("CALayer.layoutIfNeeded()") {
            child.layoutIfNeeded()
            #expect(!child.needsLayout())
        }
        use("CALayer.layoutSublayers()") { child.layoutSublayers() }

        // Actions and animations
        use("CALayer.defaultAction(forKey:)") { #expect(CALayer.defaultAction(forKey: "opacity") == nil) }
        use("CALayer.action(forKey:)") { let _: CAAction? = layer.action(forKey: "opacity") }
        use("CALayer.actions") { #expect(layer.actions == nil) }
        let fade = CABasicAnimation(keyPath: "opacity")
        use("CALayer.add(_:forKey:)") { layer.add(fade, forKey: "fade") }
        use("CALayer.animation(forKey:)") { #expect(layer.animation(forKey: "fade") is CABasicAnimation) }
        use("CALayer.animationKeys()") { #expect(layer.animationKeys() == ["fade"]) }
        use("CALayer.removeAnimation(forKey:)") {
            layer.removeAnimation(forKey: "fade")
            #expect(layer.animationKeys() == nil)
        }
        use("CALayer.removeAllAnimations()") {
            layer.add(fade, forKey: "again")
            layer.removeAllAnimations()
            #expect(layer.animationKeys() == nil)
        }

        // Identity, delegate, style, timing
        use("CALayer.name") { #expect(CALayer().name == nil) }
        use("CALayer.delegate") { #expect(layer.delegate == nil) }
        use("CALayer.style") { #expect(layer.style == nil) }
        use("CALayer.beginTime") { let t: CFTimeInterval = layer.beginTime; #expect(t == 0) }
        use("CALayer.duration") { let t: CFTimeInterval = layer.duration; #expect(t == 0) }
        use("CALayer.speed") { let s: Float = layer.speed; #expect(s == 1) }
        use("CALayer.timeOffset") { let t: CFTimeInterval = layer.timeOffset; #expect(t == 0) }
        use("CALayer.repeatCount") { let c: Float = layer.repeatCount; #expect(c == 0) }
        use("CALayer.repeatDuration") { let t: CFTimeInterval = layer.repeatDuration; #expect(t == 0) }
        use("CALayer.autoreverses") { #expect(!layer.autoreverses) }
        use("CALayer.fillMode") { #expect(layer.fillMode == .removed) }
    }

    func layerConstants() {
        let gravities: [(String, CALayerContentsGravity)] = [
            ("center", .center), ("top", .top), ("bottom", .bottom), ("left", .left), ("right", .right),
            ("topLeft", .topLeft), ("topRight", .topRight), ("bottomLeft", .bottomLeft), ("bottomRight", .bottomRight),
            ("resize", .resize), ("resizeAspect", .resizeAspect), ("resizeAspectFill", .resizeAspectFill),
        ]
        for (name, gravity) in gravities {
            use("CALayerContentsGravity.\(name)") { #expect(gravity.rawValue == name) }
        }
        use("CALayerContentsFormat.RGBA8Uint") { #expect(CALayerContentsFormat.RGBA8Uint.rawValue == "RGBA8") }
        use("CALayerContentsFormat.RGBA16Float") { #expect(CALayerContentsFormat.RGBA16Float.rawValue == "RGBAh") }
        use("CALayerContentsFormat.gray8Uint") { #expect(CALayerContentsFormat.gray8Uint.rawValue == "Gray8") }
        use("CALayerContentsFilter.linear") { #expect(CALayerContentsFilter.linear.rawValue == "linear") }
        use("CALayerContentsFilter.nearest") { #expect(CALayerContentsFilter.nearest.rawValue == "nearest") }
        use("CALayerContentsFilter.trilinear") { #expect(CALayerContentsFilter.trilinear.rawValue == "trilinear") }
        use("CALayerCornerCurve.circular") { #expect(CALayerCornerCurve.circular.rawValue == "circular") }
        use("CALayerCornerCurve.continuous") { #expect(CALayerCornerCurve.continuous.rawValue == "continuous") }
        use("CALayer.ToneMapMode.automatic") { let _: CALayer.ToneMapMode = .automatic }
        use("CALayer.ToneMapMode.never") { let _: CALayer.ToneMapMode = .never }
        use("CALayer.ToneMapMode.ifSupported") { let _: CALayer.ToneMapMode = .ifSupported }
        use("CALayer.DynamicRange.automatic") { let _: CALayer.DynamicRange = .automatic }
        use("CALayer.DynamicRange.standard") { let _: CALayer.DynamicRange = .standard }
        use("CALayer.DynamicRange.constrainedHigh") { let _: CALayer.DynamicRange = .constrainedHigh }
        use("CALayer.DynamicRange.high") { let _: CALayer.DynamicRange = .high }
        // Bit values as Apple's headers give them.
        use("CACornerMask.layerMinXMinYCorner") { #expect(CACornerMask.layerMinXMinYCorner.rawValue == 1) }
        use("CACornerMask.layerMaxXMinYCorner") { #expect(CACornerMask.layerMaxXMinYCorner.rawValue == 2) }
        use("CACornerMask.layerMinXMaxYCorner") { #expect(CACornerMask.layerMinXMaxYCorner.rawValue == 4) }
        use("CACornerMask.layerMaxXMaxYCorner") { #expect(CACornerMask.layerMaxXMaxYCorner.rawValue == 8) }
        use("CAEdgeAntialiasingMask.layerLeftEdge") { #expect(CAEdgeAntialiasingMask.layerLeftEdge.rawValue == 1) }
        use("CAEdgeAntialiasingMask.layerRightEdge") { #expect(CAEdgeAntialiasingMask.layerRightEdge.rawValue == 2) }
        use("CAEdgeAntialiasingMask.layerBottomEdge") { #expect(CAEdgeAntialiasingMask.layerBottomEdge.rawValue == 4) }
        use("CAEdgeAntialiasingMask.layerTopEdge") { #expect(CAEdgeAntialiasingMask.layerTopEdge.rawValue == 8) }
        use("kCAOnOrderIn") { #expect(kCAOnOrderIn == "onOrderIn") }
        use("kCAOnOrderOut") { #expect(kCAOnOrderOut == "onOrderOut") }
        use("kCATransition") { #expect(kCATransition == "transition") }
    }

    func delegateAndActions() {
        final class Delegate: CALayerDelegate {
            var calls: [String] = []
            func display(_ layer: CALayer) { calls.append("display"); layer.contents = nil }
            func draw(_ layer: CALayer, in ctx: CGContext) { calls.append("draw") }
            func layerWillDraw(_ layer: CALayer) { calls.append("willDraw") }
            func layoutSublayers(of layer: CALayer) { calls.append("layout") }
            func action(for layer: CALayer, forKey event: String) -> CAAction? { calls.append("action"); return NSNull() }
        }
        final class DrawingDelegate: CALayerDelegate {
            var calls: [String] = []
            func draw(_ layer: CALayer, in ctx: CGContext) { calls.append("draw") }
            func layerWillDraw(_ layer: CALayer) { calls.append("willDraw") }
        }
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 2, height: 2)
        let delegate = Delegate()
        layer.delegate = delegate
        use("CALayerDelegate.display(_:)") {
            layer.setNeedsDisplay()
            layer.displayIfNeeded()
            #expect(delegate.calls.contains("display"))
        }
        use("CALayerDelegate.layerWillDraw(_:)") {
            let drawing = DrawingDelegate()
            let drawn = CALayer()
            drawn.bounds = layer.bounds
            drawn.delegate = drawing
            drawn.display()
            #expect(drawing.calls == ["willDraw", "draw"])
        }
        use("CALayerDelegate.draw(_:in:)") { layer.draw(in: CGContext(width: 2, height: 2)!); #expect(delegate.calls.contains("draw")) }
        use("CALayerDelegate.layoutSublayers(of:)") {
            layer.setNeedsLayout()
            layer.layoutIfNeeded()
            #expect(delegate.calls.contains("layout"))
        }
        use("CALayerDelegate.action(for:forKey:)") {
            #expect(layer.action(forKey: "opacity") == nil)
            #expect(delegate.calls.contains("action"))
        }
        final class Recorder: CAAction {
            var events: [String] = []
            func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) { events.append(event) }
        }
        use("CAAction.run(forKey:object:arguments:)") {
            let recorder = Recorder()
            let plain = CALayer()
            plain.bounds = CGRect(x: 0, y: 0, width: 2, height: 2)
            _ = try? CARenderer.image(of: plain) // a layer animates implicitly once it has been shown
            plain.actions = ["opacity": recorder]
            plain.opacity = 0.5
            #expect(recorder.events == ["opacity"])
        }
        use("NSNull.run(forKey:object:arguments:)") { NSNull().run(forKey: "opacity", object: layer, arguments: nil) }
    }
}
