// Rounded clips whose edges meet other edges: content filling a rounded card, an image in a
// rounded cell, a rounded clip inside one of the same shape or inset from it, turned and in
// perspective. Each frame's coverage (the alpha of opaque content on a transparent frame) is
// held against the area of each pixel inside the visible outline, found here by supersampling
// the outline through a projective map built from the layer's transform (not the compositor's).
import Compositor
import Foundation
import GLBackend
import LayerModel
import OpenCoreGraphics
import PixelDiff
import RasterBackend
import Testing

@Suite("Nested rounded clips by area")
struct NestedRoundedClipTests {
    enum Arrangement: String, CaseIterable, CustomTestStringConvertible {
        /// A sublayer as large as the clipping card, an opaque background.
        case fillingChild
        /// An image view as large as the card.
        case fillingImage
        /// A sublayer with the card's own corners (no clip of its own).
        case sameCorners
        /// A clip of the card's shape inside the card (a cell's content view), then a filling sublayer.
        case sameClipNested
        /// A smaller rounded clip inset in the card, then a filling sublayer.
        case insetClipNested
        var testDescription: String { rawValue }
    }

    static let size = 96
    static let cardSize = CGSize(width: 60, height: 44)
    static let radius = 14.0
    static let inset = 7.0

    static func transform(perspective: Bool) -> CATransform3D {
        guard perspective else { return CATransform3DMakeRotation(0.3, 0, 0, 1) }
        var eye = CATransform3DIdentity
        eye.m34 = -1.0 / 150
        return CATransform3DConcat(CATransform3DMakeRotation(0.7, 0.3, 1, 0), eye)
    }

