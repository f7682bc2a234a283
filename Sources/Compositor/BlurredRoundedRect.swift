import CPixelKernels
import Foundation
import OpenCoreGraphics

/// A shadow in closed form: a rounded rectangle convolved with a Gaussian, evaluated per pixel
/// instead of drawn, blurred and composited through offscreen passes. Along x the
/// convolution is exact (a difference of two erfs over the row's width, which the corners
/// narrow); along y it is integrated with `ySamples` midpoint samples of the Gaussian (Evan
/// Wallace's method). With square corners both axes are exact. Both backends evaluate exactly
/// this function (the GLSL mirrors it), with the same erf approximation.
public struct BlurredRoundedRect: Hashable, Sendable {
    /// Device pixel (x, y, 1) to the shape's plane, homogeneous: where `rect` lies.
    public var deviceToLocal: ProjectiveTransform2D
    public var rect: Rect
    public var cornerRadius: Double
    /// The Gaussian's standard deviation in the shape's plane.
    public var sigma: Double
    /// Premultiplied colour at full coverage.
    public var color: PremultipliedColor

    /// Samples along y for rounded corners.
    public static let ySamples = 8

    public init(deviceToLocal: ProjectiveTransform2D, rect: Rect, cornerRadius: Double, sigma: Double, color: PremultipliedColor) {
        self.deviceToLocal = deviceToLocal
        self.rect = rect
        self.cornerRadius = cornerRadius
        self.sigma = sigma
        self.color = color
    }

    /// erf to within 5e-4 (Abramowitz and Stegun 7.1.27), in Float as the GPU computes it.
    @inlinable
    public static func erf(_ x: Float) -> Float {
        let a = abs(x)
        var d: Float = 1 + (0.278393 + (0.230389 + 0.078108 * (a * a)) * a) * a
        d *= d
        let e = 1 - 1 / (d * d)
        return x < 0 ? -e : e
    }

    /// From here on `erf` is ±1 to the bit (from 5.409, with a margin): RowEvaluator's flat
    /// stretches rest on it.
    public static var erfWhole: Float { 5.5 }

    /// `erf` in every lane, with its arithmetic in the same order (the same bits as eight calls).
    @inlinable
    public static func erf(_ x: SIMD8<Float>) -> SIMD8<Float> {
        let negative = x .< 0
        let a = x.replacing(with: -x, where: negative)
        var d: SIMD8<Float> = 1 + (0.278393 + (0.230389 + 0.078108 * (a * a)) * a) * a
        d *= d
        let e = 1 - 1 / (d * d)
        return e.replacing(with: -e, where: negative)
    }

    /// Whether every pixel of a device row lies at one height in the plane `deviceToLocal` maps
    /// to (neither turned nor in perspective).
    static func isLevel(_ m: ProjectiveTransform2D) -> Bool {
        m.m12 == 0 && m.m13 == 0 && m.m23 == 0 && m.m33 > 0
    }

    /// The blurred shape's alpha (0...1) at device point (x, y).
    public func alpha(atX x: Double, y: Double) -> Float {
        guard let (px, py) = planePoint(atX: x, y: y) else { return 0 }
        return Self.alpha(px: px, py: py, halfWidth: Float(rect.width / 2), halfHeight: Float(rect.height / 2),
                          corner: Float(cornerRadius), sigma: Float(sigma))
    }

    /// Device point (x, y) in the shape's plane, relative to the rectangle's centre; nil behind
    /// the eye.
    @inlinable
    public func planePoint(atX x: Double, y: Double) -> (px: Float, py: Float)? {
        let m = deviceToLocal
        let w = x * m.m13 + y * m.m23 + m.m33
        guard w > 0 else { return nil }
        return (Float((x * m.m11 + y * m.m21 + m.m31) / w - (rect.x + rect.width / 2)),
                Float((x * m.m12 + y * m.m22 + m.m32) / w - (rect.y + rect.height / 2)))
    }

