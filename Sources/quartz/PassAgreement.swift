import Compositor
import GLBackend
import OpenCoreGraphics
import PixelDiff
import RasterBackend

/// Where in a frame the GPU and the CPU part: each pass of the render list drawn on both, as if
/// it were the frame (the list cut after it), and compared. The first pass over the bar is where
/// to look; the passes after it inherit its difference. What `quartz check --passes` prints.
enum PassAgreement {
    struct Row {
        let index: Int
        let pass: RenderPass
        let report: ComparisonReport
        let agrees: Bool
        /// The pass as each backend drew it.
        let cpu: Bitmap
        let gpu: Bitmap
    }

    static func rows(of list: RenderList, device: GLDevice) throws -> [Row] {
        let bar = AgreementBar.gpuAgainstCPU
        return try list.passes.indices.map { index in
            let pass = list.passes[index]
            // Cache keys off: each cut list is drawn whole, never from an earlier cut's passes.
            let passes = list.passes[...index].map { RenderPass(id: $0.id, width: $0.width, height: $0.height, ops: $0.ops) }
            let cut = RenderList(width: pass.width, height: pass.height, passes: passes, textures: list.textures,
                                 diagnostics: [])
            let cpu = RasterRenderer().render(cut), gpu = try device.render(cut)
            let report = try ImageComparison.compare(cpu, gpu, tolerance: bar.tolerance)
            return Row(index: index, pass: pass, report: report, agrees: bar.failure(of: report) == nil, cpu: cpu, gpu: gpu)
        }
    }

    static func describe(_ row: Row, of count: Int) -> String {
        let what = row.index == count - 1 ? "frame pass" : "pass \(row.pass.id)"
        return "  \(what) (\(row.index + 1) of \(count), \(row.pass.width)x\(row.pass.height), \(row.pass.ops.count) ops): "
            + "\(row.agrees ? "agree" : "DISAGREE"): max delta \(row.report.maxChannelDelta), "
            + "\(row.report.pixelsOverTolerance) pixels over \(row.report.tolerance)"
    }
}
