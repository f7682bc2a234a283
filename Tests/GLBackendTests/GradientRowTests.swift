// A gradient's runs of source-over go through a C kernel (oq_gradient_over: GradientFill's
// formula and CGGradient's stops at each pixel centre, then the blend). The CPU reference's
// bytes must not move: the kernel's frame must be the Swift path's to the byte, on gradients of
// every kind, in every copy of the kernels; and the GPU's frame of the same layers within the
// agreement bar.
import Compositor
import Foundation
import GLBackend
import LayerModel
import OpenCoreGraphics
import PixelDiff
import RasterBackend
import Testing

@Suite("Gradient row kernel")
struct GradientRowTests {
    /// 30 gradient layers over a plain background: axial, radial and conic; two to eight stops,
    /// some at one location, some starting after 0 or ending before 1; opaque and translucent
    /// colours; start and end points inside and outside the bounds; turned, mirrored, scaled, some
    /// in perspective and some translucent, tinted by a group's opacity.
    static func gradients(seed: UInt64) -> CALayer {
        var random = BlendModeAgreementTests.Dice(state: seed)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 320, height: 240)
        root.backgroundColor = CGColor(red: 0.9, green: 0.92, blue: 0.95, alpha: 1)
        for i in 0..<30 {
            let layer = CAGradientLayer()
            layer.type = [.axial, .radial, .conic][i % 3]
            let width = random.next(8...160), height = random.next(8...120)
            layer.bounds = CGRect(x: 0, y: 0, width: width, height: height)
            layer.position = CGPoint(x: random.next(-10...330), y: random.next(-10...250))
            let count = 2 + Int(random.next() * 7)
            layer.colors = (0..<count).map { _ in
                CGColor(red: random.next(), green: random.next(), blue: random.next(), alpha: i % 4 == 0 ? random.next(0...1) : 1)
            }
            var locations = (0..<count).map { _ in random.next(i % 5 == 0 ? 0.2...0.8 : 0...1) }.sorted()
            if count > 3 { locations[2] = locations[1] }
            layer.locations = i % 6 == 5 ? nil : locations.map { NSNumber(value: $0) }
            layer.startPoint = CGPoint(x: random.next(-0.3...1.3), y: random.next(-0.3...1.3))
            layer.endPoint = CGPoint(x: random.next(-0.3...1.3), y: random.next(-0.3...1.3))
            layer.opacity = Float(i % 3 == 1 ? random.next(0.3...1) : 1)
            var transform = CATransform3DMakeRotation(i % 2 == 0 ? 0 : random.next(0...(2 * .pi)), 0, 0, 1)
            transform = CATransform3DScale(transform, random.next(0.5...1.8) * (i % 7 == 3 ? -1 : 1), random.next(0.5...1.8), 1)
            if i % 8 == 0 { transform.m34 = -1 / 300; transform = CATransform3DRotate(transform, 0.6, 0, 1, 0) }
            layer.transform = transform
            root.addSublayer(layer)
        }
        return root
    }

    @Test("a hard edge (two stops at one location) on a pixel centre takes the colour after it in every copy, as the Swift path does")
    func hardEdgeOnPixelCentre() throws {
        // 512 pixels across: the pixel centres' t are (k + 0.5) / 512 exactly, so columns 128 and
        // 300 fall on stop locations, column 128 on two at once; large enough for the colour table.
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 512, height: 64)
        let layer = CAGradientLayer()
        layer.frame = root.bounds
        layer.startPoint = CGPoint(x: 0, y: 0.5)
        layer.endPoint = CGPoint(x: 1, y: 0.5)
        layer.colors = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 1, blue: 0, alpha: 1),
                        CGColor(red: 0, green: 0, blue: 1, alpha: 0.5), CGColor(red: 1, green: 1, blue: 0, alpha: 1),
                        CGColor(red: 1, green: 1, blue: 1, alpha: 1)]
        layer.locations = [0, 128.5 / 512, 128.5 / 512, 300.5 / 512, 1].map { NSNumber(value: $0) }
        root.addSublayer(layer)
        let list = try RenderListBuilder(viewport: root.frame, scale: 1).build(root: root)
        let tabled = list.passes.flatMap(\.ops).contains { op in
            guard case .quad(let quad) = op, case .gradient(let gradient) = quad.fill else { return false }
            return RasterRenderer.colorTable(for: gradient, over: quad.polygon.pixelBounds) != nil
        }
        #expect(tabled)
        try KernelAgreement.expectSameBytes(list)
        // The edge's own column is the translucent blue after it, the column before is green.
        let frame = RasterRenderer(threads: 1).render(list)
        func pixel(_ x: Int) -> [UInt8] { Array(frame.pixels[(10 * frame.width + x) * 4..<(10 * frame.width + x) * 4 + 4]) }
        #expect(pixel(128)[2] > pixel(128)[1] && pixel(128)[3] < 200, "\(pixel(128))")
        #expect(pixel(127)[1] > 200 && pixel(127)[2] < 10, "\(pixel(127))")
    }

    @Test("the kernel's frame is the Swift path's to the byte, in every copy, and the GPU agrees", arguments: [1, 2, 3] as [UInt64])
    func sameBytes(seed: UInt64) throws {
        let root = GradientRowTests.gradients(seed: seed)
        let list = try RenderListBuilder(viewport: root.frame, scale: 1).build(root: root)
        let kinds = Set(list.passes.flatMap(\.ops).compactMap { op -> GradientFill.Kind? in
            guard case .quad(let quad) = op, case .gradient(let gradient) = quad.fill else { return nil }
            return gradient.kind
        })
        #expect(kinds == [.axial, .radial, .conic], "\(kinds)")
        // Large gradients read their colours from a table, small ones convert each pixel: both here.
        let tabled = list.passes.flatMap(\.ops).compactMap { op -> Bool? in
            guard case .quad(let quad) = op, case .gradient(let gradient) = quad.fill else { return nil }
            return RasterRenderer.colorTable(for: gradient, over: quad.polygon.pixelBounds) != nil
        }
        #expect(tabled.contains(true) && tabled.contains(false), "\(tabled)")
        try KernelAgreement.expectSameBytes(list)
        // CAGradientLayer's stops are Generic RGB, drawn through their colour table; every other
        // fill again as sRGB stops, so that the kernel's path without a table is held too.
        var mixed = list, flipped = 0
        for p in mixed.passes.indices {
            for o in mixed.passes[p].ops.indices {
                guard case .quad(var quad) = mixed.passes[p].ops[o], case .gradient(let gradient) = quad.fill else { continue }
                #expect(gradient.colorSpace == .genericRGB && gradient.colorTable != nil)
                flipped += 1
                guard flipped % 2 == 0 else { continue }
                let plain = GradientFill(kind: gradient.kind, deviceToLocal: gradient.deviceToLocal, start: gradient.start,
                                         end: gradient.end, stops: gradient.stops, colorSpace: .sRGB)
                #expect(plain.colorTable == nil)
                quad.fill = .gradient(plain)
                mixed.passes[p].ops[o] = .quad(quad)
            }
        }
        #expect(flipped >= 20)
        try KernelAgreement.expectSameBytes(mixed)
    }
}
