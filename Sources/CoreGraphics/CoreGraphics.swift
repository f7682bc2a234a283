// `import CoreGraphics` on Linux: OpenCoreGraphics (CGPath, CGContext, CGColor, CGImage, ...) and
// Foundation, whose CGFloat, CGPoint, CGSize and CGRect are Core Graphics' geometry types there.
// Nothing is declared here.
@_exported import Foundation
@_exported import OpenCoreGraphics
