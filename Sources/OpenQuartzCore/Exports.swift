// What users import: the layer model and Core Graphics types, so that
// `#if canImport(QuartzCore) import QuartzCore #else import OpenQuartzCore #endif` is all a port needs.
@_exported import LayerModel
@_exported import OpenCoreGraphics
