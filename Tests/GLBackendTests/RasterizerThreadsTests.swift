// llvmpipe's rasterizer threads, one CPU each (RasterizerThreads): where they go, and that a real
// device's threads are there once it is made.
import Foundation
import GLBackend
import Testing

@Suite("llvmpipe's rasterizer threads spread over the CPUs")
struct RasterizerThreadsTests {
    typealias Thread = RasterizerThreads.Thread
    typealias Placement = RasterizerThreads.Placement

    @Test("thread n goes to the n-th allowed CPU, every context's alike; other threads stay")
    func placements() {
        let threads = [Thread(id: 10, name: "quartz"), Thread(id: 11, name: "llvmpipe-0"), Thread(id: 12, name: "llvmpipe-1"),
                       Thread(id: 13, name: "llvmpipe-2"), Thread(id: 14, name: "disk$0"), Thread(id: 15, name: "llvmpipe-x")]
        #expect(RasterizerThreads.placements(of: threads, over: [2, 5, 7]) ==
                [Placement(thread: 11, cpu: 2), Placement(thread: 12, cpu: 5), Placement(thread: 13, cpu: 7)])
        // Two contexts of two threads each on two CPUs: one thread of each on each CPU.
        let two = [Thread(id: 1, name: "llvmpipe-0"), Thread(id: 2, name: "llvmpipe-1"),
                   Thread(id: 3, name: "llvmpipe-0"), Thread(id: 4, name: "llvmpipe-1")]
        #expect(RasterizerThreads.placements(of: two, over: [0, 1]) ==
                [Placement(thread: 1, cpu: 0), Placement(thread: 2, cpu: 1), Placement(thread: 3, cpu: 0), Placement(thread: 4, cpu: 1)])
    }

    @Test("nothing is confined where the threads are not one per CPU: one CPU, more CPUs than threads, more threads")
    func leftAlone() {
        let two = [Thread(id: 1, name: "llvmpipe-0"), Thread(id: 2, name: "llvmpipe-1")]
        #expect(RasterizerThreads.placements(of: two, over: [3]).isEmpty)
        #expect(RasterizerThreads.placements(of: two, over: []).isEmpty)
        // A large machine: llvmpipe's threads fewer than the CPUs, which the scheduler keeps.
        #expect(RasterizerThreads.placements(of: two, over: [0, 1, 2, 3]).isEmpty)
        // LP_NUM_THREADS above the CPUs.
        let three = two + [Thread(id: 3, name: "llvmpipe-2")]
        #expect(RasterizerThreads.placements(of: three, over: [0, 1]).isEmpty)
        // Two contexts made with LP_NUM_THREADS=1: both threads are "llvmpipe-0".
        let single = [Thread(id: 1, name: "llvmpipe-0"), Thread(id: 2, name: "llvmpipe-0")]
        #expect(RasterizerThreads.placements(of: single, over: [0, 1]).isEmpty)
        #expect(RasterizerThreads.rasterizerIndex(of: "llvmpipe-12") == 12)
        #expect(RasterizerThreads.rasterizerIndex(of: "llvmpipe-") == nil)
        #expect(RasterizerThreads.rasterizerIndex(of: "gallium-llvmpipe") == nil)
        #expect(RasterizerThreads.spread(environment: [RasterizerThreads.switchVariable: "0"]).isEmpty)
    }

    @Test("a device on llvmpipe leaves each rasterizer thread on its own CPU")
    func realThreads() throws {
        let device = try GLDevice()
        let allowed = RasterizerThreads.cpus()
        let rasterizers = RasterizerThreads.threadsOfProcess().compactMap { thread in
            RasterizerThreads.rasterizerIndex(of: thread.name).map { (thread.id, $0) }
        }
        guard device.caps.renderer.contains("llvmpipe"), allowed.count >= 2, Set(rasterizers.map(\.1)) == Set(0..<allowed.count),
              ProcessInfo.processInfo.environment[RasterizerThreads.switchVariable] != "0" else { return }
        for (id, index) in rasterizers {
            let cpus = RasterizerThreads.cpus(ofThread: id)
            // A thread that ended since it was listed has no affinity to read.
            guard !cpus.isEmpty else { continue }
            #expect(cpus == [allowed[index]], "llvmpipe-\(index) (thread \(id)) may run on \(cpus)")
        }
        #expect(RasterizerThreads.cpus(ofThread: 0) == allowed)
    }
}
