// The CPU's shadow kernels run in the copy a thread asks for (KernelCopies.with), so the
// tests that hold each copy to the Swift reference (BlurredRoundedRectRowTests, SourceOverTests)
// do run every copy the processor has rather than its best one each time.
import Compositor
import Foundation
import Testing

@Suite("The shadow kernels' copies")
struct KernelCopiesTests {
    @Test("a thread's limit picks the copy its calls take, and is its own")
    func limitPicksTheCopy() {
        let available = KernelCopies.available, best = KernelCopies.current
        #expect(available.first == 0 && available.last == best, "copies \(available), best \(best)")
        for copy in available {
            KernelCopies.with(copy) {
                #expect(KernelCopies.current == copy, "asked for \(KernelCopies.names[copy])")
                // Nested: the inner limit holds inside it and the outer one comes back after it.
                KernelCopies.with(0) { #expect(KernelCopies.current == 0) }
                #expect(KernelCopies.current == copy)
                // Another thread keeps its own (no limit: the best copy).
                let other = OtherThread()
                #expect(other.copy == best)
            }
        }
        #expect(KernelCopies.current == best)
    }
}

/// The copy a new thread's kernel calls take, asked on that thread.
private final class OtherThread: @unchecked Sendable {
    private(set) var copy = -1

    init() {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            copy = KernelCopies.current
            done.signal()
        }
        thread.start()
        done.wait()
    }
}
