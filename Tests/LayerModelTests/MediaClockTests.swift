// The media clock behind CACurrentMediaTime() when renderers on several threads set it.
import Foundation
import LayerModel
import Testing

@Suite("Media clock")
struct MediaClockTests {
    /// Runs `body` on a thread of its own and returns what it returned.
    private func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        nonisolated(unsafe) var result: T?
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            result = body()
            done.signal()
        }
        thread.start()
        done.wait()
        return result!
    }

    @Test("a thread that set the clock reads its own setting after another thread set it")
    func settingsPerThread() {
        let first = DispatchSemaphore(value: 0), second = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var seenByFirst: [Double] = []
        let finished = DispatchSemaphore(value: 0)
        let a = Thread {
            MediaClock.set(10)
            first.signal()
            second.wait()  // the other thread has set 99 by now
            seenByFirst.append(CACurrentMediaTime())
            MediaClock.useSystemClock()
            finished.signal()
        }
        a.start()
        first.wait()
        let seenBySecond = onThread { () -> Double in
            MediaClock.set(99)
            return CACurrentMediaTime()
        }
        // A thread that never set the clock reads the latest setting of any thread. Suites that
        // run beside this one set the process's clock too (a renderer's frame), so the latest
        // may be theirs: set again and read again a few times before calling it lost.
        var seenByThird = onThread { CACurrentMediaTime() }
        for _ in 0..<5 where seenByThird != 99 {
            _ = onThread { () -> Double in
                MediaClock.set(99)
                return 99
            }
            seenByThird = onThread { CACurrentMediaTime() }
        }
        second.signal()
        finished.wait()
        #expect(seenByFirst == [10], "the thread that began its frame at 10 lost its time")
        #expect(seenBySecond == 99)
        #expect(seenByThird == 99)
        // Back on the system clock: a monotonic reading, not 99. Suites beside this one set the
        // process's clock for their frames (to 0, say) at any moment, so the clock is returned to
        // the system's and read at once, a few times, until a reading is the system's own.
        func monotonic() -> Double {
            var spec = timespec()
            clock_gettime(CLOCK_MONOTONIC, &spec)
            return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
        }
        var system = 0.0, before = 0.0, after = 0.0
        for _ in 0..<20 {
            before = monotonic()
            system = onThread { () -> Double in
                MediaClock.useSystemClock()
                return CACurrentMediaTime()
            }
            after = monotonic()
            if system >= before && system <= after { break }
        }
        #expect(system != 99 && system >= before && system <= after)
    }
}
