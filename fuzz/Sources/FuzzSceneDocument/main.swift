import FuzzSupport

runFuzzer { data, size in fuzzSceneDocument(data, size) }
