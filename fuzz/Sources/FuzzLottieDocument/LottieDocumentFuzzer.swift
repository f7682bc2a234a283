import Foundation
import LottieImport
import OpenQuartzCore

/// Lottie documents: any bytes are either a document or a `LottieError` naming the JSON path at
/// fault; a document is made into layers, paused at a frame and rendered on the CPU (into at
/// most 96 x 96 pixels, so the fuzzer spends its time on the importer and the compositor).
func fuzzLottieDocument(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let document: LottieDocument
    let root: CALayer
    do {
        document = try LottieDocument(data: Data(UnsafeBufferPointer(start: data, count: size)))
        root = try document.makeLayer()
    } catch let error as LottieError {
        precondition(!error.path.isEmpty && !error.reason.isEmpty, "a LottieError must say where and what")
        return 0
    } catch {
        preconditionFailure("a Lottie document fails only with a LottieError: \(error)")
    }
    root.speed = 0
    root.timeOffset = document.frame(atProgress: 0.5) / document.frameRate
    let viewport = CALayer()
    viewport.frame = CGRect(x: 0, y: 0, width: min(document.width, 96), height: min(document.height, 96))
    viewport.addSublayer(root)
    _ = try? viewport.presentationTree(atMediaTime: 0).renderedImage(bounds: viewport.bounds, backend: .cpu)
    return 0
}
