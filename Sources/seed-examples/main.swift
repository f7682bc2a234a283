// Renders the seeds' Swift ports: `swift run seed-examples [OUT_DIR] [gpu|cpu]`.
import Foundation
import OpenQuartzCore
import SeedExamples

let arguments = CommandLine.arguments.dropFirst()
let folder = URL(fileURLWithPath: arguments.first ?? "out/seed-examples", isDirectory: true)
let backend = arguments.dropFirst().first.flatMap(RenderBackend.init(rawValue:)) ?? .cpu
do {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for example in SeedExamples.all {
        let image = try example.render(backend: backend)
        let url = folder.appendingPathComponent("\(example.name).png")
        try image.writePNG(to: url)
        print("\(url.path): \(image.width)x\(image.height) at t=\(example.time) s")
    }
} catch {
    FileHandle.standardError.write(Data("seed-examples: \(error)\n".utf8))
    exit(3)
}
