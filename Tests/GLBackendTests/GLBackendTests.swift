// The GL backend against real GLES through EGL (llvmpipe on machines without a GPU): shaders,
// device selection, limits, and the same hand-made render lists the CPU reference is tested on.
import Compositor
import Foundation
import GLBackend
import LayerModel
import OpenCoreGraphics
import OpenQuartzShaders
import PixelDiff
import RasterBackend
import Testing



@Suite("GL backend")
struct GLBackendTests {
    @Test("every shader passes glslangValidator", arguments: ShaderSource.allCases)
    func glslangValidates(shader: ShaderSource) throws {
        let validator = ["/usr/bin/glslangValidator", "/usr/local/bin/glslangValidator"]
            .first { FileManager.default.isExecutableFile(atPath: $0) }
        let path = try #require(validator, "glslangValidator is missing: apt-get install glslang-tools")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("openquartz-glsl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent(shader.rawValue)
        try shader.text.write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = [file.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let log = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(shader.rawValue):\n\(log)")
    }

    @Test("every shader's include lines are replaced by their shared files", arguments: ShaderSource.allCases)
    func includesResolved(shader: ShaderSource) {
        let lines = shader.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(!lines.contains { $0.hasPrefix("//! include") }, "\(shader.rawValue) keeps an include line")
        #expect(shader.text(defining: ["A", "B"]).hasSuffix(shader.text.drop { $0 != "\n" }.dropFirst()))
    }

    @Test("every shader compiles on the live driver", arguments: ShaderSource.allCases)
    func driverCompiles(shader: ShaderSource) throws {
        try GLDevice.shared().compileShader(shader)
    }

    @Test("a shader that does not compile is an error carrying the driver's info log and the shader's name")
    func compileErrorShowsLog() throws {
        let broken = "#version 300 es\nprecision highp float;\nout vec4 color;\nvoid main() { color = undefined_thing; }\n"
        #expect {
            try GLDevice.shared().compileShader(text: broken, name: "broken.frag", isVertex: false)
        } throws: { error in
            guard case let GLError.shaderCompilation(shader, log) = error else { return false }
            return shader == "broken.frag" && log.contains("undefined_thing") && "\(error)".contains("broken.frag")
        }
    }

    @Test("the device reports an ES 3 context and sane limits")
    func caps() throws {
        let caps = try GLDevice.shared().caps
        #expect(caps.version.contains("OpenGL ES 3"))
        #expect(!caps.renderer.isEmpty && caps.renderer != "?")
        #expect(caps.maxTextureSize >= 2048 && caps.maxRenderTargetSize >= 2048)
        #expect(caps.maxRenderTargetSize <= caps.maxTextureSize)
    }

