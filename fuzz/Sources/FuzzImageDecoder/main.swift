import FuzzSupport
import OpenQuartzCore

// Image sizes are capped at 4 megapixels here, as a server would configure them, so a header
// declaring a large image is refused rather than allocated.
ImageLimits.maxPixelCount = 4 << 20
ImageLimits.maxDimension = 8_192
runFuzzer { data, size in fuzzImageDecoder(data, size) }
