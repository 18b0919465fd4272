// The start-up reference for the benchmarks: a Swift program that links nothing but the runtime.
print("hello")