    /// `alpha(atX:y:)` for the pixels of a run, most of whose points share their height in the
    /// shape's plane (a shadow not turned or tilted: every pixel of a row): what depends on that
    /// height alone (the samples along y, their Gaussian weights, the widths of the shape's
    /// rows there) is made once per height, the rest per pixel in `alpha(px:py:...)`'s order, so
    /// each value is that function's to the bit. Where every sample's row is as wide (away from
    /// the corners) the row's blurred width is one erf pair for all of them.
    public struct RowEvaluator {
        public let shape: BlurredRoundedRect
        private let halfWidth: Float, halfHeight: Float, corner: Float, sigma: Float, k: Float
        private var height = Float.nan
        /// The samples' row half widths and Gaussian weights, a lane each: the sixteen erfs of a
        /// pixel are computed eight at a time (the same arithmetic in each lane as `erf`, so the
        /// same bits), which was half of a wide shadow's time on the CPU.
        private var widths = SIMD8<Float>(), weights = SIMD8<Float>(), step: Float = 0
        private var squareAlongY: Float = 0
        /// The samples' distinct half widths (the first `distinctCount` lanes: the straight
        /// sides' and a corner sample's or two) and which of them each sample has: one erf
        /// pair serves all the samples of a width.
        private var distinct = SIMD8<Float>(), slot = SIMD8<Int32>(), distinctCount = 0
        /// Where every erf of the row is ±1 exactly: a point at most `flatBound` from the centre
        /// along x lies over 5.5 / k (5.5 in erf's argument) inside every sample's half width,
        /// and `erf(x)` is 1 to the bit from x = 5.409 on (1 - 1 / d^4 with d^4 past 2^25; the
        /// erf tests hold it). Each term is then 0.5 * 2 * weight * step, so the row's value
        /// there is one number: worked out at the first such pixel (`flatValue`) and given again
        /// (a small blur's long straight stretches, most of its pixels).
        private var flatBound: Float = -.infinity, flatValue: Float?
        /// A run's px values (`alphas`), kept to be used again.
        private var scratch: [Float] = []
        /// A sample row's blurred width along the run, by the row's half width (its bits), the
        /// most recently used first: `0.5 * (erf((px + w) k) - erf((px - w) k))` depends on the
        /// pixels' px and w alone, and most of a wide shadow's rows sample the same rows of the
        /// shape (the straight sides', and away from its ends the same corner rows), so their
        /// erfs are made once and each pixel is the weighted sum of eight values. Kept for one
        /// run's pixels (`cachedRun`: its first pixel, count and the row's share of px), in one
        /// buffer (`rowStore`, `rowStride` floats a row) that the C kernels index by slot:
        /// `rowWidths` is each slot's width, `recency` the slots most recently used first.
        private var rowStore: [Float] = [], rowStride = 0
        private var rowWidths: [UInt32] = [], recency: [Int] = []
        private var cachedRun: (first: Int, count: Int, rowPart: UInt64) = (0, -1, 0)
        /// The kept run's pixels whose px are their mirror images' negated (`mirrorBase` - i).
        private var mirrored = 0..<0, mirrorBase = 0
        /// Rows kept: a row has at most eight distinct widths, most of them its neighbours'.
        private static let rowCacheCapacity = 12

        /// A turned or tilted wide shadow's grid (`BlurredRoundedRectProfile`), read as the GPU
        /// reads it: where a device row does not lie at one height in the shape's plane, every
        /// pixel has a height of its own and the closed form's sixteen erfs and eight Gaussians
        /// (a radius-100 shadow turning: 84 ms a frame, 15x the still one's) become a bilinear
        /// read of the grid, within 0.6 / 255 of the closed form (`BlurredRoundedRectProfileTests`).
        /// Nil for level shadows (each row's samples are shared: the closed form, exact) and
        /// sharp ones (no grid).
        public let profile: BlurredRoundedRectProfile?
        /// A turned or tilted sharp shadow's (no grid) region where the closed form is one number
        /// (`ConstantRegion`: the grid's origin, and the arms that reach the edges between the
        /// corners): each piece's number is worked out at its first pixel (`pieceValues`, NaN
        /// until then) and given to the rest, whose rows would each be prepared anew (every pixel
        /// of a turned shadow has a height of its own): a radius-1 shadow of a turning 420-point
        /// card was 14 ms a frame, 3x its radius-4 one.
        private let constant: ConstantRegion?
        private var pieceValues = SIMD3<Float>(repeating: .nan)
        /// Heights whose samples all lie on the straight sides at full width, the window of
        /// samples unclamped (`isStraight`), prepare the same samples, weights and widths to
        /// the bit: where the height prepared last was one and the next is too, preparing is
        /// skipped (the pixels along a turned shadow's sides, each at a height of its own, made
        /// eight Gaussians each). The unclamped window's step and its first and last samples'
        /// offsets, as `samplesAlongY` and `prepare` make them.
        private var preparedStraight = false
        private let straightStep: Float, straightFirst: Float, straightLast: Float
        /// The unclamped window's Gaussian weights, made once: every height whose window lies
        /// inside the box has these samples, so these weights to the bit (a turned shadow's
        /// corners prepare a height a pixel, and eight exponentials were most of it).
        private let straightWeights: SIMD8<Float>

