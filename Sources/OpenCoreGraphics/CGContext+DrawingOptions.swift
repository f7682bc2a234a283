import Foundation

// The drawing options of Core Graphics that code written for Apple sets on a context: the blend
// mode (every CGBlendMode, by CGBlendMode.combine's formulas), anti-aliasing (off: a pixel is
// filled when at least half its area is covered), the font smoothing and subpixel switches (kept
// and readable; text here is drawn as filled outlines, grey-scale anti-aliased, which is what they
// leave when off), and replacing the path with its stroked outline.

extension CGContext {
    /// How later drawings combine with the pixels. Part of the graphics state.
    public func setBlendMode(_ mode: CGBlendMode) { state.blendMode = mode }
    public var blendMode: CGBlendMode { state.blendMode }

    /// Whether the context may anti-alias at all (not part of the graphics state).
    public func setAllowsAntialiasing(_ allows: Bool) { allowsAntialiasing = allows }
    /// Whether fills and strokes are anti-aliased where the context allows it (graphics state).
    public func setShouldAntialias(_ should: Bool) { state.shouldAntialias = should }

    public func setAllowsFontSmoothing(_ allows: Bool) { allowsFontSmoothing = allows }
    public func setShouldSmoothFonts(_ should: Bool) { state.shouldSmoothFonts = should }
    public func setAllowsFontSubpixelPositioning(_ allows: Bool) { allowsFontSubpixelPositioning = allows }
    public func setShouldSubpixelPositionFonts(_ should: Bool) { state.shouldSubpixelPositionFonts = should }
    public func setAllowsFontSubpixelQuantization(_ allows: Bool) { allowsFontSubpixelQuantization = allows }
    public func setShouldSubpixelQuantizeFonts(_ should: Bool) { state.shouldSubpixelQuantizeFonts = should }

    /// Whether fills and strokes are anti-aliased now (allowed and asked for).
    public var antialiases: Bool { allowsAntialiasing && state.shouldAntialias }

    /// Replaces the current path with the outline its stroke would fill, by the line settings.
    public func replacePathWithStrokedPath() {
        let outline = strokeOutline(of: currentPath)
        currentPath = CGMutablePath()
        currentPath.addPath(outline)
    }

    /// Coverage without anti-aliasing: a pixel is in when at least half its area is covered.
    static func alias(_ coverage: inout [Float]) {
        coverage.withUnsafeMutableBufferPointer { c in
            for i in c.indices where c[i] > 0 { c[i] = c[i] >= 0.5 ? 1 : 0 }
        }
    }

    /// `color(x, y)` (premultiplied, times the alpha) combined with each pixel by `mode`, the
    /// result weighted by the pixel's coverage and clip: R = D + (combine(S, D) - D) k. For the
    /// blend modes that is the spec's formula with the source's alpha times k, as source-over
    /// is; for the Porter-Duff operators it confines them to what the drawing covers.
    func compositeBlended(coverage: [Float], rows: Range<Int>, mode: CGBlendMode, alpha: Float, clip: [Float]?,
                          color: (Int, Int) -> (Float, Float, Float, Float)) {
        let w = width
        bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
            for i in (rows.lowerBound * w)..<(rows.upperBound * w) {
                var k = coverage[i]
                if let clip { k *= clip[i] }
                if k <= 0 { continue }
                let (r, g, b, a) = color(i % w, i / w)
                let p = i * 4
                let d = (Double(pixels[p]) / 255, Double(pixels[p + 1]) / 255, Double(pixels[p + 2]) / 255, Double(pixels[p + 3]) / 255)
                let s = (Double(r * alpha), Double(g * alpha), Double(b * alpha), Double(a * alpha))
                let out = mode.combine(source: (s.0, s.1, s.2, s.3), backdrop: (d.0, d.1, d.2, d.3))
                let weight = Double(k)
                pixels[p] = Self.quantize(Float(d.0 + (out.red - d.0) * weight))
                pixels[p + 1] = Self.quantize(Float(d.1 + (out.green - d.1) * weight))
                pixels[p + 2] = Self.quantize(Float(d.2 + (out.blue - d.2) * weight))
                pixels[p + 3] = Self.quantize(Float(d.3 + (out.alpha - d.3) * weight))
            }
        }
    }
}
