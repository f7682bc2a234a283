import Dispatch
import Foundation
import OpenCoreGraphics

/// What NVIDIA's FLIP (LDR) found: the per-pixel error map (0 = no visible difference, 1 = the
/// largest) and its mean, the figure FLIP's users quote.
public struct FLIPReport: Sendable, CustomStringConvertible {
    public let width: Int
    public let height: Int
    /// The observer's pixels per degree of visual angle the error was computed for.
    public let pixelsPerDegree: Float
    /// One error per pixel, row by row, in 0...1.
    public let errorMap: [Float]
    public let mean: Double
    public let maximum: Float

    /// The error at quantile `q` (0...1) of the pixels, e.g. 0.99 for the 99th percentile.
    public func percentile(_ q: Double) -> Float {
        let sorted = errorMap.sorted()
        return sorted[min(sorted.count - 1, max(0, Int((Double(sorted.count - 1) * q).rounded())))]
    }

    /// The error map in the magma colour map (black: none, through purple and orange to pale
    /// yellow: the most), as FLIP's own tools draw it.
    public var magmaImage: Bitmap {
        Bitmap(width: width, height: height) { x, y in Magma.color(errorMap[y * width + x]) }
    }

    public var description: String {
        String(format: "FLIP mean %.6f, max %.4f at %.1f pixels per degree", mean, maximum, pixelsPerDegree)
    }
}

/// FLIP, the difference evaluator of Andersson et al. ("FLIP: A Difference Evaluator for
/// Alternating Images", HPG 2020; the LDR form of the Ray Tracing Gems II chapter): the error a
/// person sees flipping between two images at a given viewing distance. Colours are filtered by
/// the eye's contrast sensitivity in the opponent space YCxCz and compared in Hunt-adjusted
/// L*a*b* with the HyAB distance; edges and points found by Gaussian derivative filters on the
/// achromatic channel raise the error where structure differs. Our own implementation of the
/// published method, with its separable filters; `PixelDiffReferenceTests` holds its mean to
/// the `flip-evaluator` package's within 1e-3.
///
/// Works on the colour a PNG of the bitmap holds (straight, not premultiplied) and, like the
/// reference tool, ignores alpha.
public enum FLIP {
    /// The reference tool's default: a 0.7 m wide 3840-pixel monitor seen from 0.7 m (about 67).
    public static let defaultPixelsPerDegree: Float = 0.7 * (3840 / 0.7) * (Float.pi / 180)
    /// The filters' radius grows with the pixels per degree (about 5 pixels per unit): beyond
    /// this the kernels outgrow any image, and their sizes would overflow.
    public static let maxPixelsPerDegree: Float = 1_000

    public static func evaluate(_ reference: Bitmap, _ test: Bitmap,
                                pixelsPerDegree: Float = defaultPixelsPerDegree) throws -> FLIPReport {
        try ComparisonError.requireSameSize(reference, test)
        guard pixelsPerDegree.isFinite, pixelsPerDegree > 0, pixelsPerDegree <= maxPixelsPerDegree else {
            throw ComparisonError.invalidSetting("FLIP's pixels per degree must be in (0, \(Int(maxPixelsPerDegree))], got \(pixelsPerDegree)")
        }
        let width = reference.width, height = reference.height
        if Bitmap.samePixels(reference, test) {
            // Identical images: no colour or feature difference anywhere, an error of 0.
            return FLIPReport(width: width, height: height, pixelsPerDegree: pixelsPerDegree,
                              errorMap: [Float](repeating: 0, count: width * height), mean: 0, maximum: 0)
        }
        let ref = OpponentImage(reference), tst = OpponentImage(test)
        var errors = colorDifference(ref, tst, width: width, height: height, ppd: pixelsPerDegree)
        applyFeatureDifference(ref, tst, to: &errors, width: width, height: height, ppd: pixelsPerDegree)
        var sum = 0.0
        var maximum: Float = 0
        for e in errors {
            sum += Double(e)
            maximum = max(maximum, e)
        }
        return FLIPReport(width: width, height: height, pixelsPerDegree: pixelsPerDegree, errorMap: errors,
                          mean: sum / Double(errors.count), maximum: maximum)
    }

    /// The larger of the colour and feature filters' radii at `ppd`, in pixels.
    static func filterRadius(ppd: Float) -> Int {
        max(spatialFilters(ppd: ppd).y.count / 2, featureFilters(ppd: ppd).g.count / 2)
    }