        public init(_ shape: BlurredRoundedRect) {
            self.shape = shape
            halfWidth = Float(shape.rect.width / 2)
            halfHeight = Float(shape.rect.height / 2)
            corner = Float(shape.cornerRadius)
            sigma = Float(shape.sigma)
            k = Float(0.5).squareRoot() / sigma
            // A corner past half a side (which layers never have: Core Animation clamps it) is
            // off the grid's bound (past 0.6 / 255 at a few points): the closed form.
            let gridded = !BlurredRoundedRect.isLevel(shape.deviceToLocal) && corner <= min(halfWidth, halfHeight)
            let key = BlurredRoundedRectProfile.Key(shape)
            profile = gridded ? BlurredRoundedRectProfile.shared(key) : nil
            // Sharp ones (past the grid's size) keep the closed form, but not in their constant region.
            constant = gridded && profile == nil ? ConstantRegion(key) : nil
            // samplesAlongY of a height whose window lies inside the box (a box without end),
            // and the samples as prepare steps through them.
            let window = BlurredRoundedRect.samplesAlongY(py: 0, halfHeight: .infinity, sigma: sigma)
            let step = window.step
            var last = window.first
            straightStep = step
            straightFirst = last
            var straightWeights = SIMD8<Float>()
            for i in 0..<BlurredRoundedRect.ySamples {
                straightWeights[i] = BlurredRoundedRect.gaussian(last, sigma: sigma)
                if i + 1 < BlurredRoundedRect.ySamples { last += step }
            }
            straightLast = last
            self.straightWeights = straightWeights
        }

        public mutating func alpha(atX x: Double, y: Double) -> Float {
            guard let (px, py) = shape.planePoint(atX: x, y: y) else { return 0 }
            if let profile { return profile.interpolated(px: px, py: py) }
            return unprofiled(px, py)
        }

        /// The alpha at (px, py) of the plane where there is no grid: a constant piece's number,
        /// or the closed form.
        @inline(__always)
        private mutating func unprofiled(_ px: Float, _ py: Float) -> Float {
            guard let piece = constant?.piece(px: px, py: py) else { return closedForm(px, py) }
            if !pieceValues[piece].isNaN { return pieceValues[piece] }
            let value = closedForm(px, py)
            pieceValues[piece] = value
            return value
        }

        /// Whether every sample of height py lies on the shape's straight sides, its window of
        /// samples unclamped: `prepare` makes the same state for every such height. Worked out
        /// as `samplesAlongY` and `rowWidth` work them out: the same first sample and step, and the
        /// first and last samples' rows (the farthest from py) with no corner to narrow them.
        @inline(__always)
        private func isStraight(_ py: Float) -> Bool {
            guard corner > 0 else { return false }
            let (first, step) = BlurredRoundedRect.samplesAlongY(py: py, halfHeight: halfHeight, sigma: sigma)
            return isUnclampedWindow(first, step)
                && halfHeight - corner - abs(py - straightFirst) >= 0 && halfHeight - corner - abs(py - straightLast) >= 0
        }

        /// Whether samplesAlongY's first sample and step are the unclamped window's (its
        /// samples, so its weights, to the bit).
        @inline(__always)
        private func isUnclampedWindow(_ first: Float, _ step: Float) -> Bool {
            first.bitPattern == straightFirst.bitPattern && step.bitPattern == straightStep.bitPattern
        }

