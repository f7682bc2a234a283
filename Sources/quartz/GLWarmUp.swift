import Dispatch
import GLBackend
import OpenQuartzCore

/// Opens the shared GL device and builds its programs on a background thread, started before a
/// command reads its document: on llvmpipe that is a tenth of a second or more (loading the
/// driver and LLVM, building dozens of programs), which a first frame would otherwise wait for in
/// full. The frames wait only for what is left of it (`StageTimes.setup`). A failure is left for
/// the first frame to meet and report, as it would without the warm-up.
enum GLWarmUp {
    private static let running = DispatchGroup()

    static func start(for backend: RenderBackend) {
        guard backend == .gpu else { return }
        DispatchQueue.global(qos: .userInitiated).async(group: running) { _ = try? GLDevice.shared().prepare() }
    }

    /// Waits for a warm-up still under way: a command that fails before drawing (a bad document)
    /// exits only once the driver is no longer being loaded on another thread, whose libraries'
    /// exit handlers would otherwise run beneath it.
    static func wait() { running.wait() }
}
