import Foundation
import OpenQuartzCore
import SceneFormat

/// Scene documents: any bytes are either a document or a `SceneError` naming what is wrong;
/// a document that checks is played and rendered on the CPU (into at most 96 x 96 pixels, so
/// the fuzzer spends its time on the decoder and the compositor, not on filling pixels).
func fuzzSceneDocument(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var limits = SceneLimits()
    limits.maxLayers = 2_000
    limits.maxTransactions = 200
    let document: SceneDocument
    do {
        document = try SceneDocument(data: Data(UnsafeBufferPointer(start: data, count: size)), limits: limits)
    } catch {
        precondition(!error.description.isEmpty, "a SceneError must say what is wrong")
        return 0
    }
    let player = document.makePlayer()
    player.advance(to: min(document.time, 10))
    let area = CGRect(x: 0, y: 0, width: min(document.size.width, 96), height: min(document.size.height, 96))
    _ = try? player.presentation().renderedImage(bounds: area, backend: .cpu)
    return 0
}
