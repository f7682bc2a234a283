import FuzzSupport

runFuzzer { data, size in fuzzBenchReport(data, size) }
