import CPixelKernels

extension RoundedShape {
    /// Both outlines' coverage (`Sampler.outlineCoverage`) at a run of pixels of one row, worked
    /// out several at a time: under an affine map with circular corners by a C kernel
    /// (`oq_rounded_coverages`) that runs the sampler's arithmetic, branches as selects, eight
    /// pixels to an AVX-512 register, to the same bits (`RoundedCoverageKernelTests`); otherwise
    /// pixel by pixel through the sampler. A card's edge pixels were 45% of the CPU's frame of
    /// cards, each one's branches taken one after another.
    public final class RowCoverage {
        public let sampler: Sampler
        /// The shape's parts as the kernel reads them, held in place (an optional of the
        /// struct was copied, 300 bytes, at every call); nil where the kernel does not apply
        /// (perspective, continuous corners).
        private let kernel: UnsafeMutablePointer<oq_rounded_affine>?

        public init(_ sampler: Sampler) {
            self.sampler = sampler
            kernel = RowCoverage.kernelParts(of: sampler).map { parts in
                let held = UnsafeMutablePointer<oq_rounded_affine>.allocate(capacity: 1)
                held.initialize(to: parts)
                return held
            }
        }

        deinit { kernel?.deallocate() }

        /// Whether the kernel works the run out (else the sampler, pixel by pixel).
        public var isKernel: Bool { kernel != nil }

        /// The shape's parts as the C kernels read them (nil where they do not apply), for a
        /// backend's own kernels over the same pixels (`oq_rounded_pair_run`).
        package var kernelParts: UnsafePointer<oq_rounded_affine>? { kernel.map { UnsafePointer($0) } }

        /// `outer[i]` and `inner[i]` for the pixel (x0 + i, y), i < count, centres at + 0.5.
        public func coverages(row y: Int, from x0: Int, count: Int,
                              outer: UnsafeMutablePointer<Double>, inner: UnsafeMutablePointer<Double>) {
            guard count > 0 else { return }
            let cy = Double(y) + 0.5
            if let kernel {
                oq_rounded_coverages(kernel, cy, x0, count, outer, inner)
                return
            }
            for i in 0..<count {
                let c = sampler.outlineCoverage(atX: Double(x0 + i) + 0.5, y: cy)
                outer[i] = c.outer; inner[i] = c.inner
            }
        }

        private static func kernelParts(of sampler: Sampler) -> oq_rounded_affine? {
            let shape = sampler.shape, p = sampler.parts, m = shape.deviceToLocal
            guard sampler.isAffine, !shape.outer.continuous, !(shape.inner?.continuous ?? false) else { return nil }
            func square(_ q: SquareParts) -> oq_square_parts {
                oq_square_parts(a: q.a, b: q.b, half: q.half, linear: q.linear, double_ab: q.doubleAB, degenerate: q.degenerate ? 1 : 0)
            }
            func outline(_ o: RoundedRectangle?) -> oq_rounded_outline {
                guard let o else { return oq_rounded_outline() }
                return oq_rounded_outline(x: o.rect.x, y: o.rect.y, width: o.rect.width, height: o.rect.height,
                                          top_left: o.topLeft, top_right: o.topRight, bottom_right: o.bottomRight, bottom_left: o.bottomLeft)
            }
            return oq_rounded_affine(m11: m.m11, m21: m.m21, m31: m.m31, m12: m.m12, m22: m.m22, m32: m.m32, w: p.w,
                                     dxdx: p.dxdx, dxdy: p.dxdy, dydx: p.dydx, dydy: p.dydy,
                                     length_x: p.lengthX, length_y: p.lengthY, reach: p.reach,
                                     square_x: square(p.squareX), square_y: square(p.squareY),
                                     outer: outline(shape.outer), inner: outline(shape.inner), has_inner: shape.inner != nil ? 1 : 0)
        }
    }
}
