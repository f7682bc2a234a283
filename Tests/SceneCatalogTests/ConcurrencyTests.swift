// Several threads at once: each its own transaction stack; layers changed on one thread while
// another renders them. Run under the thread sanitizer by CI (scripts/sanitizers.sh).
import Foundation
import Synchronization
import OpenQuartzCore
import Testing

@Suite("Concurrency")
struct ConcurrencyTests {
    @Test("transactions on eight threads at once: each thread's nesting, values and commits are its own")
    func transactionsPerThread() {
        let threads = 8
        // Gathered under an NSLock (a pthread mutex, which the thread sanitizer sees): under
        // Synchronization's Mutex, whose futex it does not, it once reported these writes as a race.
        let results = Gathered()
        DispatchQueue.concurrentPerform(iterations: threads) { index in
            let layer = CALayer()
            CATransaction.begin()
            CATransaction.setAnimationDuration(Double(index))
            CATransaction.setDisableActions(index % 2 == 0)
            for step in 0..<200 {
                CATransaction.begin()
                CATransaction.setAnimationDuration(1000)
                layer.opacity = Float(step) / 200
                CATransaction.commit()
            }
            layer.opacity = Float(index) / 10
            let seen = (CATransaction.animationDuration(), CATransaction.disableActions(), layer.opacity)
            CATransaction.commit()
            results.set(index, seen)
        }
        let seen = results.values
        #expect(seen.count == threads)
        for index in 0..<threads {
            #expect(seen[index]?.0 == Double(index), "thread \(index) saw another thread's duration")
            #expect(seen[index]?.1 == (index % 2 == 0))
            #expect(seen[index]?.2 == Float(index) / 10)
        }
    }

    @Test("a tree changed on one thread while another renders it: every frame is one of the states, whole")
    func renderWhileChanging() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 32, height: 32)
        root.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        let boxes = (0..<8).map { i -> CALayer in
            let box = CALayer()
            box.frame = CGRect(x: i * 4, y: 0, width: 4, height: 32)
            box.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            root.addSublayer(box)
            return box
        }
        // CALayer is not Sendable (nor is it on Apple's platforms): its changes and the renderer's
        // reads are made safe by the transaction lock, which this box vouches for.
        struct Shared: @unchecked Sendable { let root: CALayer; let boxes: [CALayer] }
        let shared = Shared(root: root, boxes: boxes)
        let stop = Atomic<Bool>(false)
        let changes = Atomic<Int>(0)
        let writer = Thread {
            var flip = false
            while !stop.load(ordering: .relaxed) {
                flip.toggle()
                // Whole states only: all boxes change in one locked step (as a transaction would
                // commit them), so a frame shows all black or all red columns, never a mix.
                CATransaction.lock()
                CATransaction.begin()
                CATransaction.setDisableActions(true)
                for box in shared.boxes {
                    box.backgroundColor = flip ? CGColor(red: 1, green: 0, blue: 0, alpha: 1) : CGColor(red: 0, green: 0, blue: 0, alpha: 1)
                    box.cornerRadius = flip ? 1 : 0
                }
                CATransaction.commit()
                CATransaction.unlock()
                // Tree changes too: a layer removed and put back.
                let extra = CALayer()
                extra.frame = CGRect(x: 0, y: 0, width: 1, height: 1)
                shared.root.addSublayer(extra)
                extra.removeFromSuperlayer()
                changes.add(1, ordering: .relaxed)
            }
        }
        writer.start()
        defer { stop.store(true, ordering: .relaxed) }
        let renderer = CARenderer(backend: .cpu)
        renderer.layer = root
        renderer.bounds = root.frame
        var frames = 0
        while frames < 40 || changes.load(ordering: .relaxed) < 20 {
            renderer.beginFrame(atTime: Double(frames) / 60)
            renderer.render()
            renderer.endFrame()
            let pixels = try renderer.makeImage().bitmap.pixels
            // Column centres of the eight boxes, middle row: all one colour.
            let centres = (0..<8).map { i -> UInt8 in pixels[(16 * 32 + i * 4 + 2) * 4] }
            #expect(Set(centres).count == 1, "frame \(frames) mixes two states: \(centres)")
            frames += 1
            if frames > 2_000 { break }
        }
        stop.store(true, ordering: .relaxed)
        #expect(changes.load(ordering: .relaxed) > 0)
    }
}

/// Each thread's findings, kept under a lock.
private final class Gathered: @unchecked Sendable {
    private let lock = NSLock()
    private var found: [Int: (Double, Bool, Float)] = [:]

    func set(_ index: Int, _ value: (Double, Bool, Float)) { lock.withLock { found[index] = value } }
    var values: [Int: (Double, Bool, Float)] { lock.withLock { found } }
}
