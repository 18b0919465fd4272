import CFocal

/// One plane of pixels: where it starts, its size, and the bytes from one row to the next.
struct PlaneLayout: @unchecked Sendable {
    // Points into memory that a PixelStorage keeps alive; never dereferenced without it.
    let base: UnsafeMutableRawPointer
    let width: Int
    let height: Int
    let bytesPerRow: Int
}

/// The memory behind a ``Frame``'s planes: allocated by Swift, or a buffer the shim handed over
/// (a decoded image, a decoder's frame), freed when the last frame using it goes.
///
/// Frames share storage and copy it before writing unless they hold the only reference, so the
/// memory is never written while shared: that is why it can be Sendable.
final class PixelStorage: @unchecked Sendable {
    private enum Owner {
        case swift(UnsafeMutableRawPointer)
        case shim(OpaquePointer)
    }

    /// What a Swift allocation was made for, so that it can be reused for a frame of the same kind.
    struct Shape: Equatable {
        var format: PixelFormat
        var width: Int
        var height: Int
    }

    private let owner: Owner
    let planes: [PlaneLayout]
    /// Nil for shim buffers, whose layout is the shim's.
    let shape: Shape?

    /// Allocates planes for an image of format and size, each row padded to a multiple of
    /// `rowAlignment` bytes. Contents are zero unless `zeroed` is false, for callers that
    /// overwrite every pixel at once (copies, conversions).
    init(format: PixelFormat, width: Int, height: Int, rowAlignment: Int = 64, zeroed: Bool = true) {
        var layouts: [(offset: Int, width: Int, height: Int, bytesPerRow: Int)] = []
        var offset = 0
        for index in 0..<format.planeCount {
            let size = format.planeSize(index, width: width, height: height)
            let rowBytes = size.width * (index == 0 ? format.bytesPerPixel : 1)
            let bytesPerRow = (rowBytes + rowAlignment - 1) / rowAlignment * rowAlignment
            layouts.append((offset, size.width, size.height, bytesPerRow))
            // One spare row after each plane: libswscale and other vector code write whole vectors
            // and may run past the end of a plane's last row.
            offset += bytesPerRow * (size.height + 1)
        }
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(offset, 1), alignment: 64)
        if zeroed { memory.initializeMemory(as: UInt8.self, repeating: 0, count: max(offset, 1)) }
        owner = .swift(memory)
        shape = Shape(format: format, width: width, height: height)
        planes = layouts.map {
            PlaneLayout(base: memory + $0.offset, width: $0.width, height: $0.height, bytesPerRow: $0.bytesPerRow)
        }
    }

    /// Takes ownership of a shim buffer.
    init(shimBuffer: OpaquePointer) {
        owner = .shim(shimBuffer)
        shape = nil
        let view = cfocal_buffer_view(shimBuffer)
        let format = PixelFormat(shim: view.format) ?? .gray8
        let pointers = [view.planes.0, view.planes.1, view.planes.2]
        let strides = [view.row_bytes.0, view.row_bytes.1, view.row_bytes.2]
        planes = (0..<format.planeCount).map { index in
            let size = format.planeSize(index, width: Int(view.width), height: Int(view.height))
            return PlaneLayout(
                base: UnsafeMutableRawPointer(pointers[index]!), width: size.width, height: size.height,
                bytesPerRow: strides[index])
        }
    }

    deinit {
        switch owner {
        case .swift(let memory): memory.deallocate()
        case .shim(let buffer): cfocal_buffer_free(buffer)
        }
    }

    /// Whether Swift allocated this memory (shim buffers are treated as read-only).
    var isSwiftOwned: Bool {
        if case .swift = owner { return true }
        return false
    }
}
