// Video decoding through libavformat/libavcodec, handing decoded frames to Swift without copying
// when the caller wants the decoder's own 4:2:0 layout (or just its luma plane as gray).
#include "av_common.hpp"

using namespace cfocal;

struct cfocal_video_reader {
    AVFormatContext *format = nullptr;
    AVCodecContext *decoder = nullptr;
    AVPacket *packet = nullptr;
    AVFrame *frame = nullptr;
    SwsContext *scaler = nullptr;
    int stream = -1;
    bool draining = false;
    int64_t frames_out = 0;
    int corrupt_packets = 0;
    std::string path;
    cfocal_video_info info{};

    ~cfocal_video_reader() {
        sws_freeContext(scaler);
        av_frame_free(&frame);
        av_packet_free(&packet);
        avcodec_free_context(&decoder);
        avformat_close_input(&format);
    }
};

namespace {

// Returns true with reader->frame holding a decoded frame, false at the end of the stream.
bool decode_next(cfocal_video_reader *r) {
    for (;;) {
        int got = avcodec_receive_frame(r->decoder, r->frame);
        if (got == 0) return true;
        if (got == AVERROR_EOF) return false;
        if (got != AVERROR(EAGAIN)) fail_av(got, "decode '" + r->path + "'");
        if (r->draining) return false;
        int read = av_read_frame(r->format, r->packet);
        if (read == AVERROR_EOF) {
            r->draining = true;
            avcodec_send_packet(r->decoder, nullptr);
            continue;
        }
        if (read < 0) fail_av(read, "read '" + r->path + "'");
        if (r->packet->stream_index == r->stream) {
            int sent = avcodec_send_packet(r->decoder, r->packet);
            // Like ffmpeg, skip a damaged packet and go on; a stream with nothing decodable fails at the end.
            if (sent < 0 && sent != AVERROR(EAGAIN)) r->corrupt_packets += 1;
        }
        av_packet_unref(r->packet);
    }
}

// A buffer that owns frame (freed with the buffer) and views its planes.
cfocal_buffer *wrap_frame(AVFrame *frame, int32_t format) {
    std::shared_ptr<void> owner(frame, [](void *p) {
        AVFrame *owned = static_cast<AVFrame *>(p);
        av_frame_free(&owned);
    });
    cfocal_image view{};
    view.width = frame->width;
    view.height = frame->height;
    view.format = format;
    for (int p = 0; p < plane_count(format); ++p) {
        view.planes[p] = frame->data[p];
        view.row_bytes[p] = size_t(frame->linesize[p]);
    }
    return new cfocal_buffer{view, owner};
}

}  // namespace