        /// The closed form at (px, py) of the plane, its row's samples prepared where the height
        /// is new (and its state not the same as the last height's).
        private mutating func closedForm(_ px: Float, _ py: Float) -> Float {
            if py.bitPattern != height.bitPattern {
                let straight = isStraight(py)
                if straight && preparedStraight {
                    height = py
                } else {
                    prepare(py)
                    preparedStraight = straight
                }
            }
            guard abs(px) <= flatBound else { return value(px) }
            if let flatValue { return flatValue }
            let value = value(px)
            flatValue = value
            return value
        }

        /// The row's alpha at px, worked out.
        @inline(__always)
        private func value(_ px: Float) -> Float {
            if corner <= 0 {
                let ax = 0.5 * (erf((px + halfWidth) * k) - erf((px - halfWidth) * k))
                return ax * squareAlongY
            }
            var value: Float = 0
            if distinctCount == 1 {
                let row = 0.5 * (erf((px + widths[0]) * k) - erf((px - widths[0]) * k))
                for i in 0..<ySamples { value += row * weights[i] * step }
            } else {
                // Each lane as the scalar expression 0.5 * (erf(..) - erf(..)) * weight * step,
                // then summed in order, as alpha(px:py:...) sums.
                let terms = 0.5 * (BlurredRoundedRect.erf((px + widths) * k) - BlurredRoundedRect.erf((px - widths) * k)) * weights * step
                for i in 0..<ySamples { value += terms[i] }
            }
            return value
        }

        /// Whether every pixel of a device row lies at one height in the shape's plane (a
        /// shadow neither turned nor in perspective): what `alphas(row:from:count:into:)` needs.
        public var rowsShareHeight: Bool { BlurredRoundedRect.isLevel(shape.deviceToLocal) }