    // MARK: Constants of the method (the paper's).

    /// Exponents and the break point of the colour error's remapping.
    static let qc: Float = 0.7, pc: Float = 0.4, pt: Float = 0.95
    /// Feature filter width (degrees) and the feature error's exponent.
    static let featureWidth: Float = 0.082, qf: Float = 0.5
    /// The contrast sensitivity functions as sums of Gaussians: amplitude a and scale b for
    /// Y, Cx and Cz (Cz has a second, negative-free lobe).
    static let a1: (Float, Float, Float) = (1, 1, 34.1), b1: (Float, Float, Float) = (0.0047, 0.0053, 0.04)
    static let a2Cz: Float = 13.5, b2Cz: Float = 0.025
    static let d65: (Float, Float, Float) = (0.950428545, 1, 1.088900371)

    /// The image in YCxCz (linear opponent space: Y achromatic, Cx red-green, Cz blue-yellow).
    struct OpponentImage {
        var y: [Float], cx: [Float], cz: [Float]

        init(_ bitmap: Bitmap) {
            let straight = Pixelmatch.straight(bitmap.pixels)
            let count = bitmap.width * bitmap.height
            let decode: [Float] = (0..<256).map { v in
                let c = Float(v) / 255
                return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
            }
            y = [Float](repeating: 0, count: count)
            cx = y
            cz = y
            for i in 0..<count {
                let xyz = FLIP.xyz(decode[Int(straight[i * 4])], decode[Int(straight[i * 4 + 1])], decode[Int(straight[i * 4 + 2])])
                let nx = xyz.0 / d65.0, ny = xyz.1, nz = xyz.2 / d65.2
                y[i] = 116 * ny - 16
                cx[i] = 500 * (nx - ny)
                cz[i] = 200 * (ny - nz)
            }
        }
    }

    /// Linear sRGB to CIE XYZ (D65), the exact rational form of the sRGB matrix.
    static func xyz(_ r: Float, _ g: Float, _ b: Float) -> (Float, Float, Float) {
        // The matrix's exact fractions, divided in Double (the denominators are not Floats).
        (Float(10135552.0 / 24577794) * r + Float(8788810.0 / 24577794) * g + Float(4435075.0 / 24577794) * b,
         Float(2613072.0 / 12288897) * r + Float(8788810.0 / 12288897) * g + Float(887015.0 / 12288897) * b,
         Float(1425312.0 / 73733382) * r + Float(8788810.0 / 73733382) * g + Float(70074185.0 / 73733382) * b)
    }

    static func linearRGB(_ x: Float, _ y: Float, _ z: Float) -> (Float, Float, Float) {
        (3.241003275 * x - 1.537398934 * y - 0.498615861 * z,
         -0.969224334 * x + 1.875930071 * y + 0.041554224 * z,
         0.055639423 * x - 0.204011202 * y + 1.057148933 * z)
    }

    static func lab(_ x: Float, _ y: Float, _ z: Float) -> (Float, Float, Float) {
        let delta: Float = 6 / 29
        func f(_ t: Float) -> Float { t > delta * delta * delta ? pow(t, 1 / 3) : t / (3 * delta * delta) + 4 / 29 }
        let fx = f(x / d65.0), fy = f(y), fz = f(z / d65.2)
        return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }

    /// Hunt-adjusted Lab: chroma scaled by lightness (dark colours' chroma counts for less).
    static func hunt(_ lab: (Float, Float, Float)) -> (Float, Float, Float) {
        (lab.0, 0.01 * lab.0 * lab.1, 0.01 * lab.0 * lab.2)
    }

    /// HyAB: city-block in lightness, Euclidean in chroma.
    static func hyab(_ p: (Float, Float, Float), _ q: (Float, Float, Float)) -> Float {
        abs(p.0 - q.0) + ((p.1 - q.1) * (p.1 - q.1) + (p.2 - q.2) * (p.2 - q.2)).squareRoot()
    }

    /// The largest colour distance (green against blue), which the remapping sends to 1.
    static var maxDistance: Float {
        let green = linearColorToHuntLab(0, 1, 0), blue = linearColorToHuntLab(0, 0, 1)
        return pow(hyab(green, blue), qc)
    }

    static func linearColorToHuntLab(_ r: Float, _ g: Float, _ b: Float) -> (Float, Float, Float) {
        let c = xyz(r, g, b)
        return hunt(lab(c.0, c.1, c.2))
    }

