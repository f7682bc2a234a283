import CPixelKernels

/// The copies of the CPU's kernels (`Sources/CPixelKernels`: the processor's baseline's, AVX2's,
/// AVX-512's) this processor runs. Each call takes the best, so a test that did not limit
/// them would hold only that one to the Swift reference; tests run their cases under each.
package enum KernelCopies {
    /// Each copy's name, by number.
    package static let names = ["baseline", "AVX2", "AVX-512"]

    /// The copies this processor runs, by number.
    package static var available: [Int] { Array(0..<Int(oq_kernel_copies())) }

    /// The copy this thread's kernel calls take now.
    package static var current: Int { Int(oq_kernel_copy()) }

    /// `body` with this thread's kernel calls taking copy `copy` at most. Synchronous, so the
    /// thread (whose limit it is) does not change under it.
    package static func with<R>(_ copy: Int, _ body: () throws -> R) rethrows -> R {
        let before = oq_limit_kernel_copy(Int32(copy))
        defer { oq_limit_kernel_copy(before) }
        return try body()
    }
}
