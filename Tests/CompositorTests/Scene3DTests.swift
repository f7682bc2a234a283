// CATransformLayer scenes: planes kept in 3D, split where they cross, drawn back to front.
import Compositor
import Foundation
import LayerModel
import OpenCoreGraphics
import Testing

@Suite("Depth sorting")
struct DepthSortingTests {
    private func square(z: Double, item: Int) -> DepthPolygon {
        DepthPolygon(points: [SIMD3(0, 0, z), SIMD3(10, 0, z), SIMD3(10, 10, z), SIMD3(0, 10, z)], item: item)!
    }

    @Test("parallel planes come out far (small z) to near whatever their input order")
    func parallel() {
        let order = DepthSorting.backToFront([square(z: 5, item: 0), square(z: -3, item: 1), square(z: 1, item: 2)]).map(\.item)
        #expect(order == [1, 2, 0])
    }

    @Test("coplanar polygons keep their input order")
    func coplanar() {
        #expect(DepthSorting.backToFront([square(z: 0, item: 0), square(z: 0, item: 1)]).map(\.item) == [0, 1])
    }

    @Test("of two planes crossing along x = 5, the second is split at the first: its far half, the first, its near half")
    func crossing() throws {
        // a: z rises with x (near on the right); b: z falls with x (near on the left).
        let a = try #require(DepthPolygon(points: [SIMD3(0, 0, -5), SIMD3(10, 0, 5), SIMD3(10, 10, 5), SIMD3(0, 10, -5)], item: 0))
        let b = try #require(DepthPolygon(points: [SIMD3(0, 0, 5), SIMD3(10, 0, -5), SIMD3(10, 10, -5), SIMD3(0, 10, 5)], item: 1))
        let pieces = DepthSorting.backToFront([a, b])
        #expect(pieces.map(\.item) == [1, 0, 1])
        // b's far half lies at x >= 5 (z <= 0), its near half at x <= 5; both are whole halves.
        #expect(pieces[0].points.allSatisfy { $0.x >= 5 - 1e-9 && $0.z <= 1e-9 })
        #expect(pieces[2].points.allSatisfy { $0.x <= 5 + 1e-9 && $0.z >= -1e-9 })
        func xs(_ p: DepthPolygon) -> Set<Double> { Set(p.points.map { ($0.x * 1e6).rounded() / 1e6 }) }
        #expect(xs(pieces[0]) == [5, 10] && xs(pieces[2]) == [0, 5])
        #expect(pieces[1].points == a.points)
    }
}

/// A 100x100 root whose sublayerTransform has perspective m34 = -1/500.
private func perspectiveStage() -> CALayer {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
    root.position = CGPoint(x: 50, y: 50)
    var perspective = CATransform3DIdentity
    perspective.m34 = -1.0 / 500
    root.sublayerTransform = perspective
    return root
}

@Suite("Transform layer scenes")
struct TransformLayerSceneTests {
    @Test("a plane nearer the viewer is drawn last even when it comes first among the sublayers")
    func depthOrderNotTreeOrder() throws {
        let root = perspectiveStage()
        let scene = CATransformLayer()
        scene.frame = root.bounds
        for (name, z) in [("near", 30.0), ("far", -30.0)] {
            let plane = CALayer()
            plane.name = name
            plane.frame = CGRect(x: 20, y: 20, width: 60, height: 60)
            plane.backgroundColor = .black
            plane.zPosition = 0
            plane.transform = CATransform3DMakeTranslation(0, 0, z)
            scene.addSublayer(plane)
        }
        // Tree order puts "far" on top; a flattening layer would draw it last.
        root.addSublayer(scene)
        let list = try RenderListBuilder(viewport: root.bounds).build(root: root)
        let frame = list.passes.last!.ops.compactMap { op -> String? in if case .quad(let q) = op { q.source.description } else { nil } }
        #expect(frame == ["CALayer 'far' in 3D", "CALayer 'near' in 3D"])
        // The near plane projects larger than the far one (perspective kept through the scene).
        let areas = list.passes.last!.ops.compactMap { op -> Double? in if case .quad(let q) = op { q.polygon.area } else { nil } }
        #expect(areas[1] > areas[0])
    }

