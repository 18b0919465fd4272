/// Reads the orientation tag (0x0112) from a JPEG's EXIF block, or from a TIFF's first directory.
/// Only this tag: OpenCV applies orientation but does not say what it was.
enum EXIFOrientation {
    static func read(_ bytes: [UInt8]) -> Orientation? {
        if bytes.count > 8, (bytes[0] == 0x49 && bytes[1] == 0x49) || (bytes[0] == 0x4D && bytes[1] == 0x4D) {
            return fromTIFF(bytes[...])
        }
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var index = 2
        while index + 4 <= bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            if marker == 0xDA || marker == 0xD9 { break }  // image data starts: no EXIF before it
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            let body = index + 4
            guard length >= 2, body + length - 2 <= bytes.count else { break }
            if marker == 0xE1, length >= 8, Array(bytes[body..<body + 6]) == [0x45, 0x78, 0x69, 0x66, 0, 0] {
                return fromTIFF(bytes[(body + 6)..<(body + length - 2)])
            }
            index += 2 + length
        }
        return nil
    }

    private static func fromTIFF(_ tiff: ArraySlice<UInt8>) -> Orientation? {
        let start = tiff.startIndex
        guard tiff.count >= 8 else { return nil }
        let little = tiff[start] == 0x49
        func u16(_ offset: Int) -> Int? {
            guard offset >= 0, offset + 2 <= tiff.count else { return nil }
            let a = Int(tiff[start + offset]), b = Int(tiff[start + offset + 1])
            return little ? a | b << 8 : a << 8 | b
        }
        func u32(_ offset: Int) -> Int? {
            guard let low = u16(offset + (little ? 0 : 2)), let high = u16(offset + (little ? 2 : 0)) else { return nil }
            return high << 16 | low
        }
        guard let directory = u32(4), let count = u16(directory) else { return nil }
        for entry in 0..<count {
            let at = directory + 2 + entry * 12
            guard let tag = u16(at) else { return nil }
            if tag == 0x0112, let value = u16(at + 8) { return Orientation(exifValue: value) }
        }
        return nil
    }
}
