import FuzzSupport

runFuzzer { data, size in fuzzPathRaster(data, size) }
