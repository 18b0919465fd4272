@_spi(Fuzzing) import FocalService

/// One input through `FuzzingEntryPoints.requestHead`; a crash or a 5xx answer stops the process.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzingEntryPoints.requireNoServerFault(FuzzingEntryPoints.requestHead(UnsafeRawBufferPointer(start: start, count: count)))
    return 0
}

@main enum FuzzTarget {
    static func main() { FuzzingEntryPoints.start(target: "request-head", fuzzOneInput) }
}
