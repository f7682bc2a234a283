import Foundation
import OpenQuartzCore

/// The seeds' listings ported to Swift against OpenQuartz's API, as an application would write
/// them: the same scenes as the documents of the same names in `Examples/` (a test holds each
/// port to its document), rendered by `swift run seed-examples`.
public enum SeedExamples {
    public struct Example: Sendable {
        public let name: String
        public let size: CGSize
        /// The time the example is shown at (its animations start at time 0).
        public let time: Double
        let builder: @Sendable () -> CALayer
        /// What the app does at given times (a finger moving, a button pressed), in time order:
        /// code that changes the tree found by layer names, in transactions of its own.
        let script: [(time: Double, action: @Sendable (CALayer) -> Void)]

        init(name: String, size: CGSize, time: Double, builder: @escaping @Sendable () -> CALayer,
             script: [(time: Double, action: @Sendable (CALayer) -> Void)] = []) {
            self.name = name
            self.size = size
            self.time = time
            self.builder = builder
            self.script = script
        }

        /// A fresh tree, its animations added at media time 0.
        public func build() -> CALayer { MediaClock.$scoped.withValue(0) { builder() } }

        /// The example at its time: shown first at time 0 (so later changes animate), then each
        /// scripted change made at its own time, then rendered.
        public func render(backend: RenderBackend) throws -> CGImage {
            let root = build()
            MediaClock.$scoped.withValue(0) {
                root.displayTreeIfNeeded()
                root.markLive()
            }
            for step in script where step.time <= time {
                MediaClock.$scoped.withValue(step.time) {
                    _ = root.advanceAnimations(toMediaTime: step.time)
                    step.action(root)
                    CATransaction.flush()
                }
            }
            return try CARenderer.image(of: root, bounds: CGRect(origin: .zero, size: size), backend: backend, atTime: time)
        }
    }

    /// The layer called `name` in the tree under `root`.
    static func layer(_ name: String, in root: CALayer) -> CALayer {
        func search(_ layer: CALayer) -> CALayer? {
            layer.name == name ? layer : (layer.sublayers ?? []).lazy.compactMap(search).first
        }
        guard let found = search(root) else { fatalError("no layer is named \(name)") }
        return found
    }

    public static let all: [Example] = [
        Example(name: "pie", size: CGSize(width: 240, height: 240), time: 1.5, builder: pie),
        Example(name: "gradient-text-mask", size: CGSize(width: 400, height: 160), time: 0, builder: gradientTextMask),
        Example(name: "gradient-button", size: CGSize(width: 320, height: 120), time: 0, builder: gradientButton),
        Example(name: "replicator-mirror", size: CGSize(width: 240, height: 260), time: 0, builder: replicatorMirror),
        Example(name: "keyframe-circle", size: CGSize(width: 240, height: 240), time: 1.5, builder: keyframeCircle),
        Example(name: "group-cut-short", size: CGSize(width: 200, height: 200), time: 0.99, builder: groupCutShort),
        Example(name: "basic-animations", size: CGSize(width: 300, height: 140), time: 0.75, builder: basicAnimations),
        Example(name: "zposition-anchorpointz", size: CGSize(width: 360, height: 200), time: 0, builder: zPositionAndAnchorPointZ),
        Example(name: "star-wars-crawl", size: CGSize(width: 1280, height: 720), time: 12, builder: starWarsCrawl),
        Example(name: "layer-gallery", size: CGSize(width: 780, height: 180), time: 0, builder: layerGallery),
        Example(name: "nested-transactions", size: CGSize(width: 320, height: 180), time: 1.25, builder: nestedTransactionsTree,
                script: [(1, nestedTransactions)]),
        Example(name: "page-fold", size: CGSize(width: 320, height: 240), time: 2, builder: pageFoldTree,
                script: (1...20).map { step in (0.1 * Double(step), { root in pinch(root, to: 1 - 0.52 * Double(step) / 20) }) }),
        Example(name: "hypnosis-drag", size: CGSize(width: 480, height: 380), time: 0.8, builder: hypnosisTree,
                script: [(0.3, 40.0), (0.45, 90), (0.6, 140), (0.75, 190)].map { time, dy in (time, { root in drag(root, by: dy) }) }),
        Example(name: "push-transition", size: CGSize(width: 200, height: 160), time: 1.3, builder: pushTree,
                script: [(1, pushFromTop)]),
        Example(name: "flip-book", size: CGSize(width: 280, height: 150), time: 1.5, builder: flipBook,
                script: [(1.3, { root in pauseFlipBook(root, at: 1.3) }), (2.5, { root in resumeFlipBook(root, pausedAt: 1.3, now: 2.5) })]),
    ]

