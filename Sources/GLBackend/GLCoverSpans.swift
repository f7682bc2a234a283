import Compositor

/// Where a path summed on the CPU covers anything, as whole-pixel rectangles for its cover to draw
/// instead of its whole bounds (`GLPathFill`, the CPU route): every pixel whose cover would blend a
/// colour of some byte above zero.
///
/// Why: on a driver that rasterizes on the CPU the cover's pixels were half or more of a
/// path-heavy frame (pr_1686, 9squares_AlBoardman and vcTransition1 drew in 0.45-0.55 of the
/// time with no cover at all), and a stroked ring's bounds are mostly its hole, a letter's partly
/// empty corners. A pixel left out is one whose cover rounds to a clear colour (path_cover.frag
/// rounds each channel, at most the colour's alpha, to a byte with a tie-break of half a step
/// and 1/1024: under 0.49902 / 255 it is 0), which source-over and plus leave as it is, so the
/// frame is the same bytes. Not a pixel of zero coverage: a ring's hole holds the float residue
/// of its edges' sums (1e-8 and the like), so each band was one rectangle from side to side. A
/// destination-in cover clears what it does not cover and is drawn whole.
///
/// The bounds are cut into bands of `bandRows` rows; each band into the runs of columns that some
/// row of it covers, runs nearer than `joiningGap` columns joined, so a band takes a rectangle or
/// two for a ring and one for most shapes: a few hundred triangles at most for a path hundreds of
/// pixels tall, where each extra pixel shaded costs more than its share of a triangle.
package enum GLCoverSpans {
    package static let bandRows = 8
    package static let joiningGap = 8
    /// The share of the bounds' pixels past which the cover is drawn over the bounds whole.
    package static let wholeAbove = 0.75

    /// A pixel's colour, in 255ths, under which the cover leaves it clear: half a step less the
    /// tie-break (0.49902), less a margin for the float arithmetic on the way.
    package static let clearBelow: Float = 0.49 / 255

    /// The rectangles, in target pixels, that hold every pixel of `bounds` where `fill` times
    /// `fillAlpha` plus `stroke` times `strokeAlpha` (each row by row over `bounds`, as
    /// `PathOp.coverage(of:evenOdd:within:)` makes them; each alpha the colour's times the op's
    /// opacity) reaches `clearBelow`; none where no pixel does.
    package static func rectangles(fill: [Float], fillAlpha: Float, stroke: [Float]?, strokeAlpha: Float,
                           within bounds: PixelRect) -> [PixelRect] {
        let width = bounds.width, height = bounds.height
        guard width > 0, height > 0, fill.count == width * height, stroke.map({ $0.count == fill.count }) ?? true else {
            return [bounds]
        }
        var rectangles: [PixelRect] = []
        var covered = [UInt8](repeating: 0, count: width + 1)
        fill.withUnsafeBufferPointer { fill in
            (stroke ?? []).withUnsafeBufferPointer { stroke in
                covered.withUnsafeMutableBufferPointer { covered in
                    for top in stride(from: 0, to: height, by: bandRows) {
                        let bottom = min(top + bandRows, height)
                        for x in 0..<width { covered[x] = 0 }
                        for y in top..<bottom {
                            let row = y * width
                            if stroke.isEmpty {
                                for x in 0..<width { covered[x] |= fill[row + x] * fillAlpha >= clearBelow ? 1 : 0 }
                            } else {
                                for x in 0..<width {
                                    covered[x] |= fill[row + x] * fillAlpha + stroke[row + x] * strokeAlpha >= clearBelow ? 1 : 0
                                }
                            }
                        }
                        // covered[width] stays 0: every run stops by then.
                        var x = 0
                        while x < width {
                            guard covered[x] != 0 else { x += 1; continue }
                            var stop = x + 1
                            while true {
                                while covered[stop] != 0 { stop += 1 }
                                var next = stop
                                while next < width, covered[next] == 0 { next += 1 }
                                guard next < width, next - stop < joiningGap else { break }
                                stop = next
                            }
                            rectangles.append(PixelRect(minX: bounds.minX + x, minY: bounds.minY + top,
                                                        maxX: bounds.minX + stop, maxY: bounds.minY + bottom))
                            x = stop
                        }
                    }
                }
            }
        }
        // Most of the bounds covered: the one quad. A driver that rasterizes on the CPU shades a
        // quad's inner tiles whole and bands' edges block by block, so bands over a filled shape
        // cost more than the few pixels they leave out (vcTransition1's two fills, 91% and 100% of
        // their bounds: 2.2-2.8 -> 2.9-3.3 ms a frame as bands).
        let kept = rectangles.reduce(0) { $0 + $1.width * $1.height }
        return Double(kept) > wholeAbove * Double(width * height) ? [bounds] : rectangles
    }
}
