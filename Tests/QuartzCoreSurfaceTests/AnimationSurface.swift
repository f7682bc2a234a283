import QuartzCore
import Testing

// The animation classes, timing, transactions, value functions and CATransform3D, as Apple
// spells them.

extension SurfaceChecklist {
    func layerSubclasses() {
        let shape = CAShapeLayer()
        use("CAShapeLayer.path") { #expect(shape.path == nil) }
        use("CAShapeLayer.fillColor") { #expect(isOpaqueGray(shape.fillColor, 0)) }
        use("CAShapeLayer.fillRule") { #expect(shape.fillRule == .nonZero) }
        use("CAShapeLayer.strokeColor") { #expect(shape.strokeColor == nil) }
        use("CAShapeLayer.strokeStart") { let v: CGFloat = shape.strokeStart; #expect(v == 0) }
        use("CAShapeLayer.strokeEnd") { let v: CGFloat = shape.strokeEnd; #expect(v == 1) }
        use("CAShapeLayer.lineWidth") { let v: CGFloat = shape.lineWidth; #expect(v == 1) }
        use("CAShapeLayer.miterLimit") { let v: CGFloat = shape.miterLimit; #expect(v == 10) }
        use("CAShapeLayer.lineCap") { #expect(shape.lineCap == .butt) }
        use("CAShapeLayer.lineJoin") { #expect(shape.lineJoin == .miter) }
        use("CAShapeLayer.lineDashPhase") { let v: CGFloat = shape.lineDashPhase; #expect(v == 0) }
        use("CAShapeLayer.lineDashPattern") {
            #expect(shape.lineDashPattern == nil)
            shape.lineDashPattern = [NSNumber(value: 4), 2]
            #expect(shape.lineDashPattern?.map(\.doubleValue) == [4, 2])
        }
        for (name, rule) in [("nonZero", CAShapeLayerFillRule.nonZero), ("evenOdd", .evenOdd)] {
            use("CAShapeLayerFillRule.\(name)") { #expect(!rule.rawValue.isEmpty) }
        }
        for (name, cap) in [("butt", CAShapeLayerLineCap.butt), ("round", .round), ("square", .square)] {
            use("CAShapeLayerLineCap.\(name)") { #expect(cap.rawValue == name) }
        }
        for (name, join) in [("miter", CAShapeLayerLineJoin.miter), ("round", .round), ("bevel", .bevel)] {
            use("CAShapeLayerLineJoin.\(name)") { #expect(join.rawValue == name) }
        }

        let text = CATextLayer()
        use("CATextLayer.string") { #expect(text.string == nil) }
        use("CATextLayer.font") { #expect(text.font == nil) }
        use("CATextLayer.fontSize") { let v: CGFloat = text.fontSize; #expect(v == 36) }
        use("CATextLayer.foregroundColor") { #expect(isOpaqueGray(text.foregroundColor, 1)) }
        use("CATextLayer.isWrapped") { #expect(!text.isWrapped) }
        use("CATextLayer.truncationMode") { #expect(text.truncationMode == .none) }
        use("CATextLayer.alignmentMode") { #expect(text.alignmentMode == .natural) }
        use("CATextLayer.allowsFontSubpixelQuantization") { #expect(!text.allowsFontSubpixelQuantization) }
        for (name, mode) in [("none", CATextLayerTruncationMode.none), ("start", .start), ("end", .end), ("middle", .middle)] {
            use("CATextLayerTruncationMode.\(name)") { #expect(mode.rawValue == name) }
        }
        for (name, mode) in [("natural", CATextLayerAlignmentMode.natural), ("left", .left), ("right", .right),
                             ("center", .center), ("justified", .justified)] {
            use("CATextLayerAlignmentMode.\(name)") { #expect(mode.rawValue == name) }
        }

        let gradient = CAGradientLayer()
        use("CAGradientLayer.colors") { #expect(gradient.colors == nil) }
        use("CAGradientLayer.locations") { let l: [NSNumber]? = gradient.locations; #expect(l == nil) }
        use("CAGradientLayer.startPoint") { #expect(gradient.startPoint == CGPoint(x: 0.5, y: 0)) }
        use("CAGradientLayer.endPoint") { #expect(gradient.endPoint == CGPoint(x: 0.5, y: 1)) }
        use("CAGradientLayer.type") { #expect(gradient.type == .axial) }
        for (name, type) in [("axial", CAGradientLayerType.axial), ("radial", .radial), ("conic", .conic)] {
            use("CAGradientLayerType.\(name)") { #expect(type.rawValue == name) }
        }

        let replicator = CAReplicatorLayer()
        use("CAReplicatorLayer.instanceCount") { let n: Int = replicator.instanceCount; #expect(n == 1) }
        use("CAReplicatorLayer.preservesDepth") { #expect(!replicator.preservesDepth) }
        use("CAReplicatorLayer.instanceDelay") { let d: CFTimeInterval = replicator.instanceDelay; #expect(d == 0) }
        use("CAReplicatorLayer.instanceTransform") { #expect(CATransform3DIsIdentity(replicator.instanceTransform)) }
        use("CAReplicatorLayer.instanceColor") { #expect(isOpaqueGray(replicator.instanceColor, 1)) }
        use("CAReplicatorLayer.instanceRedOffset") { let v: Float = replicator.instanceRedOffset; #expect(v == 0) }
        use("CAReplicatorLayer.instanceGreenOffset") { let v: Float = replicator.instanceGreenOffset; #expect(v == 0) }
        use("CAReplicatorLayer.instanceBlueOffset") { let v: Float = replicator.instanceBlueOffset; #expect(v == 0) }
        use("CAReplicatorLayer.instanceAlphaOffset") { let v: Float = replicator.instanceAlphaOffset; #expect(v == 0) }

        let scroller = CAScrollLayer()
        scroller.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        use("CAScrollLayer.scroll(to:)#point") {
            scroller.scroll(to: CGPoint(x: 3, y: 4))
            #expect(scroller.bounds.origin == CGPoint(x: 3, y: 4))
        }
        use("CAScrollLayer.scroll(to:)#rect") {
            scroller.scroll(to: CGRect(x: 20, y: 20, width: 5, height: 5))
            #expect(scroller.bounds.contains(CGPoint(x: 22, y: 22)))
        }
        use("CAScrollLayer.scrollMode") { #expect(scroller.scrollMode == .both) }
        for (name, mode) in [("none", CAScrollLayerScrollMode.none), ("vertically", .vertically),
                             ("horizontally", .horizontally), ("both", .both)] {
            use("CAScrollLayerScrollMode.\(name)") { #expect(mode.rawValue == name) }
        }
        use("CATransformLayer.init()") { #expect(CATransformLayer().sublayers == nil) }

        use("CATiledLayer.init()") { #expect(CATiledLayer().contents == nil) }
        let tiled = CATiledLayer()
        use("CATiledLayer.fadeDuration()") { let d: CFTimeInterval = CATiledLayer.fadeDuration(); #expect(d == 0.25) }
        use("CATiledLayer.levelsOfDetail") { let n: Int = tiled.levelsOfDetail; #expect(n == 1) }
        use("CATiledLayer.levelsOfDetailBias") { let n: Int = tiled.levelsOfDetailBias; #expect(n == 0) }
        use("CATiledLayer.tileSize") { let s: CGSize = tiled.tileSize; #expect(s == CGSize(width: 256, height: 256)) }
    }

    func timing() {
        let timed: CAMediaTiming = CABasicAnimation()
        use("CAMediaTiming.beginTime") { let t: CFTimeInterval = timed.beginTime; #expect(t == 0) }
        use("CAMediaTiming.duration") { let t: CFTimeInterval = timed.duration; #expect(t == 0) }
        use("CAMediaTiming.speed") { let s: Float = timed.speed; #expect(s == 1) }
        use("CAMediaTiming.timeOffset") { let t: CFTimeInterval = timed.timeOffset; #expect(t == 0) }
        use("CAMediaTiming.repeatCount") { let c: Float = timed.repeatCount; #expect(c == 0) }
        use("CAMediaTiming.repeatDuration") { let t: CFTimeInterval = timed.repeatDuration; #expect(t == 0) }
        use("CAMediaTiming.autoreverses") { #expect(!timed.autoreverses) }
        use("CAMediaTiming.fillMode") { #expect(timed.fillMode == .removed) }
        for (name, mode) in [("removed", CAMediaTimingFillMode.removed), ("forwards", .forwards),
                             ("backwards", .backwards), ("both", .both)] {
            use("CAMediaTimingFillMode.\(name)") { #expect(mode.rawValue == name) }
        }
        use("CACurrentMediaTime()") { let t: CFTimeInterval = CACurrentMediaTime(); #expect(t.isFinite) }

        use("CAMediaTimingFunction.init(name:)") { #expect(CAMediaTimingFunction(name: .linear) == CAMediaTimingFunction(controlPoints: 0, 0, 1, 1)) }
        use("CAMediaTimingFunction.init(controlPoints:_:_:_:)") { _ = CAMediaTimingFunction(controlPoints: 0.25, 0.1, 0.25, 1) }
        use("CAMediaTimingFunction.getControlPoint(at:values:)") {
            var point: [Float] = [0, 0]
            CAMediaTimingFunction(name: .easeIn).getControlPoint(at: 1, values: &point)
            #expect(point == [0.42, 0])
        }
        let names: [(String, CAMediaTimingFunctionName)] = [("linear", .linear), ("easeIn", .easeIn), ("easeOut", .easeOut),
                                                            ("easeInEaseOut", .easeInEaseOut), ("default", .default)]
        for (name, function) in names {
            use("CAMediaTimingFunctionName.\(name)") { #expect(function.rawValue == name) }
        }
    }

    func animations() {
        final class Stops: CAAnimationDelegate {
            var events: [String] = []
            func animationDidStart(_ anim: CAAnimation) { events.append("start") }
            func animationDidStop(_ anim: CAAnimation, finished flag: Bool) { events.append("stop \(flag)") }
        }
        let animation = CAAnimation()
        use("CAAnimation.init()") { #expect(animation.duration == 0) }
        use("CAAnimation.defaultValue(forKey:)") { #expect(CAAnimation.defaultValue(forKey: "anything") == nil) }
        use("CAAnimation.shouldArchiveValue(forKey:)") { #expect(animation.shouldArchiveValue(forKey: "duration")) }
        use("CAAnimation.timingFunction") { #expect(animation.timingFunction == nil) }
        use("CAAnimation.delegate") { #expect(animation.delegate == nil) }
        use("CAAnimation.isRemovedOnCompletion") { #expect(animation.isRemovedOnCompletion) }
        use("CAAnimation.preferredFrameRateRange") { #expect(animation.preferredFrameRateRange == .default) }
        use("CAAnimation.setValue(_:forKey:)") { animation.setValue("spinner", forKey: "tag") }
        use("CAAnimation.value(forKey:)") { #expect(animation.value(forKey: "tag") as? String == "spinner") }
        use("CAAnimation.copy()") {
            let copy = animation.copy() as! CAAnimation
            #expect(copy !== animation && copy.value(forKey: "tag") as? String == "spinner")
        }
        use("CAAnimation.beginTime") { let t: CFTimeInterval = animation.beginTime; #expect(t == 0) }
        use("CAAnimation.duration") { let t: CFTimeInterval = animation.duration; #expect(t == 0) }
        use("CAAnimation.speed") { let s: Float = animation.speed; #expect(s == 1) }
        use("CAAnimation.timeOffset") { let t: CFTimeInterval = animation.timeOffset; #expect(t == 0) }
        use("CAAnimation.repeatCount") { let c: Float = animation.repeatCount; #expect(c == 0) }
        use("CAAnimation.repeatDuration") { let t: CFTimeInterval = animation.repeatDuration; #expect(t == 0) }
        use("CAAnimation.autoreverses") { #expect(!animation.autoreverses) }
        use("CAAnimation.fillMode") { #expect(animation.fillMode == .removed) }
        let stops = Stops()
        use("CAAnimationDelegate.animationDidStart(_:)") { stops.animationDidStart(animation) }
        use("CAAnimationDelegate.animationDidStop(_:finished:)") {
            let layer = CALayer()
            let fade = CABasicAnimation(keyPath: "opacity")
            fade.delegate = stops
            layer.add(fade, forKey: "fade")
            layer.removeAnimation(forKey: "fade")
            #expect(stops.events.contains("stop false"))
        }

        let property = CABasicAnimation(keyPath: "position.x")
        use("CAPropertyAnimation.init(keyPath:)") { #expect(CAPropertyAnimation(keyPath: "opacity").keyPath == "opacity") }
        use("CAPropertyAnimation.keyPath") { #expect(property.keyPath == "position.x") }
        use("CAPropertyAnimation.isAdditive") { #expect(!property.isAdditive) }
        use("CAPropertyAnimation.isCumulative") { #expect(!property.isCumulative) }
        use("CAPropertyAnimation.valueFunction") { #expect(property.valueFunction == nil) }
        use("CABasicAnimation.fromValue") { property.fromValue = NSNumber(value: 0) }
        use("CABasicAnimation.toValue") { property.toValue = 10 }
        use("CABasicAnimation.byValue") { #expect(property.byValue == nil) }

        let keyframe = CAKeyframeAnimation(keyPath: "opacity")
        use("CAKeyframeAnimation.values") { keyframe.values = [0, 1, NSNumber(value: 0.5)] }
        use("CAKeyframeAnimation.path") { #expect(keyframe.path == nil) }
        use("CAKeyframeAnimation.keyTimes") { keyframe.keyTimes = [0, 0.5, NSNumber(value: 1)] }
        use("CAKeyframeAnimation.timingFunctions") { keyframe.timingFunctions = [CAMediaTimingFunction(name: .easeIn)] }
        use("CAKeyframeAnimation.calculationMode") { #expect(keyframe.calculationMode == .linear) }
        use("CAKeyframeAnimation.tensionValues") { keyframe.tensionValues = [NSNumber(value: 0.5), 0, 0] }
        use("CAKeyframeAnimation.continuityValues") { let v: [NSNumber]? = keyframe.continuityValues; #expect(v == nil) }
        use("CAKeyframeAnimation.biasValues") { let v: [NSNumber]? = keyframe.biasValues; #expect(v == nil) }
        use("CAKeyframeAnimation.rotationMode") { #expect(keyframe.rotationMode == nil) }
        let modes: [(String, CAAnimationCalculationMode)] = [("linear", .linear), ("discrete", .discrete), ("paced", .paced),
                                                             ("cubic", .cubic), ("cubicPaced", .cubicPaced)]
        for (name, mode) in modes {
            use("CAAnimationCalculationMode.\(name)") { #expect(mode.rawValue == name) }
        }
        use("CAAnimationRotationMode.rotateAuto") { #expect(CAAnimationRotationMode.rotateAuto.rawValue == "auto") }
        use("CAAnimationRotationMode.rotateAutoReverse") { #expect(CAAnimationRotationMode.rotateAutoReverse.rawValue == "autoReverse") }

        let spring = CASpringAnimation(keyPath: "position.y")
        use("CASpringAnimation.init(perceptualDuration:bounce:)") {
            let perceptual = CASpringAnimation(perceptualDuration: 0.5, bounce: CGFloat(0.2))
            #expect(abs(perceptual.perceptualDuration - 0.5) < 1e-9)
            #expect(abs(perceptual.bounce - 0.2) < 1e-9)
        }
        use("CASpringAnimation.mass") { let v: CGFloat = spring.mass; #expect(v == 1) }
        use("CASpringAnimation.stiffness") { let v: CGFloat = spring.stiffness; #expect(v == 100) }
        use("CASpringAnimation.damping") { let v: CGFloat = spring.damping; #expect(v == 10) }
        use("CASpringAnimation.initialVelocity") { let v: CGFloat = spring.initialVelocity; #expect(v == 0) }
        use("CASpringAnimation.allowsOverdamping") { #expect(!spring.allowsOverdamping) }
        use("CASpringAnimation.settlingDuration") { let d: CFTimeInterval = spring.settlingDuration; #expect(d > 0) }
        use("CASpringAnimation.perceptualDuration") { let d: CFTimeInterval = spring.perceptualDuration; #expect(abs(d - 2 * .pi / 10) < 1e-9) }
        use("CASpringAnimation.bounce") { let b: CGFloat = spring.bounce; #expect(abs(b - 0.5) < 1e-9) }

        let transition = CATransition()
        use("CATransition.type") { #expect(transition.type == .fade) }
        use("CATransition.subtype") { #expect(transition.subtype == nil) }
        use("CATransition.startProgress") { let p: Float = transition.startProgress; #expect(p == 0) }
        use("CATransition.endProgress") { let p: Float = transition.endProgress; #expect(p == 1) }
        use("CATransition.filter") { #expect(transition.filter == nil) }
        for (name, type) in [("fade", CATransitionType.fade), ("moveIn", .moveIn), ("push", .push), ("reveal", .reveal)] {
            use("CATransitionType.\(name)") { #expect(type.rawValue == name) }
        }
        for (name, subtype) in [("fromRight", CATransitionSubtype.fromRight), ("fromLeft", .fromLeft),
                                ("fromTop", .fromTop), ("fromBottom", .fromBottom)] {
            use("CATransitionSubtype.\(name)") { #expect(subtype.rawValue == name) }
        }
        use("CAAnimationGroup.animations") { #expect(CAAnimationGroup().animations == nil) }

        use("CAFrameRateRange.init(minimum:maximum:preferred:)") { _ = CAFrameRateRange(minimum: 30, maximum: 120, preferred: 60) }
        use("CAFrameRateRange.default") { #expect(CAFrameRateRange.default.maximum == 0) }
        let range = CAFrameRateRange(minimum: 30, maximum: 120, preferred: 60)
        use("CAFrameRateRange.minimum") { #expect(range.minimum == 30) }
        use("CAFrameRateRange.maximum") { #expect(range.maximum == 120) }
        use("CAFrameRateRange.preferred") { #expect(range.preferred == 60) }
        use("CAFrameRateRange.isEqual(to:)") { #expect(range.isEqual(to: range) && !range.isEqual(to: .default)) }
    }
}
