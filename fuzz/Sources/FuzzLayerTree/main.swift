import FuzzSupport

runFuzzer { data, size in fuzzLayerTree(data, size) }
