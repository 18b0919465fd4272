import CFocal

/// QR code rendering (OpenCV's encoder), for labels, tests and calibration sheets.
public enum QRCode {
    /// The QR code of message as a gray image, `moduleSize` pixels per module, with a quiet zone.
    public static func render(_ message: String, moduleSize: Int = 4) throws(FocalError) -> Frame {
        var buffer: OpaquePointer?
        try check(cfocal_encode_qr(message, &buffer), "encode QR code")
        guard let buffer else { throw FocalError(.internal, operation: "encode QR code", reason: "no image") }
        let code = Frame.adopting(shimBuffer: buffer)
        let size = code.width * max(1, moduleSize)
        return try code.resized(width: size, height: size, interpolation: .nearest)
    }
}