        /// `alpha(atX:y:)` at the centres of `count` pixels of a row, from x = `first` + 0.5 on,
        /// into `out`: the same bits, worked out by vectorized loops in C (`CPixelKernels`, the
        /// same operations in the same order). Where `rowsShareHeight`, the row's samples along y
        /// are one set: each of their distinct half widths (the straight sides' and a corner
        /// sample's or two) is one row of erf pairs for all the samples that share it, kept for
        /// the rows after (`rowStore`), and the px values of a run the rows before had are kept
        /// too. A pixel then costs the weighted sum of its eight samples, and erfs only for
        /// widths its row is the first to sample (`alpha(atX:y:)` makes 16 a pixel).
        public mutating func alphas(row y: Double, from first: Int, count: Int, into out: UnsafeMutablePointer<Float>) {
            guard count > 0 else { return }
            if let profile {
                // Each pixel as `alpha(atX:y:)` reads it, in C (`oq_profile_row`, the same
                // operations in the same order).
                // The map's nine numbers on the stack (an array literal here was a heap block a row).
                let m = shape.deviceToLocal
                var map = (m.m11, m.m12, m.m13, m.m21, m.m22, m.m23, m.m31, m.m32, m.m33)
                withUnsafeBytes(of: &map) { map in
                    profile.paddedValues.withUnsafeBufferPointer { grid in
                        oq_profile_row(map.baseAddress!.assumingMemoryBound(to: Double.self), shape.rect.x + shape.rect.width / 2,
                                       shape.rect.y + shape.rect.height / 2, first, y, count, grid.baseAddress, profile.columns,
                                       profile.rows, profile.origin.x, profile.origin.y, profile.spacing, out)
                    }
                }
                return
            }
            guard rowsShareHeight, let (_, py) = shape.planePoint(atX: Double(first) + 0.5, y: y) else {
                turnedAlphas(row: y, from: first, count: count, into: out)
                return
            }
            if py.bitPattern != height.bitPattern { prepare(py) }
            // planePoint's px, eight at a time in the same order: with m13 = m23 = 0 its w is
            // m33 at every pixel, and its py is the row's.
            let m = shape.deviceToLocal, centre = shape.rect.x + shape.rect.width / 2
            let rowPart = y * m.m21, lanes8 = SIMD8<Double>(0, 1, 2, 3, 4, 5, 6, 7)
            var pxs = [Float]()
            swap(&pxs, &scratch)
            if pxs.count < count + 8 { pxs = [Float](repeating: 0, count: count + 8) }
            defer { swap(&pxs, &scratch) }
            let sameRun = cachedRun.first == first && cachedRun.count == count && cachedRun.rowPart == rowPart.bitPattern
            pxs.withUnsafeMutableBufferPointer { pxs in
                // A run of the rows before (the same pixels, the same share of px): its px
                // values, their mirror and its rows are still those kept.
                if !sameRun {
                    // planePoint's px of every pixel (and the lanes past the end), eight at a time.
                    var start = 0
                    while start < count {
                        let xs = lanes8 + (Double(first + start) + 0.5)
                        let px = SIMD8<Float>((xs * m.m11 + rowPart + m.m31) / m.m33 - centre)
                        UnsafeMutableRawPointer(pxs.baseAddress! + start).storeBytes(of: px, as: SIMD8<Float>.self)
                        start += 8
                    }
                    // The shadow is symmetric about its centre line, to the bit: erf(-t) is -erf(t)
                    // (its sign is applied last), and -px + w, -px - w and their products by k are
                    // the negations of px - w, px + w and theirs, so a row's value at -px is its
                    // value at px. Where the pixels right of the centre have their mirror images'
                    // px negated exactly (a centre on a pixel's middle or edge, whole-pixel steps),
                    // their values are those images': neither their rows nor their sums are worked
                    // out, their images' values are copied (a wide shadow's rows above and below
                    // its card, half their weighted sums).
                    mirrored = 0..<0
                    mirrorBase = 0
                    if m.m11 > 0, count > 1 {
                        var split = 0
                        while split < count, pxs[split] <= 0 { split += 1 }
                        if split > 0, split < count {
                            for base in [2 * split - 1, 2 * split - 2] where base - split >= 0 && base - split < split
                                && pxs[base - split].bitPattern == (-pxs[split]).bitPattern {
                                mirrorBase = base
                                var end = split
                                while end < count, mirrorBase - end >= 0, pxs[mirrorBase - end].bitPattern == (-pxs[end]).bitPattern { end += 1 }
                                mirrored = split..<end
                                break
                            }
                        }
                    }
                    rowStride = count + 8
                    let size = RowEvaluator.rowCacheCapacity * rowStride
                    if rowStore.count < size { rowStore = [Float](repeating: 0, count: size) }
                    rowWidths.removeAll(keepingCapacity: true)
                    recency.removeAll(keepingCapacity: true)
                    cachedRun = (first, count, rowPart.bitPattern)
                }
                let mirrored = mirrored, mirrorBase = mirrorBase, stride = rowStride
                // The pixels worked out: all but the mirrored ones, copied from their images at the end.
                func eachWorked(_ body: (Range<Int>) -> Void) {
                    body(0..<(mirrored.isEmpty ? count : mirrored.lowerBound))
                    if !mirrored.isEmpty { body(mirrored.upperBound..<count) }
                }
                // Each half width's row (square corners: the shape's one; rounded: each distinct
                // sample row's) from the store, or made once but for its mirrored pixels (C's
                // oq_erf_row: erf's arithmetic, the same bits), and kept; its slot to the front of
                // `recency`, so that a row's own widths (at most eight) are never the last, which a
                // new one reuses.
                var slotOfWidth = SIMD8<Int32>()
                let widthCount = corner <= 0 ? 1 : distinctCount
                rowStore.withUnsafeMutableBufferPointer { store in
                    for j in 0..<widthCount {
                        let w = corner <= 0 ? halfWidth : distinct[j]
                        if let hit = recency.firstIndex(where: { rowWidths[$0] == w.bitPattern }) {
                            let slot = recency.remove(at: hit)
                            recency.insert(slot, at: 0)
                            slotOfWidth[j] = Int32(slot)
                            continue
                        }
                        let slot: Int
                        if recency.count < RowEvaluator.rowCacheCapacity {
                            slot = recency.count
                            rowWidths.append(w.bitPattern)
                        } else {
                            slot = recency.removeLast()
                            rowWidths[slot] = w.bitPattern
                        }
                        recency.insert(slot, at: 0)
                        slotOfWidth[j] = Int32(slot)
                        let values = store.baseAddress! + slot * stride
                        eachWorked { range in
                            oq_erf_row(pxs.baseAddress! + range.lowerBound, range.count, w, k, values + range.lowerBound)
                        }
                    }
                    // Each pixel as `alpha(px:py:...)` makes it from the rows: square corners, the
                    // row times the product along y; rounded, the samples' weighted sum in order
                    // (C's oq_weighted_rows).
                    if corner <= 0 {
                        let row = store.baseAddress! + Int(slotOfWidth[0]) * stride
                        eachWorked { range in
                            for i in range { out[i] = row[i] * squareAlongY }
                        }
                    } else {
                        // The C kernel sums exactly eight samples.
                        precondition(BlurredRoundedRect.ySamples == 8)
                        var slots = SIMD8<Int32>(), sampleWeights = weights
                        for i in 0..<8 { slots[i] = slotOfWidth[Int(slot[i])] }
                        withUnsafeBytes(of: &slots) { slots in
                            withUnsafeBytes(of: &sampleWeights) { sampleWeights in
                                eachWorked { range in
                                    oq_weighted_rows(store.baseAddress! + range.lowerBound, stride,
                                                     slots.assumingMemoryBound(to: Int32.self).baseAddress!,
                                                     sampleWeights.assumingMemoryBound(to: Float.self).baseAddress!, step, range.count,
                                                     out + range.lowerBound)
                                }
                            }
                        }
                    }
                    // The mirrored pixels' rows would be their images' (each erf pair's bits), and so
                    // their sums: the values are copied.
                    if !mirrored.isEmpty { oq_mirror_row(out, mirrored.lowerBound, mirrored.upperBound, mirrorBase) }
                }
            }
        }