    @Test("asking for a platform that cannot open says what was tried")
    func platformAttempts() {
        // This passes where GBM opens (a machine with a render node) and checks the message where not.
        do {
            _ = try GLDevice(platform: .gbm, device: "/dev/dri/no-such-node")
            Issue.record("a missing render node should not open")
        } catch let GLError.noDisplay(attempts) {
            #expect(attempts.contains { $0.hasPrefix("gbm") })
            #expect("\(GLError.noDisplay(attempts: attempts))".contains("libegl-mesa0"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test("outputs beyond the render-target limit are refused with the limit named")
    func outputTooLarge() throws {
        let device = try GLDevice.shared()
        let limit = device.caps.maxRenderTargetSize
        #expect(throws: GLError.tooLarge(what: "the output", width: limit + 1, height: 1, limit: limit)) {
            try device.render(RenderList.singlePass(limit + 1, 1, []))
        }
    }

    @Test("an image wider than the texture limit is drawn in tiles, seamlessly, as on the CPU",
          arguments: [SamplingFilter.linear, .nearest])
    func textureTiles(filter: SamplingFilter) throws {
        let device = try GLDevice.shared()
        let width = device.caps.maxTextureSize + 700
        // Texels cycling through three colours: any texel read from the wrong place shows.
        let image = Bitmap(width: width, height: 3) { x, y in
            let k = x % 3
            return (k == 0 ? 255 : 30, k == 1 ? 255 : 30, k == 2 ? 255 : UInt8(30 + y * 40), 255)
        }
        let id = CGImage(bitmap: image).identifier
        // Show the 40 texels on either side of the first seam (texel maxTextureSize - 2), each
        // stretched over 5 pixels, at a quarter-pixel offset so bilinear samples straddle it.
        let seam = Double(device.caps.maxTextureSize - 2)
        let map = ProjectiveTransform2D(m11: 0.2 / Double(width), m12: 0, m13: 0, m21: 0, m22: 1.0 / 3, m23: 0,
                                        m31: (seam - 40.25) / Double(width), m32: 0, m33: 1)
        let fill = Fill.texture(TextureFill(texture: id, deviceToTexture: map, filter: filter))
        let list = RenderList.singlePass(400, 3, [DrawOp.rectangle(0, 0, 400, 3, fill: fill, targetWidth: 400, targetHeight: 3)],
                                         textures: [id: image])
        let gpu = try device.render(list), cpu = RasterRenderer().render(list)
        let report = try ImageComparison.compare(cpu, gpu, tolerance: 1)
        #expect(report.pixelsOverTolerance == 0, "\(report)")
        #expect(gpu.pixels.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 }) // every pixel drawn once
    }

    @Test("edge coverage and corners match the CPU reference's hand-computed values")
    func coverage() throws {
        let white = Fill.solid(PremultipliedColor(red: 1, green: 1, blue: 1, alpha: 1))
        let image = try GLDevice.shared().render(RenderList.singlePass(4, 2, [DrawOp.rectangle(0.5, 0.5, 2.5, 2, fill: white, targetWidth: 4, targetHeight: 2)]))
        let alphas = (0..<4).map { image[$0, 0].3 } + (0..<4).map { image[$0, 1].3 }
        let expected: [UInt8] = [64, 128, 64, 0, 128, 255, 128, 0]
        #expect(zip(alphas, expected).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "\(alphas)")
    }

    @Test("rows come back top first, in device orientation")
    func orientation() throws {
        let red = Fill.solid(PremultipliedColor(red: 1, green: 0, blue: 0, alpha: 1))
        let image = try GLDevice.shared().render(RenderList.singlePass(3, 3, [DrawOp.rectangle(0, 0, 3, 1, fill: red, targetWidth: 3, targetHeight: 3)]))
        #expect(image[1, 0] == (255, 0, 0, 255))
        #expect(image[1, 2] == (0, 0, 0, 0))
    }

    @Test("a texture mapped texel for pixel reproduces the image", arguments: [SamplingFilter.linear, .nearest])
    func identityTexture(filter: SamplingFilter) throws {
        let source = Bitmap(width: 4, height: 3) { x, y in (UInt8(x * 60), UInt8(y * 100), 7, 255) }
        let map = ProjectiveTransform2D(m11: 0.25, m12: 0, m13: 0, m21: 0, m22: 1.0 / 3, m23: 0, m31: 0, m32: 0, m33: 1)
        // Texture ids name image content process-wide (the device caches by id): a fresh image's.
        let id = CGImage(bitmap: source).identifier
        let fill = Fill.texture(TextureFill(texture: id, deviceToTexture: map, filter: filter))
        let image = try GLDevice.shared().render(RenderList.singlePass(4, 3, [DrawOp.rectangle(0, 0, 4, 3, fill: fill, targetWidth: 4, targetHeight: 3)],
                                                       textures: [id: source]))
        let report = try ImageComparison.compare(source, image, tolerance: 1)
        #expect(report.pixelsOverTolerance == 0, "\(report)")
    }

    @Test("halving passes are exact 2x2 means, as on the CPU", arguments: [0, 1])
    func halve(originX: Int) throws {
        let source = RenderPass(id: 0, width: 8, height: 4, ops: [
            DrawOp.rectangle(0.25, 0.5, 5.5, 3.75, fill: Fill.solid(PremultipliedColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 0.8)),
                             targetWidth: 8, targetHeight: 4)])
        let list = RenderList(width: 5, height: 2,
                              passes: [source, RenderPass(id: 1, width: 5, height: 2, ops: [.halve(HalveOp(source: 0, originX: originX))])],
                              textures: [:], diagnostics: [])
        let gpu = try GLDevice.shared().render(list), cpu = RasterRenderer().render(list)
        let report = try ImageComparison.compare(cpu, gpu, tolerance: 1)
        #expect(report.pixelsOverTolerance == 0, "\(report)")
        #expect(cpu[originX, 0].3 > 0 && cpu[4, 0].3 == 0)
    }

