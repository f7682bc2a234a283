import Foundation
import OpenQuartzCore
import SceneCatalog

/// Random layer trees with hostile values (NaN, infinite and huge geometry, transforms, radii,
/// opacities) composited and drawn by the CPU reference: the render list builder, depth sorting,
/// clipping, masks, shadows and the rasterizer. With FUZZ_GL=1 the GL backend (llvmpipe) draws
/// each tree too.
func fuzzLayerTree(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzedBytes(Array(UnsafeBufferPointer(start: data, count: size)))
    let root = RandomLayerTree.make(from: &input, size: 48, maxLayers: 16, hostile: true)
    let area = CGRect(x: 0, y: 0, width: 48, height: 48)
    _ = try? root.renderedImage(bounds: area, backend: .cpu)
    if glToo { _ = try? root.renderedImage(bounds: area, backend: .gpu) }
    return 0
}

private let glToo = ProcessInfo.processInfo.environment["FUZZ_GL"] == "1"
