import FuzzSupport
import OpenQuartzCore

// Images, backing stores and offscreen passes capped as for scene documents (a server taking
// Lottie files from strangers would set them).
ImageLimits.maxPixelCount = 4 << 20
ImageLimits.maxDimension = 8_192
runFuzzer { data, size in fuzzLottieDocument(data, size) }
