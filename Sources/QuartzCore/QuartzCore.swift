// `import QuartzCore` on Linux, so a file written for Apple's platforms compiles with its imports
// untouched: OpenQuartzCore (the layer model, CARenderer), our CoreGraphics and Foundation (CGRect,
// CGFloat, NSNumber, URL ...), as Apple's QuartzCore brings them. Nothing is declared here.
@_exported import CoreGraphics
@_exported import Foundation
@_exported import OpenQuartzCore