    static func frame(_ arrangement: Arrangement, perspective: Bool) throws -> RenderList {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: size, height: size)
        let card = CALayer()
        card.bounds = CGRect(origin: .zero, size: cardSize)
        card.position = CGPoint(x: 48.3, y: 47.6)
        card.cornerRadius = radius
        card.masksToBounds = true
        card.transform = transform(perspective: perspective)
        let black = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        let full = CGRect(origin: .zero, size: cardSize)
        switch arrangement {
        case .fillingChild:
            let child = CALayer()
            child.frame = full
            child.backgroundColor = black
            card.addSublayer(child)
        case .fillingImage:
            let image = CALayer()
            image.frame = full
            image.contents = CGImage(bitmap: Bitmap(width: 12, height: 9) { x, y in (UInt8(x * 20), UInt8(y * 25), 90, 255) })
            card.addSublayer(image)
        case .sameCorners:
            let child = CALayer()
            child.frame = full
            child.cornerRadius = radius
            child.backgroundColor = black
            card.addSublayer(child)
        case .sameClipNested, .insetClipNested:
            let content = CALayer()
            content.frame = arrangement == .sameClipNested ? full : full.insetBy(dx: inset, dy: inset)
            content.cornerRadius = arrangement == .sameClipNested ? radius : radius - inset
            content.masksToBounds = true
            let fill = CALayer()
            fill.frame = CGRect(origin: .zero, size: content.bounds.size)
            fill.backgroundColor = black
            content.addSublayer(fill)
            card.addSublayer(content)
        }
        root.addSublayer(card)
        return try RenderListBuilder(viewport: root.frame, scale: 1).build(root: root)
    }

    /// The visible outline in the card's plane: its rectangle and corner radius.
    static func outline(_ arrangement: Arrangement) -> (rect: CGRect, radius: Double) {
        let full = CGRect(origin: .zero, size: cardSize)
        return arrangement == .insetClipNested ? (full.insetBy(dx: inset, dy: inset), radius - inset) : (full, radius)
    }

    /// Device pixel -> the card's plane, from the card's position, bounds and transform alone:
    /// a point p of the plane goes to position + (p - centre) * transform (row vectors), divided by w.
    static func deviceToPlane(perspective: Bool) -> (Double, Double) -> (Double, Double)? {
        let t = transform(perspective: perspective)
        let (px, py, cx, cy) = (48.3, 47.6, cardSize.width / 2, cardSize.height / 2)
        // [x y 1] h = [X Y W]: the plane's (x, y) to homogeneous device coordinates.
        let a = [[t.m11, t.m12, t.m14],
                 [t.m21, t.m22, t.m24],
                 [t.m41 - cx * t.m11 - cy * t.m21, t.m42 - cx * t.m12 - cy * t.m22, t.m44 - cx * t.m14 - cy * t.m24]]
        let h = a.map { [$0[0] + px * $0[2], $0[1] + py * $0[2], $0[2]] }
        // Its inverse by cofactors.
        let det = h[0][0] * (h[1][1] * h[2][2] - h[1][2] * h[2][1]) - h[0][1] * (h[1][0] * h[2][2] - h[1][2] * h[2][0])
            + h[0][2] * (h[1][0] * h[2][1] - h[1][1] * h[2][0])
        var inv = [[Double]](repeating: [0, 0, 0], count: 3)
        for i in 0..<3 {
            for j in 0..<3 {
                let r = [0, 1, 2].filter { $0 != j }, c = [0, 1, 2].filter { $0 != i }
                let minor = h[r[0]][c[0]] * h[r[1]][c[1]] - h[r[0]][c[1]] * h[r[1]][c[0]]
                inv[i][j] = ((i + j) % 2 == 0 ? 1 : -1) * minor / det
            }
        }
        // The entries as scalars: the closure runs 16,384 times an edge pixel, and nested arrays'
        // reads made it most of this suite's 24 s in a debug build.
        let (i00, i10, i20) = (inv[0][0], inv[1][0], inv[2][0]), (i01, i11, i21) = (inv[0][1], inv[1][1], inv[2][1])
        let (i02, i12, i22) = (inv[0][2], inv[1][2], inv[2][2])
        return { x, y in
            let X = x * i00 + y * i10 + i20
            let Y = x * i01 + y * i11 + i21
            let W = x * i02 + y * i12 + i22
            return W > 0 ? (X / W, Y / W) : nil
        }
    }

    static func inside(_ p: (Double, Double), rect: CGRect, radius r: Double) -> Bool {
        let (x, y) = p
        guard x >= rect.minX, x <= rect.maxX, y >= rect.minY, y <= rect.maxY else { return false }
        let dx = max(rect.minX + r - x, x - (rect.maxX - r), 0), dy = max(rect.minY + r - y, y - (rect.maxY - r), 0)
        return dx * dx + dy * dy <= r * r
    }

    /// Each pixel's area inside the outline: 1 where its four corners are inside (the outline is
    /// convex and the map keeps lines straight), else 128 x 128 samples.
    static func exactCoverage(_ arrangement: Arrangement, perspective: Bool) -> [Double] {
        let toPlane = deviceToPlane(perspective: perspective)
        let (rect, r) = outline(arrangement)
        let n = 128
        var coverage = [Double](repeating: 0, count: size * size)
        // `inside` with the rectangle's sides read once (CGRect's are computed at every call).
        let (minX, maxX, minY, maxY) = (Double(rect.minX), Double(rect.maxX), Double(rect.minY), Double(rect.maxY))
        func isInside(_ p: (Double, Double)) -> Bool {
            let (x, y) = p
            guard x >= minX, x <= maxX, y >= minY, y <= maxY else { return false }
            let dx = max(minX + r - x, x - (maxX - r), 0), dy = max(minY + r - y, y - (maxY - r), 0)
            return dx * dx + dy * dy <= r * r
        }
        for py in 0..<size {
            for px in 0..<size {
                let corners = [(0.0, 0.0), (1, 0), (1, 1), (0, 1)].map { toPlane(Double(px) + $0.0, Double(py) + $0.1) }
                if corners.allSatisfy({ $0.map { inside($0, rect: rect, radius: r) } ?? false }) {
                    coverage[py * size + px] = 1
                    continue
                }
                // Wholly outside one side of the rectangle: nothing.
                let planar = corners.compactMap { $0 }
                if planar.count == 4, planar.allSatisfy({ $0.0 < rect.minX }) || planar.allSatisfy({ $0.0 > rect.maxX })
                    || planar.allSatisfy({ $0.1 < rect.minY }) || planar.allSatisfy({ $0.1 > rect.maxY }) {
                    continue
                }
                var count = 0
                for j in 0..<n {
                    for i in 0..<n {
                        if let p = toPlane(Double(px) + (Double(i) + 0.5) / Double(n), Double(py) + (Double(j) + 0.5) / Double(n)),
                           isInside(p) { count += 1 }
                    }
                }
                coverage[py * size + px] = Double(count) / Double(n * n)
            }
        }
        return coverage
    }

    @Test("content along a rounded clip's edge is covered by the outline's area once, on both backends, turned and in perspective",
          arguments: Arrangement.allCases, [false, true])
    func edgeCoveredOnce(arrangement: Arrangement, perspective: Bool) throws {
        let list = try NestedRoundedClipTests.frame(arrangement, perspective: perspective)
        let exact = NestedRoundedClipTests.exactCoverage(arrangement, perspective: perspective)
        let images = [("CPU", RasterRenderer().render(list)), ("GPU", try GLDevice.shared().render(list))]
        for (backend, image) in images {
            var worst = 0.0, sum = 0.0, edgePixels = 0, drawn = 0.0, area = 0.0
            for i in exact.indices {
                let alpha = Double(image.pixels[i * 4 + 3]) / 255
                drawn += alpha
                area += exact[i]
                guard exact[i] > 0 && exact[i] < 1 || alpha > 0 && alpha < 1 else { continue }
                edgePixels += 1
                let error = abs(alpha - exact[i])
                worst = max(worst, error)
                sum += error
            }
            let mean = sum / Double(max(edgePixels, 1))
            #expect(edgePixels > 100, "\(backend): \(edgePixels) edge pixels")
            // Rounded outlines are taken as straight across each pixel: off by at most 0.118 / r
            // of a pixel (r = 14 here: 2.2/255; 7 for the inset clip: 4.3/255), plus 8-bit
            // rounding and the sampling's 1/128. Anti-aliased twice, the edge was 64/255 off.
            let bound = 0.118 / NestedRoundedClipTests.outline(arrangement).radius * 255 + 1
            #expect(worst * 255 <= bound, "\(backend): an edge pixel off by \(worst * 255)/255, the bound is \(bound)")
            #expect(mean * 255 <= 0.8, "\(backend): edge pixels off by \(mean * 255)/255 on average")
            #expect(abs(drawn - area) / area < 0.002, "\(backend): coverage sums to \(drawn), the area is \(area)")
        }
    }
}

