@_spi(Fuzzing) import FocalService

/// One input through `FuzzingEntryPoints.imageUpload`, which stops the process on a crash or on a 5xx
/// answer to malformed input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzingEntryPoints.requireNoServerFault(FuzzingEntryPoints.imageUpload(UnsafeRawBufferPointer(start: start, count: count)))
    return 0
}

@main enum FuzzTarget {
    static func main() {
        #if FUZZING
            // SwiftPM names the executable's entry point itself, so libFuzzer's own main never
            // links; its driver is started from here instead, with the same arguments.
            FuzzingEntryPoints.runLibFuzzer(arguments: CommandLine.arguments, fuzzOneInput)
        #else
            print("An ordinary build of a fuzz target does nothing; run it with:")
            print("  make fuzz FUZZ_TARGETS=image-upload FUZZ_SECONDS=60")
            print("The test suite replays Fuzz/Corpus/image-upload through the same entry point.")
        #endif
    }
}
