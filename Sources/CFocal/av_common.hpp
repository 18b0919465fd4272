// libav helpers shared by the video reader and writer.
#pragma once

#include "internal.hpp"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

#include <cerrno>

namespace cfocal {

inline std::string av_message(int code) {
    char text[AV_ERROR_MAX_STRING_SIZE] = {0};
    av_strerror(code, text, sizeof text);
    return text;
}

// Maps a libav error to the status a user can act on.
inline cfocal_status av_status(int code) {
    if (code == AVERROR(ENOENT) || code == AVERROR(ENOTDIR)) return CFOCAL_ERR_NOT_FOUND;
    if (code == AVERROR(EACCES) || code == AVERROR(EPERM) || code == AVERROR(EISDIR) || code == AVERROR(EROFS) ||
        code == AVERROR(ENOSPC) || code == AVERROR(EIO))
        return CFOCAL_ERR_IO;
    if (code == AVERROR_INVALIDDATA || code == AVERROR_EOF) return CFOCAL_ERR_DECODE;
    if (code == AVERROR_DECODER_NOT_FOUND || code == AVERROR_ENCODER_NOT_FOUND || code == AVERROR_PATCHWELCOME ||
        code == AVERROR_MUXER_NOT_FOUND || code == AVERROR_DEMUXER_NOT_FOUND)
        return CFOCAL_ERR_UNSUPPORTED;
    return CFOCAL_ERR_IO;
}

[[noreturn]] inline void fail_av(int code, const std::string &what) {
    fail(av_status(code), what + ": " + av_message(code));
}

inline AVPixelFormat av_pixel_format(int32_t format) {
    switch (format) {
    case CFOCAL_GRAY8: return AV_PIX_FMT_GRAY8;
    case CFOCAL_BGR8: return AV_PIX_FMT_BGR24;
    case CFOCAL_BGRA8: return AV_PIX_FMT_BGRA;
    default: return AV_PIX_FMT_YUV420P;
    }
}

// libav logs corrupt-input details to stderr; Focal reports errors through its own messages.
inline void quiet_libav() {
    static const bool once = [] {
        av_log_set_level(AV_LOG_QUIET);
        return true;
    }();
    (void)once;
}

}  // namespace cfocal
