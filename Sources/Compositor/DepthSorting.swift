import Foundation

// Depth order for the layers of a 3D scene (CATransformLayer), as Chromium's compositor sorts a
// preserve-3d sorting context: a BSP tree of the layers' planes, polygons that straddle a plane
// split in two, then a back-to-front walk for a viewer looking down the z axis (after the
// perspective divide every ray to the eye runs parallel to z, and larger z is nearer).

/// A convex planar polygon in 3D with the item it came from.
package struct DepthPolygon {
    package var points: [SIMD3<Double>]
    /// Index of the layer plane this polygon (or piece) belongs to.
    package let item: Int
    /// Unit normal and offset of its plane: n · p + d = 0.
    package let normal: SIMD3<Double>
    package let offset: Double

    /// Nil when the points span no area (the plane cannot be found).
    package init?(points: [SIMD3<Double>], item: Int) {
        // Newell's method: robust for nearly collinear vertices.
        var n = SIMD3<Double>(0, 0, 0)
        for i in points.indices {
            let p = points[i], q = points[(i + 1) % points.count]
            n.x += (p.y - q.y) * (p.z + q.z)
            n.y += (p.z - q.z) * (p.x + q.x)
            n.z += (p.x - q.x) * (p.y + q.y)
        }
        let length = (n * n).sum().squareRoot()
        guard points.count >= 3, length > 1e-12, length.isFinite else { return nil }
        self.init(points: points, item: item, normal: n / length,
                  offset: -(n / length * (points.reduce(SIMD3<Double>(0, 0, 0), +) / Double(points.count))).sum())
    }

    private init(points: [SIMD3<Double>], item: Int, normal: SIMD3<Double>, offset: Double) {
        self.points = points
        self.item = item
        self.normal = normal
        self.offset = offset
    }

    /// Signed distance of `p` from this polygon's plane.
    func distance(_ p: SIMD3<Double>) -> Double { (normal * p).sum() + offset }

    /// A piece of this polygon: same plane and item.
    func piece(_ points: [SIMD3<Double>]) -> DepthPolygon {
        DepthPolygon(points: points, item: item, normal: normal, offset: offset)
    }
}

package enum DepthSorting {
    /// Distances within this of a plane count as on it (device pixels and their depth units).
    static let epsilon = 1e-6

    /// The polygons, split where they cross each other's planes, in back-to-front order; pieces
    /// of one plane keep their item. Coplanar polygons keep their input order.
    package static func backToFront(_ polygons: [DepthPolygon]) -> [DepthPolygon] {
        guard !polygons.isEmpty else { return [] }
        // Build: each node takes its first polygon's plane and sorts the rest into front and
        // back lists, splitting straddlers. Iterative: contexts may hold thousands of layers.
        final class Node {
            var coplanar: [DepthPolygon]
            var front: Node?
            var back: Node?
            init(_ splitter: DepthPolygon) { coplanar = [splitter] }
        }
        func split(_ list: [DepthPolygon]) -> (Node, [DepthPolygon], [DepthPolygon]) {
            let node = Node(list[0])
            let plane = list[0]
            var front: [DepthPolygon] = [], back: [DepthPolygon] = []
            for polygon in list.dropFirst() {
                let d = polygon.points.map(plane.distance)
                let hasFront = d.contains { $0 > epsilon }, hasBack = d.contains { $0 < -epsilon }
                switch (hasFront, hasBack) {
                case (false, false): node.coplanar.append(polygon)
                case (true, false): front.append(polygon)
                case (false, true): back.append(polygon)
                case (true, true):
                    let (f, b) = cut(polygon, distances: d)
                    if f.count >= 3 { front.append(polygon.piece(f)) }
                    if b.count >= 3 { back.append(polygon.piece(b)) }
                }
            }
            return (node, front, back)
        }
        let (root, rootFront, rootBack) = split(polygons)
        var work: [(Node, [DepthPolygon], [DepthPolygon])] = [(root, rootFront, rootBack)]
        while let (node, front, back) = work.popLast() {
            if !front.isEmpty {
                let (child, f, b) = split(front)
                node.front = child
                work.append((child, f, b))
            }
            if !back.isEmpty {
                let (child, f, b) = split(back)
                node.back = child
                work.append((child, f, b))
            }
        }
        // Walk: the side of each plane away from the viewer first.
        enum Step { case visit(Node), emit([DepthPolygon]) }
        var ordered: [DepthPolygon] = []
        var steps: [Step] = [.visit(root)]
        while let step = steps.popLast() {
            switch step {
            case .emit(let polygons): ordered.append(contentsOf: polygons)
            case .visit(let node):
                let viewerInFront = node.coplanar[0].normal.z >= 0
                let far = viewerInFront ? node.back : node.front, near = viewerInFront ? node.front : node.back
                // Pushed in reverse: far, then the node, then near.
                if let near { steps.append(.visit(near)) }
                steps.append(.emit(node.coplanar))
                if let far { steps.append(.visit(far)) }
            }
        }
        return ordered
    }

    /// The parts of a convex polygon on the positive and negative sides of a plane, given each
    /// vertex's signed distance from it.
    static func cut(_ polygon: DepthPolygon, distances d: [Double]) -> ([SIMD3<Double>], [SIMD3<Double>]) {
        var front: [SIMD3<Double>] = [], back: [SIMD3<Double>] = []
        let p = polygon.points
        for i in p.indices {
            let j = (i + 1) % p.count
            if d[i] >= -epsilon { front.append(p[i]) }
            if d[i] <= epsilon { back.append(p[i]) }
            if (d[i] > epsilon && d[j] < -epsilon) || (d[i] < -epsilon && d[j] > epsilon) {
                let t = d[i] / (d[i] - d[j])
                let x = p[i] + (p[j] - p[i]) * t
                front.append(x)
                back.append(x)
            }
        }
        return (front, back)
    }
}
