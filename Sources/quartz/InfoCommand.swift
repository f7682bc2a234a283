import ArgumentParser
import Foundation
import GLBackend

struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print the GL device: EGL platform, vendor, renderer, version, texture limit.")

    @Flag(help: "Print the device as one line of JSON.") var json = false

    func run() throws {
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
            print("filled paths:    \(caps.blendsFloatTargets ? "edges summed on the GPU (float targets blend)" : "summed on the CPU and uploaded (no float blending)")")
            print("verified:        \(caps.verification ?? "no: this driver is not among those verified (CI verifies Mesa's two; docs/testing.md)")")
            print("drivers verified: " + GLCaps.verifiedDrivers.map(\.verified).joined(separator: "; "))
        } catch {
            printError("quartz info: \(error)")
            throw QuartzExit.renderFailed
        }
    }
}
