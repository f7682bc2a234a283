// What users import: the layer model, Core Graphics types and Foundation (CGRect, CGFloat,
// NSNumber, URL ...), as Apple's QuartzCore brings them, so `import OpenQuartzCore` alone is
// enough, and `#if canImport(QuartzCore) import QuartzCore #else import OpenQuartzCore #endif`
// is all a port needs (on Linux the package's QuartzCore module re-exports this one).
@_exported import Foundation
@_exported import LayerModel
@_exported import OpenCoreGraphics