    @Test("a projected, textured, translucent polygon agrees with the CPU reference within the bar")
    func agreesWithReference() throws {
        let source = Bitmap(width: 16, height: 16) { x, y in
            let a = UInt8(128 + (x * 8))
            return (UInt8(Int(a) * x / 16), UInt8(Int(a) * y / 16), a / 2, a)
        }
        let map = ProjectiveTransform2D(m11: 0.02, m12: 0.003, m13: 0.0004, m21: -0.004, m22: 0.025, m23: 0.0002,
                                        m31: 0.1, m32: -0.05, m33: 1)
        let id = CGImage(bitmap: source).identifier
        let polygon = CoveragePolygon(vertices: [DevicePoint(x: 5.2, y: 3.9), DevicePoint(x: 58.3, y: 8.1),
                                                 DevicePoint(x: 50.6, y: 44.4), DevicePoint(x: 9.9, y: 40.2)],
                                      targetWidth: 64, targetHeight: 48)!
        let ops: [DrawOp] = [
            DrawOp.rectangle(0, 0, 64, 48, fill: .solid(PremultipliedColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 1)),
                             targetWidth: 64, targetHeight: 48),
            .quad(QuadOp(source: "textured", localRect: Rect(x: 0, y: 0, width: 1, height: 1), localToDevice: .identity,
                         polygon: polygon, fill: .texture(TextureFill(texture: id, deviceToTexture: map, filter: .linear)),
                         opacity: 0.8)),
        ]
        let list = RenderList.singlePass(64, 48, ops, textures: [id: source])
        let gpu = try GLDevice.shared().render(list)
        let cpu = RasterRenderer().render(list)
        let report = try ImageComparison.compare(cpu, gpu, tolerance: AgreementBar.gpuAgainstCPU.tolerance)
        #expect(AgreementBar.gpuAgainstCPU.failure(of: report) == nil, "\(report)")
    }

    @Test("runs of solid quads draw in one instanced call, in order, as the CPU reference draws them")
    func batching() throws {
        let device = try GLDevice.shared()
        // 300 overlapping translucent squares at sub-pixel places, a plus-blended quad in the
        // middle of the run (which must split it in two, keeping the order), then more squares.
        var ops: [DrawOp] = []
        func square(_ i: Int) -> DrawOp {
            let cx = Double((i * 37) % 120) + 4 + Double(i % 10) / 10, cy = Double((i * 53) % 90) + 4 + Double(i % 7) / 7, angle = 0.0
            let corners = [(-6.0, -6.0), (6.0, -6.0), (6.0, 6.0), (-6.0, 6.0)].map { x, y in
                DevicePoint(x: cx + x * cos(angle) - y * sin(angle), y: cy + x * sin(angle) + y * cos(angle))
            }
            let polygon = CoveragePolygon(vertices: corners, targetWidth: 128, targetHeight: 96)!
            return .quad(QuadOp(source: DrawSource(layer: nil, part: "square \(i)"), localRect: Rect(x: 0, y: 0, width: 1, height: 1), localToDevice: .identity,
                                polygon: polygon, fill: .solid(PremultipliedColor(red: Double(i % 7) / 14, green: 0.25, blue: 0.4, alpha: 0.6)),
                                opacity: 0.9))
        }
        ops += (0..<150).map(square)
        ops.append(DrawOp.rectangle(40, 30, 90, 70, fill: .solid(PremultipliedColor(red: 0, green: 0, blue: 0.5, alpha: 0.5)),
                                    targetWidth: 128, targetHeight: 96, blend: .plus))
        ops += (150..<300).map(square)
        let list = RenderList.singlePass(128, 96, ops)
        let (gpu, quads, calls) = try device.renderCountingBatches(list)
        #expect(quads == 300)
        #expect(calls == 2) // the plus-blended quad splits the run
        let report = try ImageComparison.compare(RasterRenderer().render(list), gpu, tolerance: AgreementBar.gpuAgainstCPU.tolerance)
        #expect(AgreementBar.gpuAgainstCPU.failure(of: report) == nil, "\(report)")
    }

    @Test("turned solid quads draw with the exact area inside them, in runs where they have an interior, and agree with the CPU")
    func turnedQuads() throws {
        let device = try GLDevice.shared()
        // 60 translucent squares, each turned a little more, some thinner than a pixel.
        let ops: [DrawOp] = (0..<60).map { i in
            let cx = Double((i * 37) % 120) + 4.3, cy = Double((i * 53) % 90) + 4.6, angle = Double(i + 1) * 0.1
            let half = i % 3 == 0 ? 0.2 : 6.0
            let corners = [(-6.0, -half), (6.0, -half), (6.0, half), (-6.0, half)].map { x, y in
                DevicePoint(x: cx + x * cos(angle) - y * sin(angle), y: cy + x * sin(angle) + y * cos(angle))
            }
            let polygon = CoveragePolygon(vertices: corners, targetWidth: 128, targetHeight: 96)!
            return .quad(QuadOp(source: DrawSource(layer: nil, part: "square \(i)"), localRect: Rect(x: 0, y: 0, width: 1, height: 1), localToDevice: .identity,
                                polygon: polygon, fill: .solid(PremultipliedColor(red: Double(i % 7) / 14, green: 0.25, blue: 0.4, alpha: 0.6)),
                                opacity: 0.9))
        }
        let list = RenderList.singlePass(128, 96, ops)
        let (gpu, quads, _) = try device.renderCountingBatches(list)
        // The 12 x 12 squares in runs (GLQuadBatch.Kind.turned); the slivers, with no interior, singly.
        #expect(quads == 40)
        let report = try ImageComparison.compare(RasterRenderer().render(list), gpu, tolerance: AgreementBar.gpuAgainstCPU.tolerance)
        #expect(AgreementBar.gpuAgainstCPU.failure(of: report) == nil, "\(report)")
        #expect(report.maxChannelDelta <= 1, "\(report)")
    }

    @Test("rounded solid quads (cards and their borders, rings included) batch too, and agree with the CPU")
    func roundedBatching() throws {
        let device = try GLDevice.shared()
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 320, height: 200)
        for i in 0..<120 {
            let card = CALayer()
            card.bounds = CGRect(x: 0, y: 0, width: 40, height: 28)
            card.position = CGPoint(x: Double((i * 97) % 300) + 10, y: Double((i * 61) % 180) + 10)
            card.cornerRadius = i % 3 == 0 ? 14 : 8
            card.cornerCurve = i < 40 ? .continuous : .circular
            card.backgroundColor = CGColor(red: Double(i % 5) / 5, green: 0.4, blue: 0.8, alpha: 0.8)
            card.borderWidth = 2
            card.borderColor = CGColor(red: 1, green: 1, blue: 1, alpha: 0.9)
            card.transform = CATransform3DMakeRotation(Double(i) * 0.05, 0, 0, 1)
            root.addSublayer(card)
        }
        let list = try RenderListBuilder(viewport: root.frame, scale: 1).build(root: root)
        let (gpu, quads, calls) = try device.renderCountingBatches(list)
        // 120 cards, each a rounded background and a ring (the border), in two runs: continuous
        // corners have a program of their own (a constant folded into it).
        #expect(quads == 240)
        #expect(calls == 2)
        let report = try ImageComparison.compare(RasterRenderer().render(list), gpu, tolerance: AgreementBar.gpuAgainstCPU.tolerance)
        #expect(AgreementBar.gpuAgainstCPU.failure(of: report) == nil, "\(report)")
    }

    @Test("rounded cards drawn as their own outline under perspective (steep ones by their pixel bounds) agree with the CPU")
    func roundedBatchGeometryUnderPerspective() throws {
        let device = try GLDevice.shared()
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 320, height: 200)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / 300
        root.sublayerTransform = perspective
        for i in 0..<24 {
            let card = CALayer()
            card.bounds = CGRect(x: 0, y: 0, width: Double(30 + i * 7), height: Double(20 + i * 3))
            card.position = CGPoint(x: Double((i * 83) % 280) + 20, y: Double((i * 47) % 160) + 20)
            card.cornerRadius = Double(4 + i % 9)
            card.backgroundColor = CGColor(red: Double(i % 5) / 5, green: 0.4, blue: 0.8, alpha: 0.8)
            card.borderWidth = Double(1 + i % 4)
            card.borderColor = CGColor(red: 1, green: 1, blue: 1, alpha: 0.9)
            // Tilted about y and x, some steeply (their w varies by more than the outline's
            // geometry allows across their bounds, so they are drawn by their bounds).
            // (Not edge-on: slivers of planes seen edge-on are where the backends part anyway.)
            card.transform = CATransform3DConcat(CATransform3DMakeRotation(Double(i) * 0.04, 0, 1, 0),
                                                 CATransform3DMakeRotation(Double(i % 5) * 0.15, 1, 0, 0))
            card.zPosition = Double(i % 3) * 40
            root.addSublayer(card)
        }
        let list = try RenderListBuilder(viewport: root.frame, scale: 1).build(root: root)
        let (gpu, quads, _) = try device.renderCountingBatches(list)
        #expect(quads > 24)
        let report = try ImageComparison.compare(RasterRenderer().render(list), gpu, tolerance: AgreementBar.gpuAgainstCPU.tolerance)
        #expect(AgreementBar.gpuAgainstCPU.failure(of: report) == nil, "\(report)")
    }

    @Test("a card and its border are composited as one (ring over fill, one rounding), alike on both backends")
    func backgroundAndBorderAsOne() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 60, height: 60)
        root.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        let card = CALayer()
        card.frame = CGRect(x: 10, y: 10, width: 40, height: 40)
        card.cornerRadius = 8
        card.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 0.5)
        card.borderWidth = 6
        card.borderColor = CGColor(red: 0, green: 0, blue: 1, alpha: 0.5)
        root.addSublayer(card)
        let list = try RenderListBuilder(viewport: root.frame, scale: 1).build(root: root)
        let quads = list.passes.last!.ops.compactMap { op -> QuadOp? in if case .quad(let q) = op { q } else { nil } }
        #expect(quads.count == 3 && quads[2].isBorder(over: quads[1]) && !quads[1].isBorder(over: quads[0]))
        // In the border, both wholly: (0, 0, .5, .5) + (.5, 0, 0, .5) x .5 = (.25, 0, .5, .75) over
        // white, rounded once: (128, 64, 192, 255). Twice (the fill, then the ring) gives (127, 63, 191).
        let cpu = RasterRenderer().render(list), gpu = try GLDevice.shared().render(list)
        #expect(cpu[13, 30] == (128, 64, 192, 255))
        #expect(gpu[13, 30] == (128, 64, 192, 255))
        // A sublayer between the background and the border keeps them two draws.
        let child = CALayer()
        child.frame = CGRect(x: 30, y: 30, width: 4, height: 4)
        child.backgroundColor = .black
        card.addSublayer(child)
        let split = try RenderListBuilder(viewport: root.frame, scale: 1).build(root: root)
        let ops = split.passes.last!.ops.compactMap { op -> QuadOp? in if case .quad(let q) = op { q } else { nil } }
        #expect(ops.count == 4 && !ops[3].isBorder(over: ops[2]))
        #expect(RasterRenderer().render(split)[13, 30] == (127, 63, 191, 255))
        #expect(try GLDevice.shared().render(split)[13, 30] == (127, 63, 191, 255))
    }

    @Test("a background filling the frame becomes the clear colour only where it covers every pixel wholly")
    func backgroundAsClearColor() throws {
        for (offset, opacity) in [(0.0, 1.0), (0.0, 0.6), (0.5, 1.0), (-0.25, 1.0)] {
            let root = CALayer()
            root.frame = CGRect(x: offset, y: offset, width: 48, height: 32)
            root.backgroundColor = CGColor(red: 0.2, green: 0.5, blue: 0.9, alpha: 0.7)
            root.opacity = Float(opacity)
            let dot = CALayer()
            dot.frame = CGRect(x: 10, y: 10, width: 5, height: 5)
            dot.backgroundColor = .black
            root.addSublayer(dot)
            let list = try RenderListBuilder(viewport: CGRect(x: 0, y: 0, width: 48, height: 32), scale: 1).build(root: root)
            let cpu = RasterRenderer().render(list), gpu = try GLDevice.shared().render(list)
            // Half-covered edges (offset 0.5) must stay draws: their pixels are not the clear
            // colour. (Within 1/255: 0.7 in 32-bit float is a hair under, 178.4999 of 255.)
            let apart = zip(cpu.pixels, gpu.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(apart <= 1, "offset \(offset), opacity \(opacity)")
            #expect(gpu[24, 16].3 > 100)
        }
    }

    @Test("a render list is safe to render from several threads at once")
    func concurrentRendering() async throws {
        let device = try GLDevice.shared()
        let red = Fill.solid(PremultipliedColor(red: 1, green: 0, blue: 0, alpha: 1))
        let list = RenderList.singlePass(32, 32, [DrawOp.rectangle(4, 4, 28, 28, fill: red, targetWidth: 32, targetHeight: 32)])
        let expected = try device.render(list)
        try await withThrowingTaskGroup(of: Bitmap.self) { group in
            for _ in 0..<8 { group.addTask { try device.render(list) } }
            for try await image in group { #expect(image == expected) }
        }
    }
}
