import QuartzCore
import Testing

// CAEmitterLayer and CAEmitterCell as Apple spells them: each member with its type, each
// documented default checked.

extension SurfaceChecklist {
    func emitters() {
        use("CAEmitterLayer.init()") { #expect(CAEmitterLayer().emitterCells == nil) }
        let layer = CAEmitterLayer()
        use("CAEmitterLayer.emitterCells") { let cells: [CAEmitterCell]? = layer.emitterCells; #expect(cells == nil) }
        use("CAEmitterLayer.birthRate") { let v: Float = layer.birthRate; #expect(v == 1) }
        use("CAEmitterLayer.lifetime") { let v: Float = layer.lifetime; #expect(v == 1) }
        use("CAEmitterLayer.emitterPosition") { let v: CGPoint = layer.emitterPosition; #expect(v == .zero) }
        use("CAEmitterLayer.emitterZPosition") { let v: CGFloat = layer.emitterZPosition; #expect(v == 0) }
        use("CAEmitterLayer.emitterSize") { let v: CGSize = layer.emitterSize; #expect(v == .zero) }
        use("CAEmitterLayer.emitterDepth") { let v: CGFloat = layer.emitterDepth; #expect(v == 0) }
        use("CAEmitterLayer.emitterShape") { let v: CAEmitterLayerEmitterShape = layer.emitterShape; #expect(v == .point) }
        use("CAEmitterLayer.emitterMode") { let v: CAEmitterLayerEmitterMode = layer.emitterMode; #expect(v == .points) }
        use("CAEmitterLayer.renderMode") { let v: CAEmitterLayerRenderMode = layer.renderMode; #expect(v == .unordered) }
        use("CAEmitterLayer.preservesDepth") { let v: Bool = layer.preservesDepth; #expect(!v) }
        use("CAEmitterLayer.velocity") { let v: Float = layer.velocity; #expect(v == 1) }
        use("CAEmitterLayer.scale") { let v: Float = layer.scale; #expect(v == 1) }
        use("CAEmitterLayer.spin") { let v: Float = layer.spin; #expect(v == 1) }
        use("CAEmitterLayer.seed") { let v: UInt32 = layer.seed; #expect(v == 0) }
        for (name, shape) in [("point", CAEmitterLayerEmitterShape.point), ("line", .line), ("rectangle", .rectangle),
                              ("cuboid", .cuboid), ("circle", .circle), ("sphere", .sphere)] {
            use("CAEmitterLayerEmitterShape.\(name)") { #expect(shape.rawValue == name) }
        }
        for (name, mode) in [("points", CAEmitterLayerEmitterMode.points), ("outline", .outline), ("surface", .surface), ("volume", .volume)] {
            use("CAEmitterLayerEmitterMode.\(name)") { #expect(mode.rawValue == name) }
        }
        for (name, mode) in [("unordered", CAEmitterLayerRenderMode.unordered), ("oldestFirst", .oldestFirst), ("oldestLast", .oldestLast),
                             ("backToFront", .backToFront), ("additive", .additive)] {
            use("CAEmitterLayerRenderMode.\(name)") { #expect(mode.rawValue == name) }
        }

        use("CAEmitterCell.init()") { #expect(CAEmitterCell().name == nil) }
        use("CAEmitterCell.emitterCell()") { #expect(CAEmitterCell.emitterCell().isEnabled) }
        use("CAEmitterCell.defaultValue(forKey:)") { #expect((CAEmitterCell.defaultValue(forKey: "scale") as? NSNumber)?.doubleValue == 1) }
        let cell = CAEmitterCell()
        use("CAEmitterCell.shouldArchiveValue(forKey:)") { #expect(cell.shouldArchiveValue(forKey: "birthRate")) }
        use("CAEmitterCell.name") { let v: String? = cell.name; #expect(v == nil) }
        use("CAEmitterCell.isEnabled") { let v: Bool = cell.isEnabled; #expect(v) }
        use("CAEmitterCell.birthRate") { let v: Float = cell.birthRate; #expect(v == 0) }
        use("CAEmitterCell.lifetime") { let v: Float = cell.lifetime; #expect(v == 0) }
        use("CAEmitterCell.lifetimeRange") { let v: Float = cell.lifetimeRange; #expect(v == 0) }
        use("CAEmitterCell.emissionLatitude") { let v: CGFloat = cell.emissionLatitude; #expect(v == 0) }
        use("CAEmitterCell.emissionLongitude") { let v: CGFloat = cell.emissionLongitude; #expect(v == 0) }
        use("CAEmitterCell.emissionRange") { let v: CGFloat = cell.emissionRange; #expect(v == 0) }
        use("CAEmitterCell.velocity") { let v: CGFloat = cell.velocity; #expect(v == 0) }
        use("CAEmitterCell.velocityRange") { let v: CGFloat = cell.velocityRange; #expect(v == 0) }
        use("CAEmitterCell.xAcceleration") { let v: CGFloat = cell.xAcceleration; #expect(v == 0) }
        use("CAEmitterCell.yAcceleration") { let v: CGFloat = cell.yAcceleration; #expect(v == 0) }
        use("CAEmitterCell.zAcceleration") { let v: CGFloat = cell.zAcceleration; #expect(v == 0) }
        use("CAEmitterCell.scale") { let v: CGFloat = cell.scale; #expect(v == 1) }
        use("CAEmitterCell.scaleRange") { let v: CGFloat = cell.scaleRange; #expect(v == 0) }
        use("CAEmitterCell.scaleSpeed") { let v: CGFloat = cell.scaleSpeed; #expect(v == 0) }
        use("CAEmitterCell.spin") { let v: CGFloat = cell.spin; #expect(v == 0) }
        use("CAEmitterCell.spinRange") { let v: CGFloat = cell.spinRange; #expect(v == 0) }
        use("CAEmitterCell.color") { let v: CGColor? = cell.color; #expect(isOpaqueGray(v, 1)) }
        use("CAEmitterCell.redRange") { let v: Float = cell.redRange; #expect(v == 0) }
        use("CAEmitterCell.greenRange") { let v: Float = cell.greenRange; #expect(v == 0) }
        use("CAEmitterCell.blueRange") { let v: Float = cell.blueRange; #expect(v == 0) }
        use("CAEmitterCell.alphaRange") { let v: Float = cell.alphaRange; #expect(v == 0) }
        use("CAEmitterCell.redSpeed") { let v: Float = cell.redSpeed; #expect(v == 0) }
        use("CAEmitterCell.greenSpeed") { let v: Float = cell.greenSpeed; #expect(v == 0) }
        use("CAEmitterCell.blueSpeed") { let v: Float = cell.blueSpeed; #expect(v == 0) }
        use("CAEmitterCell.alphaSpeed") { let v: Float = cell.alphaSpeed; #expect(v == 0) }
        use("CAEmitterCell.contents") { let v: Any? = cell.contents; #expect(v == nil) }
        use("CAEmitterCell.contentsRect") { let v: CGRect = cell.contentsRect; #expect(v == CGRect(x: 0, y: 0, width: 1, height: 1)) }
        use("CAEmitterCell.contentsScale") { let v: CGFloat = cell.contentsScale; #expect(v == 1) }
        use("CAEmitterCell.minificationFilter") { let v: String = cell.minificationFilter; #expect(v == CALayerContentsFilter.linear.rawValue) }
        use("CAEmitterCell.magnificationFilter") { let v: String = cell.magnificationFilter; #expect(v == CALayerContentsFilter.linear.rawValue) }
        use("CAEmitterCell.minificationFilterBias") { let v: Float = cell.minificationFilterBias; #expect(v == 0) }
        use("CAEmitterCell.emitterCells") { let v: [CAEmitterCell]? = cell.emitterCells; #expect(v == nil) }
        use("CAEmitterCell.style") { let v: [AnyHashable: Any]? = cell.style; #expect(v == nil) }
        // A cell is a timeline: Apple's CAMediaTiming.
        let timing: CAMediaTiming = cell
        #expect(timing.speed == 1 && timing.beginTime == 0 && timing.fillMode == .removed)
    }
}