    /// The Examples folder (for its images).
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples")

    static func rgb(_ hex: UInt32, alpha: CGFloat = 1) -> CGColor {
        CGColor(red: CGFloat(hex >> 16 & 0xFF) / 255, green: CGFloat(hex >> 8 & 0xFF) / 255, blue: CGFloat(hex & 0xFF) / 255, alpha: alpha)
    }

    static func root(_ width: CGFloat, _ height: CGFloat, _ color: CGColor) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: width, height: height)
        root.backgroundColor = color
        return root
    }

    /// Seed 000's pie, grown to part 0.6 as a shape layer's strokeEnd (a circle of radius 40
    /// stroked 80 wide is a disc; the stroke's end is the pie's part), tilting about x under
    /// m34 = -0.005.
    static func pie() -> CALayer {
        let stage = root(240, 240, .white)
        var perspective = CATransform3DIdentity
        perspective.m34 = -0.005
        stage.sublayerTransform = perspective
        let plate = CALayer()
        plate.frame = CGRect(x: 40, y: 40, width: 160, height: 160)
        plate.backgroundColor = rgb(0xDDDDDD)
        plate.cornerRadius = 80
        plate.borderWidth = 2
        plate.borderColor = rgb(0x999999)
        let tilt = CABasicAnimation(keyPath: "transform.rotation.x")
        tilt.fromValue = 0.0
        tilt.toValue = 1.2
        tilt.duration = 4
        tilt.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        tilt.autoreverses = true
        tilt.repeatCount = 1e9
        plate.add(tilt, forKey: "tilt")
        let pie = CAShapeLayer()
        pie.frame = CGRect(x: 0, y: 0, width: 160, height: 160)
        let circle = CGMutablePath()
        circle.addArc(center: CGPoint(x: 80, y: 80), radius: 40, startAngle: -.pi / 2, endAngle: 3 * .pi / 2, clockwise: false)
        pie.path = circle
        pie.fillColor = nil
        pie.strokeColor = rgb(0xD83B3B)
        pie.lineWidth = 80
        pie.strokeEnd = 0.6
        let part = CABasicAnimation(keyPath: "strokeEnd")
        part.fromValue = 0.0
        part.toValue = 0.6
        part.duration = 2
        part.timingFunction = CAMediaTimingFunction(name: .easeOut)
        pie.add(part, forKey: "part")
        plate.addSublayer(pie)
        stage.addSublayer(plate)
        return stage
    }

    /// Seed 000's gradient seen through text: a CATextLayer as the mask of a CAGradientLayer.
    static func gradientTextMask() -> CALayer {
        let stage = root(400, 160, rgb(0x202020))
        let gradient = CAGradientLayer()
        gradient.frame = CGRect(x: 20, y: 20, width: 360, height: 120)
        gradient.colors = [rgb(0xE52D27), rgb(0xF9D423), rgb(0x1E6FD9)]
        gradient.startPoint = CGPoint(x: 0, y: 0)
        gradient.endPoint = CGPoint(x: 1, y: 1)
        let text = CATextLayer()
        text.frame = CGRect(x: 0, y: 22, width: 360, height: 80)
        text.string = "Core Animation"
        text.font = "Helvetica-Bold"
        text.fontSize = 44
        text.alignmentMode = .center
        text.foregroundColor = .black
        text.contentsScale = 2
        gradient.mask = text
        stage.addSublayer(gradient)
        return stage
    }

    /// Seed 000's gradient button: the gradient sits behind the title with zPosition -1.
    static func gradientButton() -> CALayer {
        let stage = root(320, 120, rgb(0xF4F4F4))
        let button = CALayer()
        button.frame = CGRect(x: 60, y: 30, width: 200, height: 60)
        button.cornerRadius = 12
        button.borderWidth = 1
        button.borderColor = rgb(0x6B7A8F)
        let title = CATextLayer()
        title.frame = CGRect(x: 0, y: 17, width: 200, height: 30)
        title.string = "Press me"
        title.font = "Helvetica-Bold"
        title.fontSize = 20
        title.foregroundColor = rgb(0x1D2B3A)
        title.alignmentMode = .center
        title.contentsScale = 2
        let shine = CAGradientLayer()
        shine.frame = button.bounds
        shine.cornerRadius = 12
        shine.masksToBounds = true
        shine.zPosition = -1
        shine.colors = [rgb(0xFFFFFF), rgb(0xB9C3CF)]
        button.addSublayer(title)
        button.addSublayer(shine)
        stage.addSublayer(button)
        return stage
    }

    /// Seed 000's mirror with CAReplicatorLayer: a second instance flipped below, faded and darkened.
    static func replicatorMirror() -> CALayer {
        let stage = root(240, 260, rgb(0x1C1F26))
        let mirror = CAReplicatorLayer()
        mirror.frame = CGRect(x: 40, y: 20, width: 160, height: 120)
        mirror.instanceCount = 2
        mirror.instanceTransform = CATransform3DConcat(CATransform3DMakeScale(1, -1, 1), CATransform3DMakeTranslation(0, 120, 0))
        mirror.instanceAlphaOffset = -0.7
        mirror.instanceRedOffset = -0.2
        mirror.instanceGreenOffset = -0.2
        mirror.instanceBlueOffset = -0.2
        let photo = CALayer()
        photo.frame = CGRect(x: 0, y: 0, width: 160, height: 120)
        photo.contents = try? CGImage.load(contentsOf: examples.appendingPathComponent("page.png"))
        photo.contentsGravity = .resizeAspectFill
        photo.masksToBounds = true
        photo.cornerRadius = 8
        mirror.addSublayer(photo)
        stage.addSublayer(mirror)
        return stage
    }

    /// Seed 000's keyframe animation along a circle: three times round and back, paced.
    static func keyframeCircle() -> CALayer {
        let stage = root(240, 240, .white)
        let orbit = CGPath(ellipseIn: CGRect(x: 40, y: 40, width: 160, height: 160), transform: nil)
        let track = CAShapeLayer()
        track.frame = stage.bounds
        track.path = orbit
        track.fillColor = nil
        track.strokeColor = rgb(0xCCCCCC)
        track.lineWidth = 2
        track.lineDashPattern = [6, 4]
        let dot = CALayer()
        dot.bounds = CGRect(x: 0, y: 0, width: 24, height: 24)
        dot.position = CGPoint(x: 200, y: 120)
        dot.backgroundColor = rgb(0x2A7DE1)
        dot.cornerRadius = 12
        let around = CAKeyframeAnimation(keyPath: "position")
        around.path = orbit
        around.duration = 2
        around.repeatCount = 3
        around.autoreverses = true
        around.calculationMode = .paced
        dot.add(around, forKey: "orbit")
        stage.addSublayer(track)
        stage.addSublayer(dot)
        return stage
    }

    /// Seed 000's group that cuts its child short: cornerRadius 0 -> 80 over 2 s in a 1 s group
    /// ends at 40.
    static func groupCutShort() -> CALayer {
        let stage = root(200, 200, .white)
        let square = CALayer()
        square.frame = CGRect(x: 20, y: 20, width: 160, height: 160)
        square.backgroundColor = rgb(0xE0662A)
        let corner = CABasicAnimation(keyPath: "cornerRadius")
        corner.fromValue = 0.0
        corner.toValue = 80.0
        corner.duration = 2
        let group = CAAnimationGroup()
        group.animations = [corner]
        group.duration = 1
        group.timingFunction = CAMediaTimingFunction(name: .linear)
        square.add(group, forKey: "group")
        stage.addSublayer(square)
        return stage
    }

    /// Seed 000's opacity and position animations.
    static func basicAnimations() -> CALayer {
        let stage = root(300, 140, .white)
        let fading = CALayer()
        fading.frame = CGRect(x: 20, y: 20, width: 40, height: 40)
        fading.backgroundColor = rgb(0x7A3BD8)
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1.0
        fade.toValue = 0.0
        fade.duration = 1.5
        fade.timingFunction = CAMediaTimingFunction(name: .linear)
        fading.add(fade, forKey: "opacity")
        let moving = CALayer()
        moving.frame = CGRect(x: 20, y: 80, width: 40, height: 40)
        moving.backgroundColor = rgb(0xD83B3B)
        let move = CABasicAnimation(keyPath: "position")
        move.fromValue = CGPoint(x: 40, y: 100)
        move.toValue = CGPoint(x: 260, y: 100)
        move.duration = 1.5
        move.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        moving.add(move, forKey: "position")
        stage.addSublayer(fading)
        stage.addSublayer(moving)
        return stage
    }

    /// Seed 000's zPosition against anchorPointZ, both turned 0.6 rad about y under perspective.
    static func zPositionAndAnchorPointZ() -> CALayer {
        let stage = root(360, 200, .white)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 200
        stage.sublayerTransform = perspective
        func card(_ name: String, _ frame: CGRect, _ fill: UInt32, _ edge: UInt32) -> CALayer {
            let card = CALayer()
            card.name = name
            card.frame = frame
            card.backgroundColor = rgb(fill)
            card.transform = CATransform3DMakeRotation(0.6, 0, 1, 0)
            card.borderWidth = 2
            card.borderColor = rgb(edge)
            return card
        }
        let raised = card("zPosition 30", CGRect(x: 50, y: 50, width: 100, height: 100), 0x4A90D9, 0x1D3F66)
        raised.zPosition = 30
        let pivoted = card("anchorPointZ 40", CGRect(x: 230, y: 50, width: 100, height: 100), 0xD9904A, 0x66401D)
        pivoted.anchorPointZ = 40
        let flat = CALayer()
        flat.frame = CGRect(x: 155, y: 75, width: 50, height: 50)
        flat.backgroundColor = rgb(0x999999)
        stage.addSublayer(raised)
        stage.addSublayer(pivoted)
        stage.addSublayer(flat)
        return stage
    }

    /// Seed 001's crawl: the text view's layer transform with m24 = -0.005, the text scrolled
    /// linearly for 35 s.
    static func starWarsCrawl() -> CALayer {
        let screen = root(1280, 720, .black)
        var trans = CATransform3DIdentity
        trans.m24 = -0.005
        let view = CALayer()
        view.frame = CGRect(x: 460, y: 180, width: 360, height: 540)
        view.backgroundColor = .black
        view.masksToBounds = true
        view.transform = trans
        let credits = CATextLayer()
        credits.bounds = CGRect(x: 0, y: 0, width: 360, height: 960)
        credits.position = CGPoint(x: 180, y: 720)
        credits.font = "Helvetica-Bold"
        credits.fontSize = 20
        credits.foregroundColor = rgb(0xFFFF00)
        credits.alignmentMode = .center
        credits.isWrapped = true
        credits.contentsScale = 2
        credits.string = crawlText
        let scroll = CABasicAnimation(keyPath: "position.y")
        scroll.fromValue = 720.0
        scroll.toValue = 160.0
        scroll.duration = 35
        scroll.timingFunction = CAMediaTimingFunction(name: .linear)
        scroll.fillMode = .forwards
        scroll.isRemovedOnCompletion = false
        credits.add(scroll, forKey: "scroll")
        view.addSublayer(credits)
        screen.addSublayer(view)
        return screen
    }

    /// Seed 000's content layer classes side by side: a gradient (Listing 6.42), a text layer
    /// (6.43), a scroll layer holding a long text (6.44) and a shape layer drawing a sine (6.45).
    static func layerGallery() -> CALayer {
        let stage = root(780, 180, rgb(0xE9E9EE))
        let gradient = CAGradientLayer()
        gradient.frame = CGRect(x: 15, y: 20, width: 180, height: 140)
        gradient.colors = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 1, blue: 0, alpha: 1),
                           CGColor(red: 0, green: 0, blue: 1, alpha: 1)]
        gradient.startPoint = CGPoint(x: 0, y: 0)
        gradient.endPoint = CGPoint(x: 1, y: 1)
        let sentence = "Die heiße Zypernsonne quälte Max und Victoria ja böse auf dem Weg bis zur Küste."
        func text(_ frame: CGRect, _ string: String, _ color: CGColor) -> CATextLayer {
            let layer = CATextLayer()
            layer.frame = frame
            layer.font = "Courier"
            layer.fontSize = 20
            layer.foregroundColor = color
            layer.isWrapped = true
            layer.string = string
            layer.contentsScale = 2
            return layer
        }
        let plain = text(CGRect(x: 210, y: 20, width: 180, height: 140), sentence, .black)
        plain.backgroundColor = .white
        let scroll = CAScrollLayer()
        scroll.frame = CGRect(x: 405, y: 20, width: 180, height: 140)
        scroll.scrollMode = .vertically
        scroll.backgroundColor = .white
        scroll.borderWidth = 1
        scroll.borderColor = rgb(0x888888)
        scroll.masksToBounds = true
        scroll.addSublayer(text(CGRect(x: 0, y: 0, width: 180, height: 420), Array(repeating: sentence, count: 4).joined(separator: " "),
                                rgb(0x1D3F66)))
        let sine = CAShapeLayer()
        sine.frame = CGRect(x: 600, y: 20, width: 180, height: 140)
        sine.backgroundColor = .white
        sine.strokeColor = .black
        sine.fillColor = .clear
        sine.lineWidth = 1
        let width = sine.bounds.width, offset = sine.bounds.height / 2
        func f(_ x: CGFloat) -> CGFloat { -50 * sin(2 * x) }
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: f(0) + offset))
        for x in stride(from: CGFloat(1), to: width, by: 1) {
            path.addLine(to: CGPoint(x: x, y: f(x * .pi / width) + offset))
        }
        sine.path = path
        for layer in [gradient, plain, scroll, sine] { stage.addSublayer(layer) }
        return stage
    }

    /// Seed 000's nested transactions: the outer one (2 s, linear) moves the blue square, an inner
    /// one (0.5 s) the red, and an inner one without actions jumps the green.
    static func nestedTransactionsTree() -> CALayer {
        let stage = root(320, 180, rgb(0xF7F7F2))
        for (name, y, color) in [("outer", 20.0, 0x3B6FD8), ("inner", 70, 0xD83B6F), ("instant", 120, 0x3BD88F)] as [(String, CGFloat, UInt32)] {
            let square = CALayer()
            square.name = name
            square.frame = CGRect(x: 20, y: y, width: 40, height: 40)
            square.backgroundColor = rgb(color)
            square.cornerRadius = 6
            stage.addSublayer(square)
        }
        return stage
    }

    static func nestedTransactions(_ root: CALayer) {
        CATransaction.begin()
        CATransaction.setAnimationDuration(2)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
        layer("outer", in: root).position = CGPoint(x: 280, y: 40)
        CATransaction.begin()
        CATransaction.setAnimationDuration(0.5)
        layer("inner", in: root).position = CGPoint(x: 280, y: 90)
        CATransaction.commit()
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        layer("instant", in: root).position = CGPoint(x: 280, y: 140)
        CATransaction.commit()
        CATransaction.commit()
    }

    /// Seed 002's page fold: two half pages about the spine, each inside a container that casts
    /// the shadow (a rounded shadowPath, radius 100, opacity 0.9) because the page's rounded mask
    /// would clip its own; the pinch folds them (scale and turn about y) without actions.
    static func pageFoldTree() -> CALayer {
        let curtain = root(320, 240, rgb(0x6B7380))
        curtain.name = "curtain"
        let image = try? CGImage.load(contentsOf: examples.appendingPathComponent("page.png"))
        for left in [true, false] {
            let bounds = CGRect(x: 0, y: 0, width: 160, height: 240)
            let outline = CGMutablePath()
            outline.addRoundedRect(in: bounds, topLeft: left ? 25 : 0, topRight: left ? 0 : 25,
                                   bottomRight: left ? 0 : 25, bottomLeft: left ? 25 : 0)
            let shadow = CAShapeLayer()
            shadow.name = left ? "left shadow" : "right shadow"
            shadow.bounds = bounds
            shadow.position = CGPoint(x: 160, y: 120)
            shadow.anchorPoint = CGPoint(x: left ? 1 : 0, y: 0.5)
            shadow.transform = fold(left: left, scale: 1)
            shadow.shadowPath = outline
            shadow.shadowColor = .black
            shadow.shadowRadius = 100
            shadow.shadowOpacity = 0.9
            let page = CALayer()
            page.frame = bounds
            page.backgroundColor = .white
            page.contents = image
            page.contentsRect = CGRect(x: left ? 0 : 0.5, y: 0, width: 0.5, height: 1)
            var perspective = CATransform3DIdentity
            perspective.m34 = -1.0 / 2000
            page.transform = perspective
            let mask = CAShapeLayer()
            mask.frame = bounds
            mask.path = outline
            page.mask = mask
            shadow.addSublayer(page)
            curtain.addSublayer(shadow)
        }
        return curtain
    }

    /// The fold at pinch `scale`: turned by (1 - scale) pi about the spine, scaled, in perspective.
    static func fold(left: Bool, scale: CGFloat) -> CATransform3D {
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 2000
        let turned = CATransform3DMakeRotation((left ? 1 : -1) * (1 - scale) * .pi, 0, 1, 0)
        return CATransform3DConcat(CATransform3DConcat(turned, CATransform3DMakeScale(scale, scale, scale)), perspective)
    }

    /// A pinch update: the finger drives the fold, so no actions.
    static func pinch(_ root: CALayer, to scale: CGFloat) {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        layer("left shadow", in: root).transform = fold(left: true, scale: scale)
        layer("right shadow", in: root).transform = fold(left: false, scale: scale)
        CATransaction.commit()
    }

    /// Seed 003's hypnosis view dragged: the left copy's position changes animate implicitly (it
    /// lags the finger), the right one's are made without actions. Each carries the challenges'
    /// badge: an image at half size, centred, with rounded corners and a shadow.
    static func hypnosisTree() -> CALayer {
        let window = root(480, 380, rgb(0xF2EFE6))
        let image = try? CGImage.load(contentsOf: examples.appendingPathComponent("page.png"))
        for (name, x) in [("with actions", 120.0), ("without actions", 360)] as [(String, CGFloat)] {
            let view = CAShapeLayer()
            view.name = name
            view.bounds = CGRect(x: 0, y: 0, width: 140, height: 140)
            view.position = CGPoint(x: x, y: 90)
            let circles = CGMutablePath()
            for radius in stride(from: CGFloat(66), to: 4, by: -10) {
                circles.addEllipse(in: CGRect(x: 70 - radius, y: 70 - radius, width: 2 * radius, height: 2 * radius))
            }
            view.path = circles
            view.fillColor = nil
            view.strokeColor = rgb(0x7A5CC2)
            view.lineWidth = 3
            view.backgroundColor = .white
            let badge = CALayer()
            badge.bounds = CGRect(x: 0, y: 0, width: 70, height: 70)
            badge.position = CGPoint(x: 70, y: 70)
            badge.contents = image
            badge.contentsGravity = .resizeAspect
            badge.cornerRadius = 12
            badge.opacity = 0.85
            badge.shadowOpacity = 0.8
            badge.shadowRadius = 4
            badge.shadowOffset = CGSize(width: 0, height: 3)
            view.addSublayer(badge)
            window.addSublayer(view)
        }
        return window
    }

    /// A touch moved `dy` points down: the left view follows with its implicit animation, the
    /// right one at once.
    static func drag(_ root: CALayer, by dy: CGFloat) {
        layer("with actions", in: root).position = CGPoint(x: 120, y: 90 + dy)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        layer("without actions", in: root).position = CGPoint(x: 360, y: 90 + dy)
        CATransaction.commit()
    }

    static func pushTree() -> CALayer {
        let stage = root(200, 160, .white)
        let panel = CALayer()
        panel.name = "panel"
        panel.frame = CGRect(x: 40, y: 30, width: 120, height: 100)
        panel.backgroundColor = rgb(0x2D8F5A)
        panel.cornerRadius = 10
        stage.addSublayer(panel)
        return stage
    }

    /// Seed 000's push transition from the top: the new colour slides in over 0.6 s.
    static func pushFromTop(_ root: CALayer) {
        let panel = layer("panel", in: root)
        let push = CATransition()
        push.type = .push
        push.subtype = .fromTop
        push.duration = 0.6
        panel.add(push, forKey: "transition")
        panel.backgroundColor = rgb(0xD8A23B)
    }

    /// Seed 000's flip book: the frames as contents keyframes, dissolving (linear) and switching
    /// (discrete), paused and resumed by the layers' own timing.
    static func flipBook() -> CALayer {
        let stage = root(280, 150, rgb(0xFBFBFB))
        let frames = (1...6).compactMap { try? CGImage.load(contentsOf: examples.appendingPathComponent("flipbook/frame-\($0).png")) }
        for (name, x) in [("linear", 20.0), ("discrete", 150)] as [(String, CGFloat)] {
            let caption = CATextLayer()
            caption.frame = CGRect(x: x, y: 8, width: 110, height: 20)
            caption.string = name
            caption.fontSize = 13
            caption.foregroundColor = rgb(0x333333)
            caption.alignmentMode = .center
            caption.contentsScale = 2
            stage.addSublayer(caption)
        }
        for (name, x, mode) in [("linear", 27.0, CAAnimationCalculationMode.linear), ("discrete", 157, .discrete)] as [(String, CGFloat, CAAnimationCalculationMode)] {
            let book = CALayer()
            book.name = name
            book.frame = CGRect(x: x, y: 32, width: 96, height: 96)
            book.contents = frames.first
            let flip = CAKeyframeAnimation(keyPath: "contents")
            flip.values = frames
            flip.duration = 1.2
            flip.repeatCount = 1e9
            flip.calculationMode = mode
            book.add(flip, forKey: "flip")
            stage.addSublayer(book)
        }
        return stage
    }

    /// Pausing, as seed 000 does it: speed 0, the local time held in timeOffset.
    static func pauseFlipBook(_ root: CALayer, at time: Double) {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        for name in ["linear", "discrete"] {
            let book = layer(name, in: root)
            book.speed = 0
            book.timeOffset = time
        }
        CATransaction.commit()
    }

    /// Resuming: speed 1, timeOffset 0, and beginTime set so the local time goes on from the pause.
    static func resumeFlipBook(_ root: CALayer, pausedAt paused: Double, now: Double) {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        for name in ["linear", "discrete"] {
            let book = layer(name, in: root)
            book.speed = 1
            book.timeOffset = 0
            book.beginTime = now - paused
        }
        CATransaction.commit()
    }

    static let crawlText = "Episode IV\n\nA NEW RENDERER\n\nIt is a period of headless servers. Rebel engineers, striking from a hidden repository, have won their first victory against the blank framebuffer.\n\nDuring the battle, they managed to steal secret plans to Core Animation's layer model, a compositor with enough power to draw an entire layer tree.\n\nPursued by flaky snapshot tests, they race home aboard their continuous integration, custodians of the stolen plans that can save their pixels and restore freedom to Linux..."
}
