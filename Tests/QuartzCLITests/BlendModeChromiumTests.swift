// Blend modes against headless Chromium's CSS mix-blend-mode (an independent implementation of
// the same W3C formulas): a strip of backdrops of several colours, some translucent, under a
// translucent square in each of the 15 modes, the same scene as a scene document (both backends)
// and as absolutely placed divs. Sampled in the middle of each backdrop under the square, away
// from every edge.
import Foundation
import OpenCoreGraphics
import Testing

@Suite("Blend modes against Chromium")
struct BlendModeChromiumTests {
    static let modes = ["multiply", "screen", "overlay", "darken", "lighten", "color-dodge", "color-burn", "hard-light",
                        "soft-light", "difference", "exclusion", "hue", "saturation", "color", "luminosity"]
    /// Backdrop stripes (CSS colours and the document's [r, g, b, a]): opaque and translucent.
    static let stripes: [(css: String, rgba: [Double])] = [
        ("rgba(30,144,255,1)", [30 / 255, 144 / 255, 1, 1]), ("rgba(255,215,0,1)", [1, 215 / 255, 0, 1]),
        ("rgba(230,76,51,0.6)", [230 / 255, 76 / 255, 51 / 255, 0.6]), ("rgba(20,20,20,1)", [20 / 255, 20 / 255, 20 / 255, 1]),
        ("rgba(240,240,240,1)", [240 / 255, 240 / 255, 240 / 255, 1]), ("rgba(60,200,90,0.8)", [60 / 255, 200 / 255, 90 / 255, 0.8]),
    ]
    static let source = (css: "rgba(204,51,230,0.8)", rgba: [204.0 / 255, 51.0 / 255, 230.0 / 255, 0.8])
    static let cell = (width: 120, height: 40), stripe = 20

    static func camel(_ css: String) -> String {
        let parts = css.split(separator: "-")
        return parts.enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.capitalized }.joined()
    }

    static func scene() -> String {
        var layers: [String] = []
        for (row, mode) in modes.enumerated() {
            for (i, s) in stripes.enumerated() {
                layers.append(#"{"frame": [\#(i * stripe), \#(row * cell.height), \#(stripe), \#(cell.height)], "backgroundColor": \#(s.rgba)}"#)
            }
            layers.append(#"{"frame": [0, \#(row * cell.height + 10), \#(cell.width), 20], "backgroundColor": \#(source.rgba), "#
                + #""compositingFilter": "\#(camel(mode))BlendMode"}"#)
        }
        return #"{"format": "openquartz-scene", "version": 1, "size": [\#(cell.width), \#(modes.count * cell.height)], "root": {"#
            + #""frame": [0, 0, \#(cell.width), \#(modes.count * cell.height)], "backgroundColor": "white", "sublayers": ["#
            + layers.joined(separator: ",\n") + "]}}"
    }

    static func page() -> String {
        var divs = ""
        for (row, mode) in modes.enumerated() {
            for (i, s) in stripes.enumerated() {
                divs += "<div style=\"left:\(i * stripe)px;top:\(row * cell.height)px;width:\(stripe)px;height:\(cell.height)px;background:\(s.css)\"></div>\n"
            }
            divs += "<div style=\"left:0;top:\(row * cell.height + 10)px;width:\(cell.width)px;height:20px;background:\(source.css);"
                + "mix-blend-mode:\(mode)\"></div>\n"
        }
        return "<!doctype html><html><head><style>html,body{margin:0;background:white}div{position:absolute}</style></head>"
            + "<body>\(divs)</body></html>"
    }

    @Test("each of the 15 modes within 3/255 of Chromium's mix-blend-mode over opaque and translucent backdrops, on both backends")
    func againstChromium() throws {
        guard let chromium = QuartzCLITests().chromiumPath() else {
            Issue.record("headless Chromium is needed: scripts/install-deps.sh --test installs it")
            return
        }
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sceneURL = folder.appendingPathComponent("blend.json"), pageURL = folder.appendingPathComponent("blend.html")
        try Data(Self.scene().utf8).write(to: sceneURL)
        try Data(Self.page().utf8).write(to: pageURL)
        let height = Self.modes.count * Self.cell.height
        let shot = folder.appendingPathComponent("chromium.png")
        _ = try QuartzCLITests.browse(chromium, pageURL, profile: folder,
                                      ["--force-device-scale-factor=1", "--window-size=\(Self.cell.width),\(height)", "--screenshot=\(shot.path)"])
        let reference = try CGImage.load(contentsOf: shot).bitmap
        for backend in ["cpu", "gpu"] {
            let ours = folder.appendingPathComponent("\(backend).png")
            let run = try quartz(["render", sceneURL.path, "-o", ours.path, "--backend", backend])
            try #require(run.status == 0, "\(run.error)")
            let image = try CGImage.load(contentsOf: ours).bitmap
            var worst = (delta: 0, mode: "", stripe: 0)
            for (row, mode) in Self.modes.enumerated() {
                for i in Self.stripes.indices {
                    // The middle of the square over stripe i.
                    let (x, y) = (i * Self.stripe + Self.stripe / 2, row * Self.cell.height + 20)
                    let a = image[x, y], b = reference[x, y]
                    let delta = max(abs(Int(a.0) - Int(b.0)), abs(Int(a.1) - Int(b.1)), abs(Int(a.2) - Int(b.2)))
                    if delta > worst.delta { worst = (delta, mode, i) }
                }
            }
            print("\(backend) against Chromium's mix-blend-mode: worst \(worst.delta)/255 (\(worst.mode), stripe \(worst.stripe))")
            #expect(worst.delta <= 3, "\(backend): \(worst.mode) over stripe \(worst.stripe) is \(worst.delta)/255 from Chromium's")
        }
    }
}