        /// `alphas(row:from:count:into:)` where the row does not lie at one height in the plane
        /// and there is no grid (a sharp shadow turned or in perspective): each pixel's own
        /// closed form but in the constant pieces. Under an affine map planePoint's w is m33 at
        /// every pixel (x * 0 + y * 0 + m33), so px and py are made eight at a time with its
        /// arithmetic in its order (the same bits); in perspective, a pixel at a time.
        private mutating func turnedAlphas(row y: Double, from first: Int, count: Int, into out: UnsafeMutablePointer<Float>) {
            let m = shape.deviceToLocal
            guard m.m13 == 0, m.m23 == 0, m.m33 > 0, y.isFinite else {
                for i in 0..<count { out[i] = alpha(atX: Double(first + i) + 0.5, y: y) }
                return
            }
            let centreX = shape.rect.x + shape.rect.width / 2, centreY = shape.rect.y + shape.rect.height / 2
            let partX = y * m.m21, partY = y * m.m22, lanes8 = SIMD8<Double>(0, 1, 2, 3, 4, 5, 6, 7)
            var start = 0
            while start < count {
                let xs = lanes8 + (Double(first + start) + 0.5)
                let px = SIMD8<Float>((xs * m.m11 + partX + m.m31) / m.m33 - centreX)
                let py = SIMD8<Float>((xs * m.m12 + partY + m.m32) / m.m33 - centreY)
                for i in 0..<min(8, count - start) { out[start + i] = unprofiled(px[i], py[i]) }
                start += 8
            }
        }

        /// What `alpha(px:py:...)` computes from py alone, as it computes it.
        private mutating func prepare(_ py: Float) {
            height = py
            flatValue = nil
            preparedStraight = false
            if corner <= 0 {
                squareAlongY = 0.5 * (erf((py + halfHeight) * k) - erf((py - halfHeight) * k))
                flatBound = flatBound(narrowest: halfWidth)
                return
            }
            var y: Float
            (y, step) = BlurredRoundedRect.samplesAlongY(py: py, halfHeight: halfHeight, sigma: sigma)
            // The same samples as the unclamped window's: the same weights (straightWeights).
            let unclamped = isUnclampedWindow(y, step)
            if unclamped { weights = straightWeights }
            var ys = SIMD8<Float>()
            for i in 0..<ySamples {
                if !unclamped { weights[i] = gaussian(y, sigma: sigma) }
                ys[i] = y
                y += step
            }
            widths = Self.rowWidths(py - ys, halfWidth: halfWidth, halfHeight: halfHeight, corner: corner)
            distinctCount = 0
            for i in 0..<ySamples {
                var j = 0
                while j < distinctCount, distinct[j].bitPattern != widths[i].bitPattern { j += 1 }
                if j == distinctCount {
                    distinct[j] = widths[i]
                    distinctCount += 1
                }
                slot[i] = Int32(j)
            }
            flatBound = flatBound(narrowest: widths.min())
        }

