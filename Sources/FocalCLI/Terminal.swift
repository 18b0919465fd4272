#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a line to standard error, prefixed with the command's name.
func printError(_ message: String) {
    let line = "focal: \(message)\n"
    _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
}

/// text followed by spaces up to width characters.
func padded(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(1, width - text.count))
}

/// Unblocks SIGINT and SIGTERM: a parent may have started us with them blocked (the mask survives
/// exec), which would leave Ctrl-C and a supervisor's stop without effect.
func unblockStopSignals() {
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGINT)
    sigaddset(&set, SIGTERM)
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
}
