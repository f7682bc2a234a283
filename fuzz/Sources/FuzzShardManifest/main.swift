import FuzzSupport

runFuzzer { data, size in fuzzShardManifest(data, size) }
