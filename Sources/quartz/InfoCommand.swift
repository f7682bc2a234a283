import ArgumentParser
import Foundation
import GLBackend
import LottieImport

struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print the GL device (EGL platform, vendor, renderer, version, texture limit), or what a document holds.",
        discussion: "Given a scene document or a Lottie animation: its size, frames and times, its layers, and what of it is "
            + "not drawn (a Lottie file's text layers, expressions, effects, ... each by JSON path). Exit codes: 0; 2 bad "
            + "input; 3 no usable GL.")

    @Argument(help: "A scene document or Lottie animation to describe instead of the device (- for standard input).")
    var document: String?
    @Option(help: ArgumentHelp("The folder the document's images are read from (default: its folder).", valueName: "folder"))
    var assets: String?
    @Flag(help: "Print it as one line of JSON.") var json = false
    @Option(help: ArgumentHelp("Import the document this many times in this process and report the least read and build "
                               + "times beside the first (a warm process's import, as a server's; default 1).", valueName: "n"))
    var repeats = 1

    func run() throws {
        if let document { return try describe(document) }
        do {
            let caps = try GLDevice.shared().caps
            if json {
                printJSON(["eglPlatform": caps.platform.rawValue, "eglPlatformDetail": caps.platformDetail, "eglVersion": caps.eglVersion,
                           "eglVendor": caps.eglVendor, "vendor": caps.vendor, "renderer": caps.renderer, "software": caps.isSoftware,
                           "version": caps.version, "shadingLanguageVersion": caps.shadingLanguageVersion,
                           "maxTextureSize": caps.maxTextureSize, "maxRenderTargetSize": caps.maxRenderTargetSize, "robust": caps.isRobust,
                           "debugOutput": caps.offersDebugOutput, "timerQueries": caps.offersTimerQueries, "verified": caps.verification ?? NSNull(),
                           "verifiedDrivers": GLCaps.verifiedDrivers.map(\.verified)])
                return
            }
            print("EGL platform:    \(caps.platform.rawValue) (\(caps.platformDetail))")
            print("EGL:             \(caps.eglVersion), \(caps.eglVendor)")
            print("GL vendor:       \(caps.vendor)")
            print("GL renderer:     \(caps.renderer)\(caps.isSoftware ? " (software)" : "")")
            print("GL version:      \(caps.version)")
            print("GLSL version:    \(caps.shadingLanguageVersion)")
            print("max texture:     \(caps.maxTextureSize)")
            print("max render size: \(caps.maxRenderTargetSize)")
            print("robust context:  \(caps.isRobust ? "yes (lost on reset, recovered by making a new one)" : "no")")
            print("debug output:    \(caps.offersDebugOutput ? "offered (on in tests and debug builds; OPENQUARTZ_GL_DEBUG=1 turns it on)" : "not offered")")
            print("GPU timing:      \(caps.offersTimerQueries ? "timer queries (GL_EXT_disjoint_timer_query)" : "none offered (quartz bench reports the wait for the GPU)")")
            print("filled paths:    \(!caps.blendsFloatTargets ? "summed on the CPU and uploaded (no float blending)" : caps.isSoftware ? "summed on the CPU and uploaded (a CPU rasterizer: cheaper than its edges on the GPU)" : "edges summed on the GPU (float targets blend)")")
            print("verified:        \(caps.verification ?? "no: this driver is not among those verified (CI verifies Mesa's two; docs/testing.md)")")
            print("drivers verified: " + GLCaps.verifiedDrivers.map(\.verified).joined(separator: "; "))
        } catch {
            printError("quartz info: \(error)")
            throw QuartzExit.renderFailed
        }
    }

    /// What `quartz info DOCUMENT` prints.
    func describe(_ path: String) throws {
        guard (1...1000).contains(repeats), repeats == 1 || path != "-" else {
            printError("quartz info: --repeats must be 1 to 1000 (1 for standard input, which is read once), got \(repeats)")
            throw QuartzExit.badInput
        }
        var source = try SceneSource.parse([path] + (assets.map { ["--assets", $0] } ?? []))
        source.scene = path
        // Reading (the file, its JSON, a scene's checks) and building the layer tree with its
        // animations, timed apart: what importing a document costs before any frame is drawn.
        // The tree is built, so what its reader leaves undrawn is known.
        func importOnce() throws -> (FrameDocument, read: Double, build: Double) {
            let start = Date()
            let loaded = try source.load(command: "info")
            let read = Date()
            _ = try makeRenderer(loaded, backend: .cpu, scale: nil, size: nil, background: nil, command: "info", name: path, printsWarnings: false)
            return (loaded, read.timeIntervalSince(start), Date().timeIntervalSince(read))
        }
        let first = try importOnce()
        var least = (read: first.read, build: first.build)
        for _ in 1..<repeats {
            let again = try importOnce()
            least = (min(least.read, again.read), min(least.build, again.build))
        }
        let loaded = first.0
        var fields: [String: Any] = ["document": path, "width": Double(loaded.size.width), "height": Double(loaded.size.height),
                                     "fps": loaded.fps, "duration": loaded.duration, "warnings": loaded.warnings,
                                     "readSeconds": least.read, "buildSeconds": least.build, "imports": repeats,
                                     "firstReadSeconds": first.read, "firstBuildSeconds": first.build]
        var lines: [String] = []
        switch loaded {
        case .scene(let scene):
            fields["format"] = "openquartz-scene"
            fields["scale"] = Double(scene.scale)
            fields["time"] = scene.time
            lines = ["format:    scene document (openquartz-scene 1)",
                     "size:      \(format(Double(scene.size.width))) x \(format(Double(scene.size.height))) points at scale \(format(Double(scene.scale)))",
                     "timeline:  \(format(scene.duration)) s at \(format(scene.fps)) fps; a still shows t = \(format(scene.time)) s"]
        case .lottie(let lottie):
            let kinds = lottie.layerTypeCounts
            fields.merge(["format": "lottie", "inFrame": lottie.inFrame, "outFrame": lottie.outFrame, "frames": lottie.frameCount,
                          "layers": kinds, "seconds": (lottie.outFrame - lottie.inFrame) / lottie.frameRate]) { $1 }
            lines = ["format:    Lottie animation",
                     "size:      \(format(lottie.width)) x \(format(lottie.height)) points",
                     "frames:    \(lottie.frameCount) (ip \(format(lottie.inFrame)) to op \(format(lottie.outFrame))) at "
                        + "\(format(lottie.frameRate)) fps: \(format((lottie.outFrame - lottie.inFrame) / lottie.frameRate)) s",
                     "layers:    " + kinds.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")]
        }
        if json { return printJSON(fields) }
        for line in lines { print(line) }
        print(String(format: "import:    read in %.1f ms, layers built in %.1f ms", first.read * 1000, first.build * 1000)
              + (repeats > 1 ? String(format: "; the least of %d imports: %.1f ms and %.1f ms", repeats, least.read * 1000, least.build * 1000) : ""))
        print(loaded.warnings.isEmpty ? "not drawn: nothing" : "not drawn (\(loaded.warnings.count)):")
        for warning in loaded.warnings { print("  \(warning)") }
    }

    private func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(format: "%.3f", value)
    }
}
