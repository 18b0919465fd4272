import CFocal

/// Turns a shim status into a ``FocalError``, with the shim's message as the reason.
@inline(__always)
func check(_ status: cfocal_status, _ operation: String, path: String? = nil) throws(FocalError) {
    if status == CFOCAL_OK { return }
    throw shimError(status, operation, path: path)
}

func shimError(_ status: cfocal_status, _ operation: String, path: String? = nil) -> FocalError {
    let message = String(cString: cfocal_last_error())
    let kind: FocalError.Kind
    switch status {
    case CFOCAL_ERR_INVALID_ARGUMENT: kind = .invalidArgument
    case CFOCAL_ERR_DECODE: kind = .decodeFailed
    case CFOCAL_ERR_EMPTY: kind = .emptyInput
    case CFOCAL_ERR_UNSUPPORTED: kind = .unsupportedFormat
    case CFOCAL_ERR_UNSUPPORTED_CODEC: kind = .unsupportedCodec
    case CFOCAL_ERR_IO: kind = .ioFailed
    case CFOCAL_ERR_NOT_FOUND: kind = .fileNotFound
    case CFOCAL_ERR_OPENCV: kind = .openCV
    default: kind = .internal
    }
    return FocalError(kind, operation: operation, path: path, reason: message.isEmpty ? "failed" : message)
}
