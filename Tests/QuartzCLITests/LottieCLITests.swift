// Lottie files through the command line as a person runs it: recognised by content, a frame
// picked by --frame, --progress or --time, fitted into --size over --background, every frame
// of ip..op animated, described by info, checked on both backends, read from dotLottie
// archives, and refused with the JSON path when wrong.
import Foundation
import OpenCoreGraphics
import Testing

/// 100 x 100 points, 30 frames at 30 fps: a red 20 x 20 square whose centre moves linearly from
/// (20, 50) at frame 0 to (78, 50) at frame 29, and a text layer above the frame whose text
/// animator is not applied (a warning).
private let movingSquare = #"""
{"v": "5.7.4", "fr": 30, "ip": 0, "op": 30, "w": 100, "h": 100, "layers": [
 {"ty": 4, "ind": 1, "ip": 0, "op": 30, "st": 0,
  "ks": {"a": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]}, "o": {"a": 0, "k": 100}, "r": {"a": 0, "k": 0},
         "p": {"a": 1, "k": [{"t": 0, "s": [20, 50], "o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}}, {"t": 29, "s": [78, 50]}]}},
  "shapes": [{"ty": "gr", "it": [
    {"ty": "rc", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [20, 20]}, "r": {"a": 0, "k": 0}},
    {"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}},
    {"ty": "tr", "p": {"a": 0, "k": [0, 0]}, "a": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]}, "r": {"a": 0, "k": 0}, "o": {"a": 0, "k": 100}}]}]},
 {"ty": 5, "ind": 2, "ip": 0, "op": 30, "st": 0,
  "ks": {"a": {"a": 0, "k": [0, 0]}, "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]}, "o": {"a": 0, "k": 100}, "r": {"a": 0, "k": 0}},
  "t": {"d": {"k": [{"s": {"t": "Hi", "s": 12, "f": "Sans", "fc": [0, 0, 0]}, "t": 0}]},
        "a": [{"s": {"t": 0, "xe": {"a": 0, "k": 0}, "ne": {"a": 0, "k": 0}, "a": {"a": 0, "k": 100}, "b": 1, "rn": 0, "sh": 1,
               "s": {"a": 0, "k": 0}, "r": 1}, "a": {"o": {"a": 0, "k": 0}}}]}}]}
"""#

/// The pixel at (x, y) of a PNG, as bytes (premultiplied RGBA).
private func pixel(_ png: URL, _ x: Int, _ y: Int) throws -> [UInt8] {
    let image = try CGImage.decodePNG(try Data(contentsOf: png))
    let i = (y * image.width + x) * 4
    return Array(image.bitmap.pixels[i..<i + 4])
}

private let red: [UInt8] = [255, 0, 0, 255], clear: [UInt8] = [0, 0, 0, 0]

@Suite("quartz command: Lottie files")
struct LottieCLITests {
    /// A scratch folder holding the moving square as `name`.
    static func folder(named name: String = "square.json") throws -> (URL, String) {
        let folder = try scratch()
        try Data(movingSquare.utf8).write(to: folder.appendingPathComponent(name))
        return (folder, folder.appendingPathComponent(name).path)
    }

    @Test("render picks a frame by --frame, --progress or --time (the same frame three ways), at the document's size, by content not name")
    func renderFrames() throws {
        let (folder, file) = try Self.folder(named: "square.anim")
        defer { try? FileManager.default.removeItem(at: folder) }
        var images: [String: URL] = [:]
        for (name, options) in [("first", [String]()), ("frame", ["--frame", "15"]), ("progress", ["--progress", "0.5"]),
                                ("time", ["--time", "0.5"])] {
            let png = folder.appendingPathComponent("\(name).png")
            let run = try quartz(["render", file, "-o", png.path, "--backend", "cpu"] + options)
            #expect(run.status == 0, "\(name): \(run.error)")
            images[name] = png
        }
        let first = try #require(images["first"]), frame = try #require(images["frame"])
        #expect(try CGImage.decodePNG(try Data(contentsOf: first)).width == 100)
        // Frame 0: the square's centre at x = 20; frame 15: at 20 + 58 x 15 / 29 = 50.
        #expect(try pixel(first, 20, 50) == red && pixel(first, 50, 50) == clear)
        #expect(try pixel(frame, 50, 50) == red && pixel(frame, 20, 50) == clear && pixel(frame, 37, 50) == clear)
        for name in ["progress", "time"] {
            #expect(try Data(contentsOf: images[name]!) == Data(contentsOf: frame), "--\(name) shows another frame than --frame 15")
        }
    }

    @Test("--size fits the animation into the viewport (aspect kept, centred) over --background; clear without one")
    func fitAndBackground() throws {
        let (folder, file) = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let wide = folder.appendingPathComponent("wide.png"), tall = folder.appendingPathComponent("tall.png")
        #expect(try quartz(["render", file, "-o", wide.path, "--backend", "cpu", "--size", "200x100"]).status == 0)
        let run = try quartz(["render", file, "-o", tall.path, "--backend", "cpu", "--size", "50x150", "--background", "#0000ff"])
        #expect(run.status == 0, "\(run.error)")
        // 200 x 100: scale 1, 50 points each side: the square at x 60...80.
        #expect(try pixel(wide, 70, 50) == red && pixel(wide, 20, 50) == clear && pixel(wide, 199, 99) == clear)
        // 50 x 150: scale 0.5, 50 points above and below: the square at x 5...15, y 70...80, over blue.
        #expect(try pixel(tall, 10, 75) == red)
        for (x, y) in [(0, 0), (49, 149), (25, 60), (30, 75)] { #expect(try pixel(tall, x, y) == [0, 0, 255, 255], "(\(x), \(y))") }
    }

    @Test("animate writes frames ip to op - 1 at fr; info lists frames, layers and what is not drawn; check agrees on both backends")
    func animateInfoCheck() throws {
        let (folder, file) = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let frames = folder.appendingPathComponent("frames")
        let run = try quartz(["animate", file, "-o", frames.path, "--backend", "cpu"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error.contains("warning: $.layers[1].t.a: text animators are not applied"), "the animator is named: \(run.error)")
        let written = try FileManager.default.contentsOfDirectory(atPath: frames.path).filter { $0.hasSuffix(".png") }.sorted()
        #expect(written.count == 30, "\(written.count) frames")
        // The last frame is frame 29: the square's centre at 78.
        let last = frames.appendingPathComponent(try #require(written.last))
        #expect(try pixel(last, 78, 50) == red && pixel(last, 66, 50) == clear)

        let info = try quartz(["info", file])
        #expect(info.status == 0, "\(info.error)")
        for line in ["format:    Lottie animation", "size:      100 x 100 points", "frames:    30 (ip 0 to op 30) at 30 fps: 1 s",
                     "layers:    1 shape, 1 text", "not drawn (1):", "$.layers[1].t.a"] {
            #expect(info.output.contains(line), "info lacks \"\(line)\": \(info.output)")
        }
        let json = try quartz(["info", file, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(object["format"] as? String == "lottie" && object["frames"] as? Int == 30 && (object["warnings"] as? [String])?.count == 1)
        // Imported three times in one process: the least times beside the first, never above them.
        let repeated = try quartz(["info", file, "--json", "--repeats", "3"])
        let times = try #require(try JSONSerialization.jsonObject(with: Data(repeated.output.utf8)) as? [String: Any])
        let read = try #require(times["readSeconds"] as? Double), firstRead = try #require(times["firstReadSeconds"] as? Double)
        let build = try #require(times["buildSeconds"] as? Double), firstBuild = try #require(times["firstBuildSeconds"] as? Double)
        #expect(times["imports"] as? Int == 3 && read > 0 && read <= firstRead && build > 0 && build <= firstBuild, "\(times)")
        let fromInput = try quartz(["info", "-", "--repeats", "2"], input: Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(fromInput.status == 2 && fromInput.error.contains("standard input, which is read once"), "\(fromInput.error)")

        let check = try quartz(["check", file, "--progress", "0.5"])
        #expect(check.status == 0 && check.output.contains("GPU and CPU agree"), "\(check.output) \(check.error)")
    }

    @Test("a dotLottie archive renders its first animation with the images inside it")
    func dotLottie() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A 2 x 2 green image, scaled 10 times, its centre at (50, 50): green over 40...60.
        try CGImage(bitmap: Bitmap(width: 2, height: 2) { _, _ in (0, 255, 0, 255) }).writePNG(to: folder.appendingPathComponent("dot.png"))
        let animation = #"""
        {"v": "5.7.4", "fr": 30, "ip": 0, "op": 10, "w": 100, "h": 100,
         "assets": [{"id": "image_0", "w": 2, "h": 2, "u": "/images/", "p": "dot.png", "e": 0}],
         "layers": [{"ty": 2, "ind": 1, "refId": "image_0", "ip": 0, "op": 10, "st": 0,
          "ks": {"a": {"a": 0, "k": [1, 1]}, "p": {"a": 0, "k": [50, 50]}, "s": {"a": 0, "k": [1000, 1000]}, "o": {"a": 0, "k": 100}, "r": {"a": 0, "k": 0}}}]}
        """#
        try Data(animation.utf8).write(to: folder.appendingPathComponent("dot.json"))
        let zip = try shell("""
            cd '\(folder.path)' && python3 -c 'import zipfile
            with zipfile.ZipFile("dot.lottie", "w", zipfile.ZIP_DEFLATED) as z:
                z.writestr("manifest.json", "{\\"version\\": \\"1\\", \\"animations\\": [{\\"id\\": \\"dot\\"}]}")
                z.write("dot.json", "animations/dot.json")
                z.write("dot.png", "images/dot.png")'
            """)
        try #require(zip.status == 0, "\(zip.error)")
        // Away from the image file beside it: only the archive's copy can be drawn.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("dot.png"))
        let png = folder.appendingPathComponent("out.png")
        let run = try quartz(["render", folder.appendingPathComponent("dot.lottie").path, "-o", png.path, "--backend", "cpu"])
        #expect(run.status == 0, "\(run.error)")
        #expect(try pixel(png, 50, 50) == [0, 255, 0, 255] && pixel(png, 45, 55) == [0, 255, 0, 255] && pixel(png, 30, 50) == clear)
    }

    @Test("bad Lottie input is refused (exit 2) naming the JSON path, a frame outside ip...op, --background for a scene")
    func badInput() throws {
        let (folder, file) = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("x.png").path
        let broken = folder.appendingPathComponent("broken.json")
        try Data(movingSquare.replacingOccurrences(of: #""fr": 30"#, with: #""fr": -1"#).utf8).write(to: broken)
        let refused = try quartz(["render", broken.path, "-o", out, "--backend", "cpu"])
        #expect(refused.status == 2 && refused.error.contains("\"fr\"") && refused.error.contains("broken.json: $"), "\(refused.error)")
        let outside = try quartz(["render", file, "-o", out, "--backend", "cpu", "--frame", "31"])
        #expect(outside.status == 2 && outside.error.contains("outside the animation's frames 0.0 (ip) to 30.0 (op)"), "\(outside.error)")
        let both = try quartz(["render", file, "-o", out, "--frame", "3", "--progress", "0.5"])
        #expect(both.status == 2 && both.error.contains("one of --time, --frame and --progress"), "\(both.error)")
        let scene = folder.appendingPathComponent("scene.json")
        try Data(#"{"format": "openquartz-scene", "version": 1, "size": [10, 10], "root": {}}"#.utf8).write(to: scene)
        let background = try quartz(["render", scene.path, "-o", out, "--background", "#ffffff", "--backend", "cpu"])
        #expect(background.status == 2 && background.error.contains("--background is for Lottie animations"), "\(background.error)")
        let colour = try quartz(["render", file, "-o", out, "--background", "#12345"])
        #expect(colour.status == 2 && colour.error.contains("hex"), "\(colour.error)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("standard input is recognised by content too")
    func standardInput() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("in.png")
        let run = try quartz(["render", "-", "-o", png.path, "--backend", "cpu", "--frame", "29"], input: Data(movingSquare.utf8))
        #expect(run.status == 0, "\(run.error)")
        #expect(try pixel(png, 78, 50) == red)
    }
}