    // MARK: Colour pipeline.

    /// One-dimensional factors of the separable contrast sensitivity filters: Y, Cx, and the two
    /// halves of Cz's sum of Gaussians (each the square root of its 2-D weight, so that the two
    /// passes multiply back to it).
    static func spatialFilters(ppd: Float) -> (y: [Float], cx: [Float], cz1: [Float], cz2: [Float]) {
        let pi = Float.pi, piSquared = Float.pi * Float.pi
        let largestScale = max(b1.0, b1.1, b1.2, b2Cz)
        let radius = Int((3 * (largestScale / (2 * piSquared)).squareRoot() * ppd).rounded(.up))
        func gaussian(_ x2: Float, _ a: Float, _ b: Float) -> Float { a * (pi / b).squareRoot() * exp(-piSquared * x2 / b) }
        func gaussianRoot(_ x2: Float, _ a: Float, _ b: Float) -> Float { (a * (pi / b).squareRoot()).squareRoot() * exp(-piSquared * x2 / b) }
        var y: [Float] = [], cx: [Float] = [], cz1: [Float] = [], cz2: [Float] = []
        for i in -radius...radius {
            let x = Float(i) / ppd, x2 = x * x
            y.append(gaussian(x2, a1.0, b1.0))
            cx.append(gaussian(x2, a1.1, b1.1))
            cz1.append(gaussianRoot(x2, a1.2, b1.2))
            cz2.append(gaussianRoot(x2, a2Cz, b2Cz))
        }
        let sumY = y.reduce(0, +), sumCx = cx.reduce(0, +)
        let sumCz1 = cz1.reduce(0, +), sumCz2 = cz2.reduce(0, +)
        let normCz = 1 / (sumCz1 * sumCz1 + sumCz2 * sumCz2).squareRoot()
        return (y.map { $0 / sumY }, cx.map { $0 / sumCx }, cz1.map { $0 * normCz }, cz2.map { $0 * normCz })
    }

    /// Both images filtered by the contrast sensitivity functions, then their Hunt-adjusted
    /// HyAB distance, remapped to 0...1 (0...pc of the largest distance to 0...pt, the rest above).
    static func colorDifference(_ ref: OpponentImage, _ tst: OpponentImage, width: Int, height: Int, ppd: Float) -> [Float] {
        let filters = spatialFilters(ppd: ppd)
        let radius = filters.y.count / 2
        let count = width * height
        // x pass: four channels per image (Y, Cx, Cz by each half of its filter).
        var horizontal = [[Float]](repeating: [Float](repeating: 0, count: count), count: 8)
        let sources = [ref.y, ref.cx, ref.cz, ref.cz, tst.y, tst.cx, tst.cz, tst.cz]
        let kernels = [filters.y, filters.cx, filters.cz1, filters.cz2]
        for channel in 0..<8 {
            convolve(sources[channel], into: &horizontal[channel], kernel: kernels[channel % 4], radius: radius,
                     width: width, height: height, alongX: true)
        }
        var vertical = horizontal
        for channel in 0..<8 {
            convolve(horizontal[channel], into: &vertical[channel], kernel: kernels[channel % 4], radius: radius,
                     width: width, height: height, alongX: false)
        }
        let cmax = maxDistance, pccmax = pc * cmax
        var result = [Float](repeating: 0, count: count)
        func huntLab(_ base: Int, _ i: Int) -> (Float, Float, Float) {
            let yy = vertical[base][i], cxx = vertical[base + 1][i], czz = vertical[base + 2][i] + vertical[base + 3][i]
            // YCxCz back to XYZ, to linear RGB clamped to the displayable, and on to Lab.
            let ny = (yy + 16) / 116
            let x = (ny + cxx / 500) * d65.0, y = ny, z = (ny - czz / 200) * d65.2
            let rgb = linearRGB(x, y, z)
            return linearColorToHuntLab(min(max(rgb.0, 0), 1), min(max(rgb.1, 0), 1), min(max(rgb.2, 0), 1))
        }
        for i in 0..<count {
            var difference = pow(hyab(huntLab(0, i), huntLab(4, i)), qc)
            difference = difference < pccmax ? difference * pt / pccmax : pt + (difference - pccmax) / (cmax - pccmax) * (1 - pt)
            result[i] = difference
        }
        return result
    }

