// The command line against a careless user and a hostile document: outputs that are folders or
// devices are refused and left whole, numbers out of range are bad input (exit 2, never a trap),
// bad options exit 2, documents come from links and standard input, images come only from
// inside the document's folder.
import Foundation
import OpenCoreGraphics
import Testing

private let okScene = #"""
{"format": "openquartz-scene", "version": 1, "size": [40, 30], "duration": 0.2, "fps": 10,
 "root": {"frame": [0, 0, 40, 30], "backgroundColor": "#3366cc"}}
"""#

/// A scratch folder holding ok.json.
private func folderWithScene() throws -> URL {
    let folder = try scratch()
    try Data(okScene.utf8).write(to: folder.appendingPathComponent("ok.json"))
    return folder
}

/// The scene's colour, as the PNG at `url` shows it at its centre.
private func centre(of png: Data) throws -> [UInt8] {
    let image = try CGImage.decodePNG(png)
    let i = ((image.height / 2) * image.width + image.width / 2) * 4
    return Array(image.bitmap.pixels[i..<i + 4])
}

@Suite("quartz command: bad input and outputs")
struct BadInputCLITests {
    // MARK: Data loss

    @Test("an output that is a folder (with files in it, or the current folder) is refused with exit 2 and left whole")
    func outputFolderIsKept() throws {
        let folder = try folderWithScene()
        defer { try? FileManager.default.removeItem(at: folder) }
        let victim = folder.appendingPathComponent("v")
        try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
        try Data("precious".utf8).write(to: victim.appendingPathComponent("keep.txt"))
        let scene = folder.appendingPathComponent("ok.json").path
        for output in [victim.path, folder.path, folder.path + "/."] {
            let run = try quartz(["render", scene, "-o", output, "--backend", "cpu"])
            #expect(run.status == 2 && run.error.contains("is a folder") && run.error.contains(output), "\(output): \(run.error)")
        }
        let animate = try quartz(["animate", scene, "-o", victim.path + "/../v", "--backend", "cpu"])
        #expect(animate.status == 0, "a folder output of animate is written into: \(animate.error)")
        #expect(try String(contentsOf: victim.appendingPathComponent("keep.txt"), encoding: .utf8) == "precious")
        // animate to a file name that is a folder: refused, kept.
        let named = folder.appendingPathComponent("X.png")
        try FileManager.default.createDirectory(at: named, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: named.appendingPathComponent("inside"))
        for format in ["X.png", "X.gif"] {
            if format == "X.gif" { try FileManager.default.moveItem(at: named, to: folder.appendingPathComponent("X.gif")) }
            let path = folder.appendingPathComponent(format).path
            let run = try quartz(["animate", scene, "-o", path, "--backend", "cpu"])
            #expect(run.status == 2 && run.error.contains("is a folder"), "\(format): \(run.error)")
            #expect(FileManager.default.fileExists(atPath: path + "/inside"))
        }
    }

    @Test("an output that is a FIFO (not a regular file) is refused, never replaced; a link to a file is written through")
    func specialOutputs() throws {
        let folder = try folderWithScene()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scene = folder.appendingPathComponent("ok.json").path
        let fifo = folder.appendingPathComponent("pipe.png").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let run = try quartz(["render", scene, "-o", fifo, "--backend", "cpu"])
        #expect(run.status == 2 && run.error.contains("a FIFO"), "\(run.error)")
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO, "the FIFO is still there")
        // A link to a regular file: the file is replaced, the link stays a link.
        let target = folder.appendingPathComponent("target.png"), link = folder.appendingPathComponent("link.png")
        try Data("old".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        #expect(try quartz(["render", scene, "-o", link.path, "--backend", "cpu"]).status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        #expect(try centre(of: Data(contentsOf: target)) == [0x33, 0x66, 0xcc, 255])
        // A link to a folder is a folder.
        let folderLink = folder.appendingPathComponent("dir.png")
        try FileManager.default.createSymbolicLink(atPath: folderLink.path, withDestinationPath: folder.path)
        #expect(try quartz(["render", scene, "-o", folderLink.path, "--backend", "cpu"]).status == 2)
        #expect(FileManager.default.fileExists(atPath: scene))
    }

    @Test("- and /dev/stdout stream the PNG (render) or the animated PNG (animate) to standard output, the report to standard error")
    func standardOutput() throws {
        let folder = try folderWithScene()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scene = folder.appendingPathComponent("ok.json").path
        for output in ["-", "/dev/stdout"] {
            let run = try quartz(["render", scene, "-o", output, "--backend", "cpu", "--json"])
            #expect(run.status == 0, "\(run.error)")
            #expect(run.error.contains(#""width":40"#), "the report goes to standard error: \(run.error)")
        }
        // Bytes, not text: the PNG read back whole.
        #expect(try centre(of: try quartz(["render", scene, "-o", "-", "--backend", "cpu"]).outputData) == [0x33, 0x66, 0xcc, 255])
        let animated = try quartz(["animate", scene, "-o", "-", "--backend", "cpu"])
        #expect(animated.status == 0 && animated.outputData.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(animated.error)")
        #expect(animated.error.contains("3 frames"), "\(animated.error)")
    }

    @Test("a write that fails names the output path, not the hidden temporary file, and leaves nothing behind")
    func failedWriteNamesTheOutput() throws {
        let folder = try folderWithScene()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scene = folder.appendingPathComponent("ok.json").path
        // /proc refuses new files even to root: a read-only place on every Linux machine.
        let run = try quartz(["render", scene, "-o", "/proc/openquartz.png", "--backend", "cpu"])
        #expect(run.status == 2 && run.error.contains("cannot write /proc/openquartz.png"), "\(run.error)")
        #expect(!run.error.contains(".partial"), "\(run.error)")
        let missing = try quartz(["render", scene, "-o", folder.path + "/no/such/folder.png", "--backend", "cpu"])
        #expect(missing.status == 2 && missing.error.contains("does not exist"), "\(missing.error)")
    }

    @Test("animate into a new folder that fails leaves no empty folder behind; a folder that was there stays")
    func failedAnimateRemovesItsFolder() throws {
        let folder = try folderWithScene()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 10,001 rasterized layers, a pass each: over the frame's budget, rendering fails (exit 3) at frame 0.
        let layers = Array(repeating: ##"{"frame": [0, 0, 2, 2], "backgroundColor": "#3366cc", "shouldRasterize": true}"##, count: 10_001)
        let scene = folder.appendingPathComponent("many.json")
        try Data((##"{"format": "openquartz-scene", "version": 1, "size": [40, 30], "duration": 1, "root": {"sublayers": ["##
            + layers.joined(separator: ",") + "]}}").utf8).write(to: scene)
        let frames = folder.appendingPathComponent("frames")
        let run = try quartz(["animate", scene.path, "-o", frames.path, "--backend", "cpu"])
        #expect(run.status == 3 && run.error.contains("RenderLimits.maxPasses"), "\(run.error)")
        #expect(!FileManager.default.fileExists(atPath: frames.path), "the folder made for the run is gone")
        try FileManager.default.createDirectory(at: frames, withIntermediateDirectories: true)
        #expect(try quartz(["animate", scene.path, "-o", frames.path, "--backend", "cpu"]).status == 3)
        #expect(FileManager.default.fileExists(atPath: frames.path), "a folder that was there is never removed")
    }

    // MARK: Numbers and options

    @Test("times past the timeline limit are bad input (exit 2), never a trap: --time, --from, --to of 1e19 and 1e308")
    func hugeTimes() throws {
        let folder = try folderWithScene()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scene = folder.appendingPathComponent("ok.json").path, out = folder.appendingPathComponent("x.png").path
        for arguments in [["render", scene, "-o", out, "--time", "1e19"], ["render", scene, "-o", out, "--time", "1e308"],
                          ["check", scene, "--time", "1e19"], ["animate", scene, "-o", folder.path + "/f", "--from", "1e19", "--to", "1e19"],
                          ["animate", scene, "-o", folder.path + "/f", "--to", "1e308"]] {
            let run = try quartz(arguments + (arguments[0] == "check" ? [] : ["--backend", "cpu"]))
            #expect(!run.signaled && run.status == 2, "\(arguments): \(run.status) \(run.error)")
            #expect(run.error.contains("timeline limit"), "\(run.error)")
        }
        let many = try quartz(["animate", scene, "-o", folder.path + "/f", "--to", "3600", "--fps", "1000", "--backend", "cpu"])
        #expect(many.status == 2 && many.error.contains("3600001 frames exceed the limit"), "\(many.error)")
    }

    @Test("bad options exit 2 (bad input), as --help documents, with ArgumentParser's message")
    func badOptionsExit2() throws {
        let folder = try folderWithScene()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scene = folder.appendingPathComponent("ok.json").path, out = folder.appendingPathComponent("x.png").path
        let cases: [([String], String)] = [
            (["animate", scene, "-o", folder.path + "/f", "--fps", "0"], "--fps"),
            (["animate", scene, "-o", folder.path + "/f", "--shard", "3/2"], "--shard"),
            (["animate", scene, "-o", folder.path + "/f", "--shard", "0/0"], "--shard"),
            (["render", scene, "-o", out, "--scale", "1000"], "--scale"),
            (["render", scene, "-o", out, "--size", "100000x100000"], "--size"),
            (["render", scene, "-o", out, "--no-such-flag"], "no-such-flag"),
            (["render", scene], "--output"),
            (["render", scene, "-o"], "--output"),
        ]
        for (arguments, mention) in cases {
            let run = try quartz(arguments)
            #expect(run.status == 2, "\(arguments): exit \(run.status)")
            #expect(run.error.contains(mention), "\(arguments): \(run.error)")
        }
        #expect(try quartz(["render", "--help"]).status == 0)
    }

    @Test("--size and --scale cannot ask for more pixels than a document may (SceneLimits: 16384 a side, 64 megapixels)")
    func sizeLimit() throws {
        let folder = try folderWithScene()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scene = folder.appendingPathComponent("ok.json").path, out = folder.appendingPathComponent("x.png").path
        for arguments in [["--size", "16384x16384"], ["--size", "4096x4096", "--scale", "4"]] {
            let run = try quartz(["render", scene, "-o", out, "--backend", "cpu"] + arguments)
            #expect(run.status == 2 && run.error.contains("67108864 pixels"), "\(arguments): \(run.error)")
        }
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// Values for numeric options: each must answer 0 or 2, never a trap.
    static let hostileNumbers = ["nan", "inf", "-inf", "1e19", "1e308", "-1", "0", "4.9e-324", "9223372036854775807", "abc", ""]

    /// Each command's numeric options, with the comparator that reads them (diff).
    static let numericOptionTable: [(command: String, option: String)] = [
        ("render", "--time"), ("render", "--scale"), ("render", "--repeats"), ("render", "--repeat-step"), ("render", "--size"),
        ("animate", "--fps"), ("animate", "--from"), ("animate", "--to"), ("animate", "--scale"), ("animate", "--size"),
        ("animate", "--shard"), ("check", "--time"), ("demo", "--time"),
        ("diff bar", "--tolerance"), ("diff bar", "--max-fraction"), ("diff bar", "--min-psnr"), ("diff bar", "--repeats"),
        ("diff fuzzy", "--max-delta"), ("diff fuzzy", "--border"), ("diff pixelmatch", "--threshold"),
        ("diff pixelmatch", "--max-pixels"), ("diff ciede2000", "--precision"), ("diff ciede2000", "--perceptual-precision"),
        ("diff flip", "--max-mean"), ("diff flip", "--ppd"),
        ("fuzz-differential", "--count"), ("fuzz-differential", "--seed"), ("fuzz-differential", "--max-layers"),
        ("fuzz-differential", "--size"),
    ]

    @Test("property: every numeric option of every command, given an extreme or malformed value, exits with a documented code and never traps",
          arguments: numericOptionTable.map { "\($0.command) \($0.option)" })
    func numericOptions(_ pair: String) throws {
        let words = pair.split(separator: " ").map(String.init)
        let option = words.last!, command = words[0]
        let folder = try folderWithScene()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scene = folder.appendingPathComponent("ok.json").path
        let a = folder.appendingPathComponent("a.png"), b = folder.appendingPathComponent("b.png")
        try CGImage(bitmap: Bitmap(width: 12, height: 8) { x, _ in (UInt8(x * 20), 90, 90, 255) }).writePNG(to: a)
        try CGImage(bitmap: Bitmap(width: 12, height: 8) { x, _ in (UInt8(x * 20 + 3), 90, 90, 255) }).writePNG(to: b)
        var base: [String]
        switch command {
        case "render": base = ["render", scene, "-o", folder.appendingPathComponent("x.png").path, "--backend", "cpu"]
        case "animate": base = ["animate", scene, "-o", folder.appendingPathComponent("f").path, "--backend", "cpu"]
            + (option == "--to" ? [] : ["--to", "0.1"])
        case "demo": base = ["demo", "--only", "no-such-scene", "--out", folder.appendingPathComponent("demo").path]
        case "diff": base = ["diff", a.path, b.path, "--comparator", words[1]]
        case "fuzz-differential": base = ["fuzz-differential", "--out", folder.appendingPathComponent("fd").path]
            + (option == "--count" ? [] : ["--count", "1"])
        default: base = ["check", scene, "--backend", "none"]
        }
        // Exit codes `quartz --help` documents: 0, 1 (images differ), 2 (bad input), 3 (rendering failed).
        let documented: Set<Int32> = command == "diff" || command == "fuzz-differential" ? [0, 1, 2] : [0, 2]
        var values = BadInputCLITests.hostileNumbers
        if option == "--size", command != "fuzz-differential" { values += ["1e19x1", "nanxnan", "0x0", "1x1", "0.0001x0.0001"] }
        if option == "--shard" { values += ["1e19/1", "-1/1", "1/0", "9223372036854775807/9223372036854775807"] }
        for value in values {
            let run = try quartz(base + [option, value])
            #expect(!run.signaled && documented.contains(run.status), "\(pair) \(value): \(run.status) \(run.error)")
        }
    }

    // MARK: Documents and images

    @Test("a document read through a link and from standard input (-); its images through links inside its folder")
    func linksAndStandardInput() throws {
        let folder = try folderWithScene()
        defer { try? FileManager.default.removeItem(at: folder) }
        try CGImage(bitmap: Bitmap(width: 4, height: 4) { _, _ in (200, 10, 10, 255) }).writePNG(to: folder.appendingPathComponent("red.png"))
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("linked.png").path, withDestinationPath: "red.png")
        let document = #"{"format": "openquartz-scene", "version": 1, "size": [8, 8], "root": {"frame": [0, 0, 8, 8], "contents": "linked.png"}}"#
        let scenes = folder.appendingPathComponent("scenes")
        try FileManager.default.createDirectory(at: scenes, withIntermediateDirectories: true)
        try Data(document.utf8).write(to: scenes.appendingPathComponent("image.json"))
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("image.json").path,
                                                   withDestinationPath: "scenes/image.json")
        // The linked document's images are found beside the real document: scenes/ has none.
        let out = folder.appendingPathComponent("x.png")
        let viaLink = try quartz(["render", folder.appendingPathComponent("image.json").path, "-o", out.path, "--backend", "cpu",
                                  "--assets", folder.path])
        #expect(viaLink.status == 0, "\(viaLink.error)")
        #expect(try centre(of: Data(contentsOf: out)) == [200, 10, 10, 255])
        let piped = try quartz(["render", "-", "-o", out.path, "--backend", "cpu", "--assets", folder.path], input: Data(document.utf8))
        #expect(piped.status == 0, "\(piped.error)")
        #expect(try centre(of: Data(contentsOf: out)) == [200, 10, 10, 255])
        let bad = try quartz(["check", "-", "--backend", "none"], input: Data("{\"format\": 1}".utf8))
        #expect(bad.status == 2 && bad.error.contains("standard input: format"), "\(bad.error)")
    }
}
