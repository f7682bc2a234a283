// `import CoreText` on Linux: Core Text's fonts, lines and frames (CTFont, CTLine, CTRun,
// CTFramesetter, CTFrame, the attributed-string keys and paragraph styles), which live in
// OpenCoreGraphics beside the context they draw into, built on fontconfig, FreeType and HarfBuzz.
// Nothing is declared here.
@_exported import Foundation
@_exported import OpenCoreGraphics
