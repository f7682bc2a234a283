// The check every CPU kernel's suite makes: the frame drawn through the kernels, in each copy the
// processor runs, is the Swift path's to the byte, and the GPU's frame of the same list agrees
// with it within the bar.
import Compositor
import GLBackend
import PixelDiff
import RasterBackend
import Testing

enum KernelAgreement {
    /// Expects `list`'s frame in every kernel copy to equal the Swift path's
    /// (`RasterRenderer.usesKernels = false`), and the GPU's within the agreement bar.
    static func expectSameBytes(_ list: RenderList, sourceLocation: SourceLocation = #_sourceLocation) throws {
        var plain = RasterRenderer(threads: 1)
        plain.usesKernels = false
        let expected = plain.render(list)
        for copy in KernelCopies.available {
            let drawn = KernelCopies.with(copy) { RasterRenderer(threads: 1).render(list) }
            let differing = zip(drawn.pixels, expected.pixels).filter { $0 != $1 }.count
            #expect(differing == 0, "\(KernelCopies.names[copy]): \(differing) bytes differ from the Swift path's",
                    sourceLocation: sourceLocation)
        }
        let report = try ImageComparison.compare(expected, try GLDevice.shared().render(list), tolerance: AgreementBar.gpuAgainstCPU.tolerance)
        #expect(AgreementBar.gpuAgainstCPU.failure(of: report) == nil, "\(report)", sourceLocation: sourceLocation)
    }
}
