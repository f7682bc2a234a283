// Faults while `quartz animate` writes frames: Ctrl-C, and a disk that fills up. Either way only
// whole frames are left (no `.partial` file, every PNG decodes) and the exit says why.
import Foundation
import OpenCoreGraphics
import Testing

@Suite("quartz animate under faults")
struct FrameWriteFaultTests {
    private static let scene = #"""
    {"format": "openquartz-scene", "version": 1, "size": [160, 120], "duration": 60, "fps": 30,
     "root": {"frame": [0, 0, 160, 120], "backgroundColor": "#eeeeee", "sublayers": [
       {"frame": [8, 8, 64, 48], "backgroundColor": "#3366cc", "cornerRadius": 6, "shadowOpacity": 0.5, "shadowRadius": 4,
        "animations": [{"keyPath": "position.x", "fromValue": 30, "toValue": 130, "duration": 60, "timingFunction": "linear"}]}]}}
    """#

    private var binary: URL { Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("quartz") }

    /// Starts `quartz animate` on the scene into `frames` (CPU, so no GL start-up in the timing).
    private func startAnimate(into frames: URL, in folder: URL) throws -> (Process, Pipe) {
        let scene = folder.appendingPathComponent("scene.json")
        try Data(FrameWriteFaultTests.scene.utf8).write(to: scene)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["animate", scene.path, "-o", frames.path, "--backend", "cpu"]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return (process, err)
    }

    /// The folder holds only whole frames: no temporary files, every PNG decodes.
    private func expectOnlyWholeFrames(in frames: URL) throws -> Int {
        let names = try FileManager.default.contentsOfDirectory(atPath: frames.path)
        #expect(!names.contains { $0.hasSuffix(".partial") }, "\(names.filter { $0.hasSuffix(".partial") })")
        for name in names where name.hasSuffix(".png") {
            let data = try Data(contentsOf: frames.appendingPathComponent(name))
            #expect(throws: Never.self, "\(name) is not a whole PNG") { _ = try ImageDecoder.decode(data, source: name) }
        }
        return names.filter { $0.hasSuffix(".png") }.count
    }

    @Test("Ctrl-C (SIGINT) during animate: exit 130, a message, and only whole frames")
    func interrupted() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openquartz-sigint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let frames = folder.appendingPathComponent("frames")
        let (process, err) = try startAnimate(into: frames, in: folder)
        // Wait for a few frames, then interrupt in the middle of the run.
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, ((try? FileManager.default.contentsOfDirectory(atPath: frames.path))?.count ?? 0) < 5 {
            usleep(20_000)
        }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationReason == .exit && process.terminationStatus == 130, "\(process.terminationStatus): \(message)")
        #expect(message.contains("interrupted"))
        let written = try expectOnlyWholeFrames(in: frames)
        #expect(written >= 5 && written < 1_801)
    }

    @Test("a disk that fills up while frames are written: a clear error, and only whole frames")
    func diskFull() throws {
        let mountPoint = FileManager.default.temporaryDirectory.appendingPathComponent("openquartz-full-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: mountPoint) }
        // A 256 KiB filesystem of its own (this needs root, as CI has; the mount is undone after).
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "size=256k", "tmpfs", mountPoint.path]
        try mount.run()
        mount.waitUntilExit()
        try #require(mount.terminationStatus == 0, "cannot mount a small tmpfs to fill (not root?)")
        defer {
            let umount = Process()
            umount.executableURL = URL(fileURLWithPath: "/bin/umount")
            umount.arguments = [mountPoint.path]
            try? umount.run()
            umount.waitUntilExit()
        }
        let frames = mountPoint.appendingPathComponent("frames")
        let (process, err) = try startAnimate(into: frames, in: mountPoint)
        process.waitUntilExit()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 2, "\(process.terminationStatus): \(message)")
        #expect(message.contains("cannot write \(frames.path)/frame-") && message.contains("No space left on device"), "\(message)")
        #expect(!message.contains(".partial"), "the message names the output, not the temporary file: \(message)")
        let written = try expectOnlyWholeFrames(in: frames)
        #expect(written > 0 && written < 1_801)
        // Filled to the last block: a still names its output too, and leaves nothing.
        let filler = open(mountPoint.appendingPathComponent("filler").path, O_WRONLY | O_CREAT, 0o600)
        let block = [UInt8](repeating: 0, count: 4096)
        while write(filler, block, block.count) > 0 {}
        close(filler)
        let still = mountPoint.appendingPathComponent("still.png")
        let render = Process()
        render.executableURL = binary
        render.arguments = ["render", mountPoint.appendingPathComponent("scene.json").path, "-o", still.path, "--backend", "cpu",
                            "--size", "400x400"]
        let renderErrors = Pipe()
        render.standardError = renderErrors
        render.standardOutput = FileHandle.nullDevice
        try render.run()
        render.waitUntilExit()
        let renderMessage = String(decoding: renderErrors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(render.terminationStatus == 2 && renderMessage.contains("cannot write \(still.path): No space left on device"),
                "\(render.terminationStatus): \(renderMessage)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: mountPoint.path).filter { $0.contains("partial") || $0 == "still.png" }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }
}