extern "C" {

cfocal_status cfocal_video_reader_open(const char *path, int32_t threads, cfocal_video_reader **out) {
    return guarded("open video", [&] {
        quiet_libav();
        if (path == nullptr || out == nullptr) fail(CFOCAL_ERR_INVALID_ARGUMENT, "open video: no path");
        auto r = std::make_unique<cfocal_video_reader>();
        r->path = path;
        int code = avformat_open_input(&r->format, path, nullptr, nullptr);
        if (code < 0) fail_av(code, "open video '" + r->path + "'");
        code = avformat_find_stream_info(r->format, nullptr);
        if (code < 0) fail_av(code, "read stream information of '" + r->path + "'");
        r->stream = av_find_best_stream(r->format, AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
        if (r->stream < 0) fail(CFOCAL_ERR_EMPTY, "'" + r->path + "' has no video stream");
        AVStream *stream = r->format->streams[r->stream];
        const AVCodec *codec = avcodec_find_decoder(stream->codecpar->codec_id);
        if (codec == nullptr)
            fail(CFOCAL_ERR_UNSUPPORTED, "no decoder for the " + std::string(avcodec_get_name(stream->codecpar->codec_id)) +
                                             " video in '" + r->path + "'");
        r->decoder = avcodec_alloc_context3(codec);
        if (r->decoder == nullptr) fail(CFOCAL_ERR_INTERNAL, "out of memory");
        avcodec_parameters_to_context(r->decoder, stream->codecpar);
        r->decoder->thread_count = threads;
        r->decoder->thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE;
        code = avcodec_open2(r->decoder, codec, nullptr);
        if (code < 0) fail_av(code, "open the " + std::string(codec->name) + " decoder for '" + r->path + "'");
        if (r->decoder->width <= 0 || r->decoder->height <= 0)
            fail(CFOCAL_ERR_DECODE, "'" + r->path + "' has a video stream without a frame size");
        r->packet = av_packet_alloc();
        r->frame = av_frame_alloc();

        cfocal_video_info &info = r->info;
        info.width = r->decoder->width;
        info.height = r->decoder->height;
        AVRational rate = av_guess_frame_rate(r->format, stream, nullptr);
        info.frames_per_second = rate.num > 0 && rate.den > 0 ? av_q2d(rate) : 0;
        info.duration_seconds = stream->duration != AV_NOPTS_VALUE ? stream->duration * av_q2d(stream->time_base)
                                : r->format->duration != AV_NOPTS_VALUE ? double(r->format->duration) / AV_TIME_BASE
                                                                        : -1;
        info.frame_count = stream->nb_frames > 0 ? stream->nb_frames
                           : info.duration_seconds > 0 && info.frames_per_second > 0
                               ? int64_t(info.duration_seconds * info.frames_per_second + 0.5)
                               : -1;
        snprintf(info.codec_name, sizeof info.codec_name, "%s", codec->name);
        *out = r.release();
        return CFOCAL_OK;
    });
}

void cfocal_video_reader_free(cfocal_video_reader *reader) { delete reader; }

cfocal_video_info cfocal_video_reader_info(const cfocal_video_reader *reader) { return reader->info; }

cfocal_status cfocal_video_reader_next(cfocal_video_reader *r, int32_t format, cfocal_buffer **out,
                                       double *timestamp_seconds) {
    return guarded("read video frame", [&] {
        if (r == nullptr || out == nullptr) fail(CFOCAL_ERR_INVALID_ARGUMENT, "read video frame: no reader");
        if (!decode_next(r)) {
            if (r->frames_out == 0 && r->corrupt_packets > 0)
                fail(CFOCAL_ERR_DECODE, "'" + r->path + "' contains no decodable frame (" +
                                            std::to_string(r->corrupt_packets) + " damaged packets)");
            return CFOCAL_END_OF_STREAM;
        }
        AVFrame *f = r->frame;
        AVStream *stream = r->format->streams[r->stream];
        int64_t pts = f->best_effort_timestamp;
        if (timestamp_seconds != nullptr) {
            int64_t start = stream->start_time != AV_NOPTS_VALUE ? stream->start_time : 0;
            *timestamp_seconds = pts != AV_NOPTS_VALUE
                                     ? double(pts - start) * av_q2d(stream->time_base)
                                     : (r->info.frames_per_second > 0 ? r->frames_out / r->info.frames_per_second : 0);
        }
        r->frames_out += 1;

        if (format == CFOCAL_GRAY8 && f->format == AV_PIX_FMT_YUV420P) {
            // Video-range luma stretched to full-range gray: one table look-up per pixel.
            cv::Mat luma(f->height, f->width, CV_8UC1, f->data[0], size_t(f->linesize[0]));
            cv::Mat gray;
            cv::LUT(luma, video_to_full_range(), gray);
            av_frame_unref(f);
            *out = buffer_from_mat(gray, CFOCAL_GRAY8);
            return CFOCAL_OK;
        }
        if ((format == CFOCAL_YUV420P && f->format == AV_PIX_FMT_YUV420P) ||
            (format == CFOCAL_GRAY8 && (f->format == AV_PIX_FMT_YUVJ420P || f->format == AV_PIX_FMT_GRAY8))) {
            // Zero copy: hand over a reference to the decoder's own planes (full-range luma alone for gray).
            AVFrame *ref = av_frame_clone(f);
            av_frame_unref(f);
            if (ref == nullptr) fail(CFOCAL_ERR_INTERNAL, "out of memory");
            *out = wrap_frame(ref, format);
            return CFOCAL_OK;
        }

        AVPixelFormat target = av_pixel_format(format);
        r->scaler = sws_getCachedContext(r->scaler, f->width, f->height, AVPixelFormat(f->format), f->width,
                                         f->height, target, SWS_BILINEAR, nullptr, nullptr, nullptr);
        if (r->scaler == nullptr) fail(CFOCAL_ERR_UNSUPPORTED, "no conversion from the video's pixel format");
        AVFrame *converted = av_frame_alloc();
        if (converted == nullptr) fail(CFOCAL_ERR_INTERNAL, "out of memory");
        cfocal_buffer *buffer = nullptr;
        converted->width = f->width;
        converted->height = f->height;
        converted->format = target;
        if (av_frame_get_buffer(converted, 64) < 0) {
            av_frame_free(&converted);
            fail(CFOCAL_ERR_INTERNAL, "out of memory");
        }
        buffer = wrap_frame(converted, format);
        sws_scale(r->scaler, f->data, f->linesize, 0, f->height, converted->data, converted->linesize);
        av_frame_unref(f);
        *out = buffer;
        return CFOCAL_OK;
    });
}
}
