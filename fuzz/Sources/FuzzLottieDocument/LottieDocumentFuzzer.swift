import Foundation
import LottieImport
import OpenQuartzCore

/// Lottie documents and dotLottie archives: any bytes are either a document or a `LottieError`
/// naming the JSON path (or the archive's entry) at fault; a document is made into layers,
/// fitted into 96 x 96 points as `quartz render --size` fits it, paused halfway and rendered on
/// the CPU (so the fuzzer spends its time on the importer and the compositor).
func fuzzLottieDocument(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let player: LottiePlayer
    do {
        let bytes = Data(UnsafeBufferPointer(start: data, count: size))
        let document = DotLottieArchive.isArchive(bytes) ? try DotLottieArchive(data: bytes).document() : try LottieDocument(data: bytes)
        player = try LottiePlayer(document: document, viewport: CGSize(width: 96, height: 96))
    } catch let error as LottieError {
        precondition(!error.path.isEmpty && !error.reason.isEmpty, "a LottieError must say where and what")
        return 0
    } catch {
        preconditionFailure("a Lottie document fails only with a LottieError: \(error)")
    }
    player.seek(toProgress: 0.5)
    _ = try? player.presentation().renderedImage(bounds: player.root.bounds, backend: .cpu)
    return 0
}
