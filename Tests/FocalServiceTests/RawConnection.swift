import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A plain TCP connection to the live server, for requests URLSession will not send: a head cut
/// in half, a Content-Length of 10 GiB, bytes that are not HTTP.
final class RawConnection: @unchecked Sendable {
    private let socket: Int32

    init(port: Int) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(socket)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    deinit { close(socket) }

    func send(_ text: String) { send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            sent += n
        }
    }

    /// What the server sends within `seconds`, up to the point where it closes the connection (or
    /// `until` is seen); `closed` tells which.
    func receive(within seconds: Double, until marker: String? = nil) -> (text: String, closed: Bool) {
        var received: [UInt8] = []
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let left = Int32(max(1, deadline.timeIntervalSinceNow * 1000))
            guard poll(&descriptor, 1, min(left, 100)) >= 0 else { break }
            if descriptor.revents == 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = recv(socket, &chunk, chunk.count, 0)
            if n <= 0 { return (String(decoding: received, as: UTF8.self), true) }
            received += chunk[0..<n]
            if let marker, String(decoding: received, as: UTF8.self).contains(marker) { break }
        }
        return (String(decoding: received, as: UTF8.self), false)
    }

    /// As ``receive(within:until:)``, waiting on a thread of its own: a test that blocks the
    /// cooperative pool's threads (two on a 2-core machine) starves the very server it waits for.
    func answer(within seconds: Double, until marker: String? = nil) async -> (text: String, closed: Bool) {
        await offTheTestExecutor { self.receive(within: seconds, until: marker) }
    }
}

/// `work` run on a new thread of its own, its result awaited: what it times is not how soon a busy
/// test executor resumes a task. Not on a Dispatch queue: on Linux those share their threads with
/// the test executor, and a queued block waits as long as a task does.
func offTheTestExecutor<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: work()) }.start()
    }
}

/// The status code of a raw HTTP answer ("HTTP/1.1 401 …" is 401), or 0 when there is none.
func statusCode(of answer: String) -> Int { Int(answer.split(separator: " ").dropFirst().first ?? "") ?? 0 }