    /// One pass of a separable filter, edges clamped (the border pixel repeats).
    static func convolve(_ source: [Float], into output: inout [Float], kernel: [Float], radius: Int,
                         width: Int, height: Int, alongX: Bool) {
        source.withUnsafeBufferPointer { src in
            kernel.withUnsafeBufferPointer { k in
                output.withUnsafeMutableBufferPointer { out in
                    nonisolated(unsafe) let (src, k, out) = (src, k, out)
                    DispatchQueue.concurrentPerform(iterations: height) { y in
                        let row = y * width
                        for x in 0..<width {
                            var sum: Float = 0
                            if alongX {
                                for j in -radius...radius { sum += k[j + radius] * src[row + min(max(x + j, 0), width - 1)] }
                            } else {
                                for j in -radius...radius { sum += k[j + radius] * src[min(max(y + j, 0), height - 1) * width + x] }
                            }
                            out[row + x] = sum
                        }
                    }
                }
            }
        }
    }

    // MARK: Feature pipeline.

    /// Gaussian, first and second derivative factors of the edge and point detectors, each
    /// normalised (the Gaussian to sum 1, each derivative's positive and negative parts to 1).
    static func featureFilters(ppd: Float) -> (g: [Float], dg: [Float], ddg: [Float]) {
        let sigma = 0.5 * featureWidth * ppd
        let radius = Int((3 * sigma).rounded(.up))
        var g: [Float] = [], dg: [Float] = [], ddg: [Float] = []
        for i in -radius...radius {
            let x = Float(i)
            let value = exp(-(x * x) / (2 * sigma * sigma))
            g.append(value)
            dg.append(-x * value)
            ddg.append((x * x / (sigma * sigma) - 1) * value)
        }
        let gSum = g.reduce(0, +)
        func normalise(_ v: [Float]) -> [Float] {
            let positive = v.filter { $0 > 0 }.reduce(0, +), negative = -v.filter { $0 <= 0 }.reduce(0, +)
            return v.map { $0 / ($0 > 0 ? positive : negative) }
        }
        return (g.map { $0 / gSum }, normalise(dg), normalise(ddg))
    }

    /// Edges (first derivative) and points (second derivative) of each image's lightness; where
    /// they differ the colour error is raised: error = colour ^ (1 - feature).
    static func applyFeatureDifference(_ ref: OpponentImage, _ tst: OpponentImage, to errors: inout [Float],
                                       width: Int, height: Int, ppd: Float) {
        let filters = featureFilters(ppd: ppd)
        let radius = filters.g.count / 2
        let count = width * height
        let lightness = [ref.y.map { ($0 + 16) / 116 }, tst.y.map { ($0 + 16) / 116 }]
        var edges: [[Float]] = [], points: [[Float]] = []
        for image in lightness {
            var dx = [Float](repeating: 0, count: count), ddx = dx, gx = dx
            convolve(image, into: &dx, kernel: filters.dg, radius: radius, width: width, height: height, alongX: true)
            convolve(image, into: &ddx, kernel: filters.ddg, radius: radius, width: width, height: height, alongX: true)
            convolve(image, into: &gx, kernel: filters.g, radius: radius, width: width, height: height, alongX: true)
            var edgeX = dx, pointX = ddx, edgeY = dx, pointY = dx
            convolve(dx, into: &edgeX, kernel: filters.g, radius: radius, width: width, height: height, alongX: false)
            convolve(ddx, into: &pointX, kernel: filters.g, radius: radius, width: width, height: height, alongX: false)
            convolve(gx, into: &edgeY, kernel: filters.dg, radius: radius, width: width, height: height, alongX: false)
            convolve(gx, into: &pointY, kernel: filters.ddg, radius: radius, width: width, height: height, alongX: false)
            edges.append((0..<count).map { (edgeX[$0] * edgeX[$0] + edgeY[$0] * edgeY[$0]).squareRoot() })
            points.append((0..<count).map { (pointX[$0] * pointX[$0] + pointY[$0] * pointY[$0]).squareRoot() })
        }
        let normalization = 1 / Float(2).squareRoot()
        for i in 0..<count {
            let feature = pow(normalization * max(abs(edges[0][i] - edges[1][i]), abs(points[0][i] - points[1][i])), qf)
            errors[i] = pow(errors[i], 1 - feature)
        }
    }
}

