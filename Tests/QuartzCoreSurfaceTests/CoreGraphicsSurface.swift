import CoreGraphics
import Foundation
import QuartzCore
import Testing

// The Core Graphics and Core Text members Core Animation code uses (CoreGraphicsInterface.txt),
// each used with Apple's name and type and checked against Apple's documented behaviour: colours
// in their spaces, geometry comparisons, the drawing state (blend modes by CGBlendMode's
// formulas, anti-aliasing off, the text matrix), paths stroked into outlines.

@Suite("Core Graphics members Core Animation code uses")
struct CoreGraphicsSurfaceTests {
    @Test("every listed member is used with Apple's name and type, or marked with why it is missing")
    func everyMemberIsCovered() throws {
        let checklist = SurfaceChecklist()
        checklist.colors()
        checklist.geometry()
        try checklist.contextState()
        try checklist.contextDrawing()
        try checklist.blendModes()
        checklist.text()
        try checklist.coreText()
        let (used, impossible, owned) = try checklist.check(against: "CoreGraphicsInterface.txt")
        print("Core Graphics surface: \(used) of \(used + impossible + owned) members used; \(owned) belong to open issues")
    }
}

/// A 20 x 20 context, y up, as Apple's bitmap contexts are.
private func context() -> CGContext {
    CGContext(data: nil, width: 20, height: 20, bitsPerComponent: 8, bytesPerRow: 0, space: CGColorSpaceCreateDeviceRGB(),
              bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
}

/// The premultiplied pixel at (x, y) in user space (y up), 0...1.
private func pixel(_ ctx: CGContext, _ x: Int, _ y: Int) -> [Double] {
    let p = ctx.bitmap[x, ctx.height - 1 - y]
    return [p.0, p.1, p.2, p.3].map { Double($0) / 255 }
}

private func close(_ a: [Double], _ b: [Double], _ tolerance: Double = 1.5 / 255) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
}

