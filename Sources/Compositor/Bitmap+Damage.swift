import OpenCoreGraphics

extension Bitmap {
    /// Writes `patch`'s pixels over `rect` of this bitmap (`patch` is `rect`'s size; rows top to
    /// bottom in both): a frame's damage drawn and read alone, laid over the frame before it.
    public mutating func replace(_ rect: PixelRect, with patch: Bitmap) {
        precondition(patch.width == rect.width && patch.height == rect.height, "a patch of \(patch.width)x\(patch.height) for \(rect)")
        precondition(rect.minX >= 0 && rect.minY >= 0 && rect.maxX <= width && rect.maxY <= height, "\(rect) outside \(width)x\(height)")
        let rowBytes = rect.width * 4, stride = width * 4
        pixels.withUnsafeMutableBytes { target in
            patch.pixels.withUnsafeBytes { source in
                for row in 0..<rect.height {
                    (target.baseAddress! + (rect.minY + row) * stride + rect.minX * 4)
                        .copyMemory(from: source.baseAddress! + row * rowBytes, byteCount: rowBytes)
                }
            }
        }
    }
}