/// The magma colour map (matplotlib's perceptually uniform map, which FLIP draws its error maps
/// in), by linear interpolation between nine of its points.
enum Magma {
    static let stops: [(Float, Float, Float)] = [
        (0.001462, 0.000466, 0.013866), (0.113094, 0.065492, 0.276784), (0.316654, 0.071690, 0.485380),
        (0.512831, 0.148179, 0.507648), (0.716387, 0.214982, 0.475290), (0.904281, 0.319610, 0.388137),
        (0.986700, 0.535582, 0.382210), (0.996898, 0.769591, 0.534892), (0.987053, 0.991438, 0.749504),
    ]

    static func color(_ value: Float) -> (UInt8, UInt8, UInt8, UInt8) {
        let t = min(max(value.isNaN ? 0 : value, 0), 1) * Float(stops.count - 1)
        let i = min(Int(t), stops.count - 2), f = t - Float(i)
        let a = stops[i], b = stops[i + 1]
        func channel(_ p: Float, _ q: Float) -> UInt8 { UInt8((p + (q - p) * f) * 255 + 0.5) }
        return (channel(a.0, b.0), channel(a.1, b.1), channel(a.2, b.2), 255)
    }
}

/// FLIP as a comparator: the images match while the mean FLIP error is at most `maxMean` and
/// at most `maxPixelShare` of the pixels have an error above `pixelThreshold`.
public struct FLIPComparator: RowComparator {
    public var maxMean: Double
    public var pixelThreshold: Float
    public var maxPixelShare: Double
    public var pixelsPerDegree: Float

    public init(maxMean: Double = 0.05, pixelThreshold: Float = 0.5, maxPixelShare: Double = 0,
                pixelsPerDegree: Float = FLIP.defaultPixelsPerDegree) {
        self.maxMean = maxMean
        self.pixelThreshold = pixelThreshold
        self.maxPixelShare = maxPixelShare
        self.pixelsPerDegree = pixelsPerDegree
    }

    public func compare(_ expected: Bitmap, _ actual: Bitmap) throws -> ComparatorVerdict {
        let report = try FLIP.evaluate(expected, actual, pixelsPerDegree: pixelsPerDegree)
        var tally = DiffTally()
        add(report, rows: 0..<report.height, to: &tally)
        let threshold = pixelThreshold, width = report.width
        return ComparatorVerdict(
            judge(tally, width: report.width, height: report.height),
            picture: { report.magmaImage },
            mask: { DiffMask.make(expected: expected) { x, y in report.errorMap[y * width + x] > threshold } })
    }

    /// The radius of the larger of its filters (colour and feature): a row's error depends on the
    /// pixels that far away.
    public func contextRows(width: Int, height: Int) -> Int { FLIP.filterRadius(ppd: pixelsPerDegree) }

    public func tally(_ expected: Bitmap, _ actual: Bitmap, rows: Range<Int>, firstRow: Int, imageHeight: Int, into tally: inout DiffTally) throws {
        add(try FLIP.evaluate(expected, actual, pixelsPerDegree: pixelsPerDegree), rows: rows, to: &tally)
    }

    /// The errors of `rows` in row order: the mean sums them in the order a whole image's does.
    private func add(_ report: FLIPReport, rows: Range<Int>, to tally: inout DiffTally) {
        var over = 0
        var maximum = Float(tally.largest)
        for e in report.errorMap[rows.lowerBound * report.width..<rows.upperBound * report.width] {
            tally.sum += Double(e)
            maximum = max(maximum, e)
            if e > pixelThreshold { over += 1 }
        }
        tally.largest = Double(maximum)
        tally.differing += over
        tally.compared += rows.count * report.width
    }

    public func judge(_ tally: DiffTally, width: Int, height: Int) -> Judgement {
        let count = max(tally.compared, 1)
        let mean = tally.sum / Double(count)
        let share = Double(tally.differing) / Double(count)
        let passed = mean <= maxMean && share <= maxPixelShare
        let summary = String(format: "flip: mean %.6f (limit %.6f), max %.4f, %d pixels over %.3f (%.4f%%, limit %.4f%%)",
                             mean, maxMean, Float(tally.largest), tally.differing, pixelThreshold, share * 100, maxPixelShare * 100)
        return Judgement(passed: passed, comparator: "flip", differingPixels: tally.differing, pixelCount: tally.compared,
                         summary: summary, score: mean)
    }
}
