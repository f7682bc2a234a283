// Wide shadows drawn from their profile's grid (GLShadowProfiles) instead of the closed form at
// every pixel: within the GPU-vs-CPU bar of the CPU reference's closed form, on flat and turned
// layers, at two scales; one profile per shape, kept across frames.
import Compositor
import Foundation
import GLBackend
import LayerModel
import OpenCoreGraphics
import PixelDiff
import RasterBackend
import Testing

@Suite("Wide shadows from profiles", .serialized)
struct ShadowProfileTests {
    /// A device of the suite's own (its cases one at a time): its counts are these tests' alone,
    /// without opening a device per case.
    static let device = Result { try GLDevice() }

    enum Arrangement: String, CaseIterable, CustomTestStringConvertible {
        case flat, square, translucentCard, turned, twoShapes
        var testDescription: String { rawValue }
    }

    static func tree(_ arrangement: Arrangement) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 150)
        root.backgroundColor = CGColor(red: 0.95, green: 0.94, blue: 0.9, alpha: 1)
        let card = CALayer()
        card.frame = CGRect(x: 52.3, y: 41.7, width: 90.5, height: 58.25)
        card.backgroundColor = CGColor(red: 0.2, green: 0.45, blue: 0.9, alpha: arrangement == .translucentCard ? 0.6 : 1)
        card.cornerRadius = arrangement == .square ? 0 : 11.5
        card.shadowOpacity = 0.7
        card.shadowRadius = 17.5
        card.shadowOffset = CGSize(width: 3.5, height: 6.25)
        switch arrangement {
        case .turned: card.transform = CATransform3DMakeRotation(0.35, 0, 0, 1)
        default: break
        }
        root.addSublayer(card)
        if arrangement == .twoShapes {
            let other = CALayer()
            other.frame = CGRect(x: 12, y: 10, width: 40, height: 30)
            other.backgroundColor = CGColor(red: 0.9, green: 0.3, blue: 0.2, alpha: 1)
            other.cornerRadius = 6
            other.shadowOpacity = 0.5
            other.shadowRadius = 24
            root.addSublayer(other)
        }
        return root
    }

    @Test("within the bar of the CPU's closed form, from a profile made once per shape",
          arguments: Arrangement.allCases, [1.0, 2.0])
    func agrees(arrangement: Arrangement, scale: Double) throws {
        let root = Self.tree(arrangement)
        let list = try RenderListBuilder(viewport: root.frame, scale: scale).build(root: root)
        let device = try Self.device.get()
        let before = device.profiledShadows
        let gpu = try device.render(list)
        let after = device.profiledShadows
        #expect(after.quads > before.quads, "no shadow was drawn from a profile")
        // One profile per shape, made the first time the shape is drawn (at scale 2 the shapes
        // are new: their sizes in the plane are device pixels).
        #expect(after.profilesMade - before.profilesMade <= (arrangement == .twoShapes ? 2 : 1), "one profile per shape: \(before) -> \(after)")
        let cpu = RasterRenderer().render(list)
        let report = try ImageComparison.compare(cpu, gpu, tolerance: AgreementBar.gpuAgainstCPU.tolerance)
        #expect(AgreementBar.gpuAgainstCPU.failure(of: report) == nil, "\(report)")
        #expect(report.maxChannelDelta <= 2, "\(report)")
        // The same frame again: the profiles are kept, none is made.
        _ = try device.render(list)
        #expect(device.profiledShadows.profilesMade == after.profilesMade, "a kept profile was made again")
    }

    /// The texture's cells hold each grid cell's four corners, so the shader's one read
    /// interpolates the same four values as the grid's own `interpolated`: the same Float at
    /// points over the whole grid, its last column and row, and past it (clamped).
    @Test("a profile's cells interpolate as its grid does, to the bit", arguments: [(420.0, 260.0, 24.0, 100.0), (101.5, 66.25, 13.5, 5.5)])
    func cells(width: Double, height: Double, corner: Double, sigma: Double) throws {
        let shape = BlurredRoundedRect(deviceToLocal: .identity, rect: Rect(x: 0, y: 0, width: width, height: height),
                                       cornerRadius: corner, sigma: sigma, color: PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 1))
        let profile = try #require(BlurredRoundedRectProfile(BlurredRoundedRectProfile.Key(shape)))
        let cells = GLShadowProfiles.cells(of: profile)
        #expect(cells.count == 4 * profile.columns * profile.rows)
        var checked = 0
        let last = (x: Float(profile.columns - 1), y: Float(profile.rows - 1))
        for py in stride(from: -Float(height), through: Float(height), by: profile.spacing / 1.7) {
            for px in stride(from: -Float(width), through: Float(width), by: profile.spacing / 2.3) {
                // blurred_rounded_rect.glsl's profiledRoundedRect, one texel for four.
                let gx = min(max(abs(px) - profile.origin.x, 0) / profile.spacing, last.x)
                let gy = min(max(abs(py) - profile.origin.y, 0) / profile.spacing, last.y)
                let x0 = gx.rounded(.down), y0 = gy.rounded(.down)
                let at = 4 * (Int(y0) * profile.columns + Int(x0))
                let (fx, fy) = (gx - x0, gy - y0)
                let top = cells[at] + (cells[at + 1] - cells[at]) * fx, bottom = cells[at + 2] + (cells[at + 3] - cells[at + 2]) * fx
                let value = top + (bottom - top) * fy
                #expect(value == profile.interpolated(px: px, py: py), "at (\(px), \(py))")
                checked += 1
            }
        }
        #expect(checked > 1_000)
    }
}
