// The pixelmatch comparator: constructed cases (identical, one pixel off, an anti-aliased edge
// shifted, a real change, colour shifts around the threshold), and a cross-check against the
// reference package (pixelmatch 0.3.0 from PyPI, the Python port of mapbox's pixelmatch),
// installed into a virtual environment: the same counts at every threshold, with and without
// anti-aliasing detection.
import Foundation
import OpenCoreGraphics
import PixelDiff
import Testing

/// An opaque image: white, with an anti-aliased disc (exact area coverage, 8x8 samples) and a
/// bar of `bar` colour.
private func picture(discAt center: (Double, Double), radius: Double = 11, bar: (UInt8, UInt8, UInt8) = (40, 90, 200),
                     width: Int = 48, height: Int = 40) -> Bitmap {
    Bitmap(width: width, height: height) { x, y in
        if x >= 30 && x < 44 && y >= 6 && y < 34 { return (bar.0, bar.1, bar.2, 255) }
        var inside = 0
        for sy in 0..<8 {
            for sx in 0..<8 {
                let dx = Double(x) + (Double(sx) + 0.5) / 8 - center.0, dy = Double(y) + (Double(sy) + 0.5) / 8 - center.1
                if dx * dx + dy * dy <= radius * radius { inside += 1 }
            }
        }
        let c = 255 - UInt8(Double(inside) / 64 * 235)
        return (c, c, 255 - UInt8(Double(inside) / 64 * 100), 255)
    }
}

@Suite("Pixelmatch")
struct PixelmatchTests {
    @Test("identical images: nothing differs")
    func identical() throws {
        let a = picture(discAt: (15, 20))
        #expect(try Pixelmatch.compare(a, a).differingPixels == 0)
    }

    @Test("one pixel changed a lot is one differing pixel; by 1/255 it is none")
    func onePixel() throws {
        let a = picture(discAt: (15, 20))
        var b = a, c = a
        let i = (10 * a.width + 40) * 4 // inside the bar
        b.pixels[i] = 255
        c.pixels[i] &+= 1
        #expect(try Pixelmatch.compare(a, b).differingPixels == 1)
        #expect(try Pixelmatch.compare(a, c).differingPixels == 0)
    }

    @Test("an anti-aliased edge moved by a fraction of a pixel is anti-aliasing, not a difference, unless included")
    func shiftedEdge() throws {
        let a = picture(discAt: (15, 20)), b = picture(discAt: (15.4, 20.3))
        let report = try Pixelmatch.compare(a, b)
        #expect(report.antialiasedPixels > 10)
        #expect(report.differingPixels < report.antialiasedPixels / 4, "\(report)")
        #expect(try Pixelmatch.compare(a, b, includeAntialiasing: true).differingPixels > report.differingPixels)
    }

    @Test("a colour shift below the threshold passes, one above it fails every pixel of the bar")
    func colourShift() throws {
        let a = picture(discAt: (15, 20))
        let slight = picture(discAt: (15, 20), bar: (44, 94, 204)), strong = picture(discAt: (15, 20), bar: (90, 140, 240))
        #expect(try Pixelmatch.compare(a, slight).differingPixels == 0)
        #expect(try Pixelmatch.compare(a, strong).differingPixels == 14 * 28)
        #expect(throws: ComparisonError.self) { try Pixelmatch.compare(a, Bitmap(width: 2, height: 2)) }
    }

    @Test("the counts equal the reference pixelmatch package's, at every threshold, with and without anti-aliasing")
    func matchesReference() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openquartz-pixelmatch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pairs: [(Bitmap, Bitmap)] = [
            (picture(discAt: (15, 20)), picture(discAt: (15.4, 20.3))),
            (picture(discAt: (15, 20)), picture(discAt: (16.5, 19, ), radius: 10)),
            (picture(discAt: (15, 20)), picture(discAt: (15, 20), bar: (60, 100, 190))),
            (picture(discAt: (12, 12), radius: 8), picture(discAt: (30, 28), radius: 9, bar: (200, 40, 40))),
        ]
        var files: [String] = []
        for (i, pair) in pairs.enumerated() {
            for (side, image) in [("a", pair.0), ("b", pair.1)] {
                let url = folder.appendingPathComponent("\(i)\(side).png")
                try CGImage(bitmap: image).writePNG(to: url)
                files.append(url.path)
            }
        }
        let thresholds = [0.0, 0.05, 0.1, 0.3]
        let venv = FileManager.default.temporaryDirectory.appendingPathComponent("openquartz-pixelmatch-venv")
        let script = """
        set -e
        [ -x "\(venv.path)/bin/python" ] || python3 -m venv --system-site-packages "\(venv.path)"
        "\(venv.path)/bin/python" -c 'import pixelmatch' 2>/dev/null || "\(venv.path)/bin/pip" install -q pixelmatch==0.3.0
        "\(venv.path)/bin/python" - "$@" <<'PY'
        import sys
        from PIL import Image
        from pixelmatch.core import pixelmatch
        files = sys.argv[1:]
        for k in range(0, len(files), 2):
            a = Image.open(files[k]).convert("RGBA"); b = Image.open(files[k + 1]).convert("RGBA")
            da, db = list(a.tobytes()), list(b.tobytes())
            for t in [\(thresholds.map { String($0) }.joined(separator: ", "))]:
                for aa in [False, True]:
                    print(pixelmatch(da, db, a.width, a.height, threshold=t, includeAA=aa))
        PY
        """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script, "pixelmatch-check"] + files
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile(), errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let message = "the reference pixelmatch could not run (python3-venv and PyPI are needed): " + String(decoding: errors, as: UTF8.self)
        try #require(process.terminationStatus == 0, Comment(rawValue: message))
        let reference = String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap { Int($0) }
        var ours: [Int] = []
        for (a, b) in pairs {
            let a2 = try CGImage.load(contentsOf: URL(fileURLWithPath: files[ours.count / 8 * 2])).bitmap
            let b2 = try CGImage.load(contentsOf: URL(fileURLWithPath: files[ours.count / 8 * 2 + 1])).bitmap
            #expect(a2 == a && b2 == b) // opaque images survive the PNG round trip exactly
            for t in thresholds {
                for aa in [false, true] { ours.append(try Pixelmatch.compare(a2, b2, threshold: t, includeAntialiasing: aa).differingPixels) }
            }
        }
        #expect(reference.count == ours.count)
        #expect(ours == reference, "ours \(ours), pixelmatch \(reference)")
        #expect(Set(ours).count > 4) // the cases really differ
    }
}
