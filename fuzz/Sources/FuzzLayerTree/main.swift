import FuzzSupport
import OpenQuartzCore

// Images, backing stores and offscreen passes are capped at 4 megapixels, as a server taking
// documents from strangers would set them: a layer 16,000 points wide then costs 16 MiB, not 1 GiB.
ImageLimits.maxPixelCount = 4 << 20
ImageLimits.maxDimension = 8_192
runFuzzer { data, size in fuzzLayerTree(data, size) }