        /// `rowWidth(y:...)` in every lane, each operation in its order, Swift's `min` and `max`
        /// as selects (`min(x, y)` is `y < x ? y : x`, `max(x, y)` is `y >= x ? y : x`) and the
        /// square root IEEE's in any lane: the same bits as eight calls.
        @inline(__always)
        private static func rowWidths(_ y: SIMD8<Float>, halfWidth: Float, halfHeight: Float, corner: Float) -> SIMD8<Float> {
            // abs as a select: -0 keeps its sign, which (halfHeight - corner) - y does not see.
            let straight = SIMD8<Float>(repeating: halfHeight - corner) - y.replacing(with: -y, where: y .< 0)
            let delta = straight.replacing(with: 0, where: 0 .< straight)
            let squares = SIMD8<Float>(repeating: corner * corner) - delta * delta
            let kept = SIMD8<Float>(repeating: 0).replacing(with: squares, where: squares .>= 0)
            return SIMD8<Float>(repeating: halfWidth - corner) + kept.squareRoot()
        }

        /// `flatBound` for a row whose narrowest half width is `narrowest`: 5.5 / k inside it,
        /// less a margin for the rounding of px, the widths and this sum (a ten-thousandth of
        /// the width, where Float's is a ten-millionth). None (-inf) where k is not a finite
        /// positive number.
        private func flatBound(narrowest: Float) -> Float {
            guard k.isFinite, k > 0, narrowest.isFinite else { return -.infinity }
            return narrowest - BlurredRoundedRect.erfWhole / k - 1e-4 * (abs(narrowest) + 1)
        }
    }

    /// The same, from the point relative to the rectangle's centre (the shader's function).
    @inlinable
    public static func alpha(px: Float, py: Float, halfWidth: Float, halfHeight: Float, corner: Float, sigma: Float) -> Float {
        let k = Float(0.5).squareRoot() / sigma
        if corner <= 0 {
            let ax = 0.5 * (erf((px + halfWidth) * k) - erf((px - halfWidth) * k))
            let ay = 0.5 * (erf((py + halfHeight) * k) - erf((py - halfHeight) * k))
            return ax * ay
        }
        var (y, step) = samplesAlongY(py: py, halfHeight: halfHeight, sigma: sigma)
        var value: Float = 0
        for _ in 0..<ySamples {
            value += rowIntegral(x: px, y: py - y, halfWidth: halfWidth, halfHeight: halfHeight, corner: corner, k: k)
                * gaussian(y, sigma: sigma) * step
            y += step
        }
        return value
    }

    /// Along y: midpoint samples of the Gaussian over the part of +-3 sigma the box spans, for a
    /// point `py` from the box's centre: the first sample's offset and the step between them.
    @inlinable
    static func samplesAlongY(py: Float, halfHeight: Float, sigma: Float) -> (first: Float, step: Float) {
        let low = py - halfHeight, high = py + halfHeight
        let start = min(max(-3 * sigma, low), high), end = min(max(3 * sigma, low), high)
        let step = (end - start) / Float(ySamples)
        return (start + step * 0.5, step)
    }

    /// The normal density at `y`.
    @inlinable
    static func gaussian(_ y: Float, sigma: Float) -> Float {
        exp(-0.5 * y * y / (sigma * sigma)) / (sigma * Float(2 * Double.pi).squareRoot())
    }

    /// The blurred width of the shape's row at height y, at x: exact along x.
    @inlinable
    static func rowIntegral(x: Float, y: Float, halfWidth: Float, halfHeight: Float, corner: Float, k: Float) -> Float {
        let curved = rowWidth(y: y, halfWidth: halfWidth, halfHeight: halfHeight, corner: corner)
        return 0.5 * (erf((x + curved) * k) - erf((x - curved) * k))
    }

    /// Half the width of the shape's row at height y (the corners narrow it).
    @inlinable
    static func rowWidth(y: Float, halfWidth: Float, halfHeight: Float, corner: Float) -> Float {
        let delta = min(halfHeight - corner - abs(y), 0)
        return halfWidth - corner + max(0, corner * corner - delta * delta).squareRoot()
    }
}