    @Test("the transform layer's own background and border are not drawn; its opacity reaches each plane")
    func ownPropertiesIgnored() throws {
        let scene = CATransformLayer()
        scene.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
        scene.backgroundColor = .black
        scene.borderWidth = 3
        scene.opacity = 0.5
        let plane = CALayer()
        plane.name = "plane"
        plane.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
        plane.backgroundColor = .white
        plane.opacity = 0.5
        scene.addSublayer(plane)
        let list = try RenderListBuilder(viewport: CGRect(x: 0, y: 0, width: 40, height: 40)).build(root: scene)
        let quads = list.passes.last!.ops.compactMap { op -> QuadOp? in if case .quad(let q) = op { q } else { nil } }
        #expect(quads.count == 1 && quads[0].source.description == "CALayer 'plane' in 3D" && quads[0].opacity == 0.25)
    }
}

@Suite("Replicator instance delay")
struct ReplicatorDelayTests {
    @Test("instance i shows its sublayers as they were i x instanceDelay earlier")
    func delayed() throws {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
        root.position = CGPoint(x: 100, y: 50)
        let row = CAReplicatorLayer()
        row.frame = root.bounds
        row.instanceCount = 3
        row.instanceDelay = 0.25
        let dot = CALayer()
        dot.name = "dot"
        dot.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        dot.backgroundColor = .black
        let move = CABasicAnimation(keyPath: "position.x")
        move.fromValue = 5
        move.toValue = 105
        move.duration = 1
        MediaClock.$scoped.withValue(0) { dot.add(move, forKey: "move") }
        row.addSublayer(dot)
        root.addSublayer(row)
        let tree = root.presentationTree(atMediaTime: 0.6)
        let presented = try #require(tree.sublayers?.first as? CAReplicatorLayer)
        #expect(presented.delayedInstances.count == 2)
        let xs: [Double] = presented.delayedInstances.map { Double($0[0].position.x) }
        let expected: [Double] = [40, 15] // 5 + 100 x 0.35, 5 + 100 x 0.1
        #expect(zip(xs, expected).allSatisfy { abs($0 - $1) < 1e-9 } && xs.count == 2)
        let list = try RenderListBuilder(viewport: root.bounds).build(root: tree)
        let lefts = list.passes.last!.ops.compactMap { op -> Double? in
            if case .quad(let q) = op, q.source.description.contains("dot") { q.polygon.vertices.map(\.x).min() } else { nil }
        }
        // Left edges, half a width left of x = 65 (t 0.6), 40 (t 0.35) and 15 (t 0.1).
        let rounded: [Double] = lefts.map { ($0 * 1e6).rounded() / 1e6 }
        #expect(rounded == [60, 35, 10])
    }
}

@Suite("Depth-preserving replicators")
struct PreservesDepthTests {
    @Test("with preservesDepth the instances are sorted by depth, not drawn in instance order")
    func sorted() throws {
        let root = perspectiveStage()
        let replicator = CAReplicatorLayer()
        replicator.frame = root.bounds
        replicator.instanceCount = 3
        // Each instance 20 points nearer than the one before, tinted so they can be told apart.
        replicator.instanceTransform = CATransform3DMakeTranslation(0, 0, 20)
        replicator.instanceRedOffset = -0.25
        replicator.preservesDepth = true
        let plane = CALayer()
        plane.name = "plane"
        plane.frame = CGRect(x: 30, y: 30, width: 40, height: 40)
        plane.backgroundColor = .white
        replicator.addSublayer(plane)
        root.addSublayer(replicator)
        var list = try RenderListBuilder(viewport: root.bounds).build(root: root)
        func reds(_ list: RenderList) -> [Double] {
            list.passes.last!.ops.compactMap { op in if case .quad(let q) = op, q.source.description.contains("in 3D") { q.tint.red } else { nil } }
        }
        #expect(reds(list) == [1, 0.75, 0.5]) // far to near is instance order here
        replicator.instanceTransform = CATransform3DMakeTranslation(0, 0, -20) // now each is farther
        list = try RenderListBuilder(viewport: root.bounds).build(root: root)
        #expect(reds(list) == [0.5, 0.75, 1])
    }
}