extension SurfaceChecklist {
    func colors() {
        use("CGColor.init(red:green:blue:alpha:)") { #expect(CGColor(red: 1, green: 0.5, blue: 0, alpha: 1).components == [1, 0.5, 0, 1]) }
        use("CGColor.init(gray:alpha:)") { #expect(CGColor(gray: 0.5, alpha: 1).numberOfComponents == 2) }
        use("CGColor.init(srgbRed:green:blue:alpha:)") { #expect(CGColor(srgbRed: 0, green: 1, blue: 0, alpha: 0.5).alpha == 0.5) }
        use("CGColor.init(colorSpace:components:)") {
            let gray = CGColor(colorSpace: CGColorSpaceCreateDeviceGray(), components: [0.25, 1])
            #expect(gray?.components == [0.25, 1] && gray?.colorSpace == CGColorSpaceCreateDeviceGray())
            let rgb = CGColor(colorSpace: CGColorSpace(name: CGColorSpace.sRGB)!, components: [1, 0, 0, 0.5])
            #expect(rgb?.components == [1, 0, 0, 0.5])
            #expect(CGColor(colorSpace: CGColorSpaceCreateDeviceRGB(), components: [1, 0]) == nil, "two components are not an RGB colour")
            // Through a pointer, as C-style callers pass components: the space says how many to read.
            let values: [CGFloat] = [0.5, 0.25, 1, 1]
            let fromPointer = values.withUnsafeBufferPointer { CGColor(colorSpace: CGColorSpaceCreateDeviceRGB(), components: $0.baseAddress!) }
            #expect(fromPointer?.components == [0.5, 0.25, 1, 1])
        }
        use("CGColor.black") { #expect(isOpaqueGray(CGColor.black, 0)) }
        use("CGColor.white") { #expect(isOpaqueGray(CGColor.white, 1)) }
        use("CGColor.clear") { #expect(CGColor.clear.alpha == 0) }
        use("CGColor.components") { #expect(CGColor(gray: 0.2, alpha: 0.4).components == [0.2, 0.4]) }
        use("CGColor.numberOfComponents") { #expect(CGColor(red: 0, green: 0, blue: 0, alpha: 1).numberOfComponents == 4) }
        use("CGColor.alpha") { #expect(CGColor(gray: 0, alpha: 0.3).alpha == 0.3) }
        use("CGColor.colorSpace") { #expect(CGColor(red: 1, green: 1, blue: 1, alpha: 1).colorSpace?.model == .rgb) }
        use("CGColor.copy(alpha:)") { #expect(CGColor.black.copy(alpha: 0.5)?.alpha == 0.5) }
        use("CGColorSpace.init(name:)") { #expect(CGColorSpace(name: "no such space") == nil) }
        use("CGColorSpace.name") { #expect(CGColorSpace(name: CGColorSpace.sRGB)?.name == CGColorSpace.sRGB) }
        use("CGColorSpace.model") { #expect(CGColorSpace(name: CGColorSpace.genericGrayGamma2_2)?.model == .monochrome) }
        use("CGColorSpace.numberOfComponents") { #expect(CGColorSpaceCreateDeviceRGB().numberOfComponents == 3) }
        use("CGColorSpace.sRGB") { #expect(CGColorSpace(name: CGColorSpace.sRGB) != nil) }
        use("CGColorSpace.genericGrayGamma2_2") { #expect(CGColorSpace(name: CGColorSpace.genericGrayGamma2_2)?.numberOfComponents == 1) }
        use("CGColorSpace.==") {
            #expect(CGColorSpaceCreateDeviceRGB() == CGColorSpaceCreateDeviceRGB())
            #expect(CGColorSpaceCreateDeviceRGB() != CGColorSpaceCreateDeviceGray())
            #expect(Set([CGColorSpaceCreateDeviceGray(), CGColorSpaceCreateDeviceGray()]).count == 1)
        }
        use("CGColorSpaceCreateDeviceRGB()") { #expect(CGColorSpaceCreateDeviceRGB().model == .rgb) }
        use("CGColorSpaceCreateDeviceGray()") { #expect(CGColorSpaceCreateDeviceGray().model == .monochrome) }
    }

    func geometry() {
        use("CGPoint.equalTo(_:)") { #expect(CGPoint(x: 1, y: 2).equalTo(CGPoint(x: 1, y: 2)) && !CGPoint.zero.equalTo(CGPoint(x: 0, y: 1))) }
        use("CGSize.equalTo(_:)") { #expect(CGSize(width: 3, height: 4).equalTo(CGSize(width: 3, height: 4))) }
        use("CGRect.equalTo(_:)") {
            #expect(CGRect(x: 10, y: 10, width: -5, height: 5).equalTo(CGRect(x: 5, y: 10, width: 5, height: 5)), "compared standardized")
            #expect(!CGRect(x: 0, y: 0, width: 1, height: 1).equalTo(CGRect(x: 0, y: 0, width: 1, height: 2)))
            #expect(CGRect.null.equalTo(.null) && !CGRect.null.equalTo(.zero))
        }
    }

    func contextState() throws {
        let ctx = context()
        use("CGContext.saveGState()") { ctx.saveGState() }
        use("CGContext.setBlendMode(_:)") { ctx.setBlendMode(.multiply) }
        use("CGContext.restoreGState()") {
            ctx.restoreGState()
            #expect(ctx.blendMode == .normal, "the blend mode is part of the graphics state")
        }
        use("CGContext.concatenate(_:)") { ctx.concatenate(CGAffineTransform(translationX: 1, y: 0)) }
        use("CGContext.translateBy(x:y:)") { ctx.translateBy(x: 1, y: 0) }
        use("CGContext.scaleBy(x:y:)") { ctx.scaleBy(x: 2, y: 2) }
        use("CGContext.rotate(by:)") { ctx.rotate(by: 0) }
        use("CGContext.ctm") { #expect(ctx.ctm.a == 2 && ctx.ctm.tx == 2) }
        use("CGContext.setFillColor(_:)") { ctx.setFillColor(CGColor.black) }
        use("CGContext.setStrokeColor(_:)") { ctx.setStrokeColor(CGColor.white) }
        use("CGContext.setLineWidth(_:)") { ctx.setLineWidth(2) }
        use("CGContext.setLineCap(_:)") { ctx.setLineCap(.round) }
        use("CGContext.setLineJoin(_:)") { ctx.setLineJoin(.bevel) }
        use("CGContext.setMiterLimit(_:)") { ctx.setMiterLimit(4) }
        use("CGContext.setLineDash(phase:lengths:)") { ctx.setLineDash(phase: 0, lengths: []) }
        use("CGContext.setAlpha(_:)") { ctx.setAlpha(1) }
        use("CGContext.setShadow(offset:blur:color:)") { ctx.setShadow(offset: .zero, blur: 0, color: nil) }
        use("CGContext.interpolationQuality") { #expect(ctx.interpolationQuality == .default) }
        // Font smoothing and subpixel switches are kept; text here is grey-scale outlines, which
        // is what they leave when off.
        use("CGContext.setAllowsFontSmoothing(_:)") { ctx.setAllowsFontSmoothing(false) }
        use("CGContext.setShouldSmoothFonts(_:)") { ctx.setShouldSmoothFonts(false) }
        use("CGContext.setAllowsFontSubpixelPositioning(_:)") { ctx.setAllowsFontSubpixelPositioning(false) }
        use("CGContext.setShouldSubpixelPositionFonts(_:)") { ctx.setShouldSubpixelPositionFonts(false) }
        use("CGContext.setAllowsFontSubpixelQuantization(_:)") { ctx.setAllowsFontSubpixelQuantization(false) }
        use("CGContext.setShouldSubpixelQuantizeFonts(_:)") { ctx.setShouldSubpixelQuantizeFonts(false) }

        // Anti-aliasing off: a rectangle on fractional edges fills whole pixels only.
        func partialPixels(_ configure: (CGContext) -> Void) -> Int {
            let c = context()
            configure(c)
            c.setFillColor(CGColor.black)
            c.fill(CGRect(x: 2.3, y: 2.6, width: 10.4, height: 7.7))
            return (0..<20).flatMap { x in (0..<20).map { y in pixel(c, x, y)[3] } }.filter { $0 > 0 && $0 < 1 }.count
        }
        #expect(partialPixels { _ in } > 0, "anti-aliased by default")
        use("CGContext.setShouldAntialias(_:)") { #expect(partialPixels { $0.setShouldAntialias(false) } == 0) }
        use("CGContext.setAllowsAntialiasing(_:)") { #expect(partialPixels { $0.setAllowsAntialiasing(false) } == 0) }

        // The text matrix: its translation is the text position; the rest scales the glyphs.
        use("CGContext.textMatrix") { #expect(ctx.textMatrix == .identity) }
        use("CGContext.textPosition") {
            ctx.textPosition = CGPoint(x: 3, y: 4)
            #expect(ctx.textMatrix.tx == 3 && ctx.textMatrix.ty == 4)
        }
        func inkWidth(_ matrix: CGAffineTransform) -> Int {
            let c = CGContext(data: nil, width: 200, height: 60, bitsPerComponent: 8, bytesPerRow: 0, space: CGColorSpaceCreateDeviceRGB(),
                              bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
            c.textMatrix = matrix
            c.textPosition = CGPoint(x: 5, y: 10)
            CTLineDraw(CTLine(string: "Ink", font: CTFontCreateWithName("DejaVu Sans", 16, nil)), c)
            let columns = (0..<200).filter { x in (0..<60).contains { y in c.bitmap[x, y].3 > 0 } }
            return (columns.max() ?? 0) - (columns.min() ?? 0)
        }
        let plain = inkWidth(.identity), doubled = inkWidth(CGAffineTransform(scaleX: 2, y: 2))
        #expect(plain > 10 && abs(doubled - 2 * plain) <= 2, "ink \(plain) then \(doubled) wide under a text matrix scaling by 2")
    }

    func contextDrawing() throws {
        let ctx = context()
        use("CGContext.beginPath()") { ctx.beginPath() }
        use("CGContext.move(to:)") { ctx.move(to: CGPoint(x: 2, y: 10)) }
        use("CGContext.addLine(to:)") { ctx.addLine(to: CGPoint(x: 18, y: 10)) }
        ctx.setLineWidth(4)
        ctx.setLineCap(.butt)
        use("CGContext.replacePathWithStrokedPath()") {
            ctx.replacePathWithStrokedPath()
            let box = ctx.path?.boundingBox ?? .null
            #expect(close([box.minX, box.minY, box.maxX, box.maxY], [2, 8, 18, 12], 1e-6), "the stroke's outline: \(box)")
        }
        use("CGContext.path") { #expect(ctx.path != nil) }
        use("CGContext.fillPath(using:)") {
            ctx.setFillColor(CGColor(red: 0, green: 0, blue: 1, alpha: 1))
            ctx.fillPath(using: .winding)
            #expect(close(pixel(ctx, 10, 9), [0, 0, 1, 1]) && pixel(ctx, 10, 13)[3] == 0, "the outline filled is the line stroked")
        }
        use("CGContext.addCurve(to:control1:control2:)") { ctx.addCurve(to: CGPoint(x: 5, y: 5), control1: .zero, control2: .zero) }
        use("CGContext.addQuadCurve(to:control:)") { ctx.addQuadCurve(to: CGPoint(x: 6, y: 6), control: .zero) }
        use("CGContext.closePath()") { ctx.closePath() }
        use("CGContext.addRect(_:)") { ctx.addRect(CGRect(x: 0, y: 0, width: 1, height: 1)) }
        use("CGContext.addEllipse(in:)") { ctx.addEllipse(in: CGRect(x: 0, y: 0, width: 2, height: 2)) }
        use("CGContext.addPath(_:)") { ctx.addPath(CGPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1), transform: nil)) }
        use("CGContext.strokePath()") { ctx.strokePath() }
        use("CGContext.drawPath(using:)") { ctx.drawPath(using: .fill) }
        use("CGContext.fill(_:)") { ctx.fill(CGRect(x: 0, y: 0, width: 1, height: 1)) }
        use("CGContext.clear(_:)") {
            ctx.clear(CGRect(x: 0, y: 0, width: 20, height: 20))
            #expect(pixel(ctx, 10, 10)[3] == 0)
        }
        use("CGContext.clip(using:)") { ctx.clip(using: .winding) }
        use("CGContext.clip(to:)") { ctx.clip(to: CGRect(x: 0, y: 0, width: 20, height: 20)) }
        use("CGContext.draw(_:in:)") { ctx.draw(CGImage(bitmap: Bitmap(width: 1, height: 1) { _, _ in (0, 0, 0, 255) }), in: .zero) }
        use("CGContext.makeImage()") { #expect(ctx.makeImage()?.width == 20) }
        use("CGGradient.init(colorsSpace:colors:locations:)") {
            #expect(CGGradient(colorsSpace: nil, colors: [CGColor.black, CGColor.white], locations: [0, 1]) != nil)
            #expect(CGGradient(colorsSpace: nil, colors: [CGColor.black], locations: [0, 1]) == nil, "counts differ")
        }
        use("CGGradient.init(colorSpace:colorComponents:locations:count:)") {
            let ramp = CGGradient(colorSpace: CGColorSpaceCreateDeviceRGB(), colorComponents: [0, 0, 0, 1, 1, 1, 1, 1], locations: [0, 1], count: 2)
            #expect(abs((ramp?.premultipliedColor(at: 0.5).0 ?? 0) - 0.5) < 1e-6)
            #expect(CGGradient(colorSpace: CGColorSpaceCreateDeviceRGB(), colorComponents: [0, 0, 0, 1], locations: nil, count: 2) == nil)
        }
        use("kCGColorSpaceGenericRGB") {
            // Generic RGB components convert to sRGB: its red is sRGB's (255, 38, 0).
            let space = CGColorSpace(name: kCGColorSpaceGenericRGB)!
            let red = CGGradient(colorSpace: space, colorComponents: [1, 0, 0, 1], locations: nil, count: 1)!
            #expect(abs(Double(red.premultipliedColor(at: 0).1) * 255 - 38) < 0.5)
        }
        let gradient = CGGradient(colorsSpace: CGColorSpaceCreateDeviceRGB(), colors: [CGColor.black, CGColor.white], locations: nil)!
        use("CGContext.drawLinearGradient(_:start:end:options:)") {
            let c = context()
            c.drawLinearGradient(gradient, start: CGPoint(x: 0, y: 0), end: CGPoint(x: 20, y: 0), options: [])
            #expect(abs(pixel(c, 10, 5)[0] - 0.5) < 0.05)
        }
        use("CGContext.drawRadialGradient(_:startCenter:startRadius:endCenter:endRadius:options:)") {
            let c = context()
            c.drawRadialGradient(gradient, startCenter: CGPoint(x: 10, y: 10), startRadius: 0,
                                 endCenter: CGPoint(x: 10, y: 10), endRadius: 10, options: [])
            #expect(pixel(c, 10, 10)[0] < 0.1 && pixel(c, 15, 10)[0] > 0.4)
        }
    }

    /// Every CGBlendMode drawn by setBlendMode over a translucent backdrop, held to CGBlendMode's
    /// documented formulas where Apple gives one per channel (the Porter-Duff operators on
    /// premultiplied colours, and the separable modes that need no case split).
    func blendModes() throws {
        let s = [0.8, 0.32, 0.0, 0.8], d = [0.1, 0.3, 0.5, 0.5]
        func drawn(_ mode: CGBlendMode) -> [Double] {
            let c = context()
            c.setFillColor(CGColor(red: 0.2, green: 0.6, blue: 1, alpha: 0.5))
            c.fill(CGRect(x: 0, y: 0, width: 20, height: 20))
            c.setBlendMode(mode)
            c.setFillColor(CGColor(red: 1, green: 0.4, blue: 0, alpha: 0.8))
            c.fill(CGRect(x: 5, y: 5, width: 10, height: 10))
            #expect(close(pixel(c, 2, 2), d), "\(mode): outside the drawing the backdrop stays")
            return pixel(c, 10, 10)
        }
        func perChannel(_ f: (Double, Double, Double, Double) -> Double) -> [Double] {
            (0..<4).map { f(s[$0], d[$0], s[3], d[3]) }
        }
        /// The W3C formula for a separable mode B, which Apple's blend modes follow.
        func separable(_ b: (Double, Double) -> Double) -> [Double] {
            let sa = s[3], da = d[3]
            var out: [Double] = []
            for i in 0..<3 {
                let mixed: Double = b(s[i] / sa, d[i] / da)
                let kept: Double = s[i] * (1 - da) + d[i] * (1 - sa)
                out.append(kept + sa * da * mixed)
            }
            return out + [sa + da - sa * da]
        }
        let documented: [(CGBlendMode, [Double])] = [
            (.normal, separable { cs, _ in cs }),
            (.multiply, separable { cs, cb in cs * cb }),
            (.screen, separable { cs, cb in cs + cb - cs * cb }),
            (.darken, separable { cs, cb in min(cs, cb) }),
            (.lighten, separable { cs, cb in max(cs, cb) }),
            (.difference, separable { cs, cb in abs(cs - cb) }),
            (.exclusion, separable { cs, cb in cs + cb - 2 * cs * cb }),
            (.clear, [0, 0, 0, 0]),
            (.copy, s),
            (.sourceIn, perChannel { s, _, _, da in s * da }),
            (.sourceOut, perChannel { s, _, _, da in s * (1 - da) }),
            (.sourceAtop, perChannel { s, d, sa, da in s * da + d * (1 - sa) }),
            (.destinationOver, perChannel { s, d, _, da in s * (1 - da) + d }),
            (.destinationIn, perChannel { _, d, sa, _ in d * sa }),
            (.destinationOut, perChannel { _, d, sa, _ in d * (1 - sa) }),
            (.destinationAtop, perChannel { s, d, sa, da in s * (1 - da) + d * sa }),
            (.xor, perChannel { s, d, sa, da in s * (1 - da) + d * (1 - sa) }),
            (.plusLighter, perChannel { s, d, _, _ in min(1, s + d) }),
        ]
        for mode in CGBlendMode.allCases {
            use("CGBlendMode.\(mode)") {
                let got = drawn(mode)
                if let want = documented.first(where: { $0.0 == mode })?.1 {
                    #expect(close(got, want), "\(mode): \(got.map { $0 * 255 }) against \(want.map { $0 * 255 })")
                } else {
                    // The rest (overlay, dodge, burn, soft and hard light, the four non-separable
                    // ones, plus-darker) differ from source-over here, and stay in range.
                    #expect(!close(got, documented[0].1, 0.5 / 255), "\(mode) draws as normal")
                }
            }
        }
    }

    func text() {
        use("CTFontCreateWithName(_:_:_:)") { #expect(CTFontCreateWithName("DejaVu Sans", 12, nil).pointSize == 12) }
        let line = CTLine(string: "Hi", font: CTFontCreateWithName("DejaVu Sans", 12, nil))
        use("CTLineGetTypographicBounds(_:_:_:_:)") { #expect(CTLineGetTypographicBounds(line, nil, nil, nil) > 5) }
        use("CTLineDraw(_:_:)") {
            let c = context()
            c.textPosition = CGPoint(x: 1, y: 5)
            CTLineDraw(line, c)
            #expect((0..<20).contains { x in (0..<20).contains { y in pixel(c, x, y)[3] > 0 } })
        }
    }
}