@Suite("Rounded clips that cut nothing")
struct RoundedClipRouteTests {
    /// Cards with rounded corners, masksToBounds and content: inset from the edge (the clip cuts
    /// nothing) or across it; turned, in perspective, with a border, and one continuous.
    static func tree(across: Bool, perspective: Bool) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 160, height: 96)
        for (i, continuous) in [false, true].enumerated() {
            let card = CALayer()
            card.bounds = CGRect(x: 0, y: 0, width: 60, height: 70)
            card.position = CGPoint(x: 42.3 + Double(i) * 76, y: 47.6)
            card.cornerRadius = 12
            card.cornerCurve = continuous ? .continuous : .circular
            card.masksToBounds = true
            card.backgroundColor = CGColor(red: 0.95, green: 0.95, blue: 1, alpha: 1)
            card.borderWidth = 1.5
            card.borderColor = CGColor(red: 0.3, green: 0.3, blue: 0.5, alpha: 1)
            card.transform = NestedRoundedClipTests.transform(perspective: perspective)
            let title = CALayer()
            title.frame = across ? CGRect(x: -4, y: -4, width: 68, height: 24) : CGRect(x: 8, y: 8, width: 44, height: 14)
            title.backgroundColor = CGColor(red: 0.2, green: 0.5, blue: 0.9, alpha: 1)
            let line = CALayer()
            line.frame = CGRect(x: 8, y: 30, width: 40, height: 6)
            line.backgroundColor = CGColor(red: 0.3, green: 0.3, blue: 0.3, alpha: 1)
            card.sublayers = [title, line]
            root.addSublayer(card)
        }
        return root
    }

    @Test("inset content: no pass, and the same pixels as through the group pass; content across the edge takes the pass",
          arguments: [false, true])
    func noPassWhenNothingIsCut(perspective: Bool) throws {
        let viewport = CGRect(x: 0, y: 0, width: 160, height: 96)
        let tried = try RenderListBuilder(viewport: viewport, scale: 1).build(root: RoundedClipRouteTests.tree(across: false, perspective: perspective))
        var passes = RenderListBuilder(viewport: viewport, scale: 1)
        passes.triesRoundedClips = false
        let grouped = try passes.build(root: RoundedClipRouteTests.tree(across: false, perspective: perspective))
        #expect(tried.passes.count == 1 && grouped.passes.count == 3, "passes: \(tried.passes.count) tried, \(grouped.passes.count) grouped")
        let across = try RenderListBuilder(viewport: viewport, scale: 1).build(root: RoundedClipRouteTests.tree(across: true, perspective: perspective))
        #expect(across.passes.count == 3, "content across the edge is clipped in a group pass")
        let device = try GLDevice.shared()
        for (backend, a, b) in [("CPU", RasterRenderer().render(tried), RasterRenderer().render(grouped)),
                                ("GPU", try device.render(tried), try device.render(grouped))] {
            // The pass rounds each pixel once more (its content, then the composite): a step apart at most.
            let report = try ImageComparison.compare(b, a, tolerance: 1)
            #expect(report.maxChannelDelta <= 2 && report.pixelsOverTolerance <= 4, "\(backend): \(report)")
        }
        let cpu = RasterRenderer().render(tried), gpu = try device.render(tried)
        let agreement = try ImageComparison.compare(cpu, gpu, tolerance: AgreementBar.gpuAgainstCPU.tolerance)
        #expect(AgreementBar.gpuAgainstCPU.failure(of: agreement) == nil, "\(agreement)")
    }
}
