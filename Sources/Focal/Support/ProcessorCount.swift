#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The cores this machine has online, for sizing thread pools (1 if the system will not say).
package var processorCount: Int {
    let count = sysconf(Int32(_SC_NPROCESSORS_ONLN))
    return count > 0 ? Int(count) : 1
}
