import CThreadAffinity
import Foundation

/// Mesa's llvmpipe draws a frame on rasterizer threads of its own, one per CPU by default, named
/// "llvmpipe-0", "llvmpipe-1", ..., while the thread that submitted it waits. A scheduler that
/// packs runnable threads onto few CPUs defeats that: on this project's 2-CPU virtual machines
/// (a Firecracker guest booted with `sched_vcpu_pack`) both rasterizer threads sat on one CPU,
/// the other idle, for the first hundred or so frames of every process and again at random
/// after (`ps -L -o tid,psr,comm`), so a frame took what one thread takes: the peer 100-card
/// frame 4.4 ms where two threads draw it in 2.6, the 12-card blur-1 frame 1.6 against 0.9.
///
/// So where llvmpipe runs one rasterizer thread per CPU the process may use (its default on a
/// machine of up to 16 CPUs), thread n is confined to the n-th: as llvmpipe means them to run.
/// Every CPU then holds one thread of each context, and of each process doing the same, so
/// several contexts or processes still share the CPUs evenly. Where the counts differ (a large
/// machine, whose CPUs outnumber the threads; `LP_NUM_THREADS` set), confining them could crowd
/// the first CPUs while others idle, so the scheduler keeps them. Other drivers' threads, and
/// the process's own, are left alone. `OPENQUARTZ_SPREAD_LLVMPIPE_THREADS=0` turns it off.
package enum RasterizerThreads {
    /// The environment variable that turns the spreading off ("0").
    package static let switchVariable = "OPENQUARTZ_SPREAD_LLVMPIPE_THREADS"

    /// A thread of this process: its Linux thread id and name (`/proc/self/task/ID/comm`).
    package struct Thread: Equatable {
        package let id: Int32
        package let name: String

        package init(id: Int32, name: String) {
            (self.id, self.name) = (id, name)
        }
    }

    /// A rasterizer thread and the CPU it is confined to.
    package struct Placement: Equatable {
        package let thread: Int32
        package let cpu: Int32

        package init(thread: Int32, cpu: Int32) {
            (self.thread, self.cpu) = (thread, cpu)
        }
    }

    /// The number in a rasterizer thread's name ("llvmpipe-3" is 3), nil for any other thread.
    package static func rasterizerIndex(of name: String) -> Int? {
        let prefix = "llvmpipe-"
        guard name.hasPrefix(prefix), let index = Int(name.dropFirst(prefix.count)), index >= 0 else { return nil }
        return index
    }

    /// Where each rasterizer thread among `threads` goes: thread n to `allowed[n]`, where the
    /// contexts' threads are numbered 0 to one less than the CPUs allowed, and two CPUs at least;
    /// nothing otherwise (see above: a single CPU or thread gains nothing from a place of its own
    /// and keeps the scheduler's freedom to move it off a busy CPU).
    package static func placements(of threads: [Thread], over allowed: [Int32]) -> [Placement] {
        let rasterizers = threads.compactMap { thread in rasterizerIndex(of: thread.name).map { (thread.id, $0) } }
        guard allowed.count >= 2, Set(rasterizers.map(\.1)) == Set(0..<allowed.count) else { return [] }
        return rasterizers.map { Placement(thread: $0.0, cpu: allowed[$0.1]) }
    }

    /// This process's threads, as /proc lists them (empty where it does not).
    package static func threadsOfProcess() -> [Thread] {
        let folder = "/proc/self/task"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        return entries.compactMap { entry in
            guard let id = Int32(entry),
                  let name = try? String(contentsOfFile: "\(folder)/\(entry)/comm", encoding: .utf8) else { return nil }
            return Thread(id: id, name: name.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// The CPUs thread `id` may run on (the process's, for id 0), ascending; empty where the
    /// system does not say.
    package static func cpus(ofThread id: Int32 = 0) -> [Int32] {
        var cpus = [Int32](repeating: 0, count: 1024)
        let count = id == 0 ? oq_allowed_cpus(&cpus, Int32(cpus.count)) : oq_thread_cpus(id, &cpus, Int32(cpus.count))
        return count > 0 ? Array(cpus.prefix(Int(count))) : []
    }

    /// Confines this process's llvmpipe rasterizer threads, one CPU each (see above), unless the
    /// environment turns it off; returns the placements made. Call after making a context: its
    /// threads start with it. A thread that ends meanwhile, or a refusal, leaves the rest placed.
    @discardableResult
    package static func spread(environment: [String: String] = ProcessInfo.processInfo.environment) -> [Placement] {
        guard environment[switchVariable] != "0" else { return [] }
        return placements(of: threadsOfProcess(), over: cpus()).filter { oq_confine_thread($0.thread, $0.cpu) == 0 }
    }
}
