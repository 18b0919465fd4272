// Video decoding through libavformat/libavcodec, handing decoded frames to Swift without copying
// when the caller wants the decoder's own 4:2:0 layout (or just its luma plane as gray).
#include "av_common.hpp"

#include <algorithm>
#include <cstring>

using namespace cfocal;

// Bytes in memory read through a custom AVIOContext: the demuxer sees them and nothing else.
struct memory_input {
    std::vector<uint8_t> bytes;
    int64_t position = 0;
};

struct cfocal_video_reader {
    AVFormatContext *format = nullptr;
    AVIOContext *io = nullptr;  // set for bytes in memory; the format context does not own it
    std::unique_ptr<memory_input> memory;
    AVCodecContext *decoder = nullptr;
    AVPacket *packet = nullptr;
    AVFrame *frame = nullptr;
    SwsContext *scaler = nullptr;
    int stream = -1;
    bool draining = false;
    int64_t frames_out = 0;
    int corrupt_packets = 0;
    std::string path;
    // Bytes from elsewhere (an upload): whatever goes wrong reading them is the input's fault.
    bool untrusted = false;
    cfocal_video_info info{};

    [[noreturn]] void fail_reading(int code, const std::string &what) const {
        if (untrusted) {
            // An upload is at most a few tens of MiB: when libav cannot allocate for it, the
            // container declared sizes no real video has (av_malloc refuses anything over 2 GiB).
            if (code == AVERROR(ENOMEM)) fail(CFOCAL_ERR_DECODE, what + ": it declares sizes no real video has");
            cfocal_status status = av_status(code) == CFOCAL_ERR_UNSUPPORTED ? CFOCAL_ERR_UNSUPPORTED : CFOCAL_ERR_DECODE;
            fail(status, what + ": " + av_message(code));
        }
        fail_av(code, what);
    }

    ~cfocal_video_reader() {
        sws_freeContext(scaler);
        av_frame_free(&frame);
        av_packet_free(&packet);
        avcodec_free_context(&decoder);
        avformat_close_input(&format);
        if (io != nullptr) av_freep(&io->buffer);
        avio_context_free(&io);
    }
};

namespace {

// Returns true with reader->frame holding a decoded frame, false at the end of the stream.
bool decode_next(cfocal_video_reader *r) {
    for (;;) {
        int got = avcodec_receive_frame(r->decoder, r->frame);
        if (got == 0) return true;
        if (got == AVERROR_EOF) return false;
        if (got != AVERROR(EAGAIN)) r->fail_reading(got, "decode '" + r->path + "'");
        if (r->draining) return false;
        int read = av_read_frame(r->format, r->packet);
        if (read == AVERROR_EOF) {
            r->draining = true;
            avcodec_send_packet(r->decoder, nullptr);
            continue;
        }
        if (read < 0) r->fail_reading(read, "read '" + r->path + "'");
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

int read_memory(void *opaque, uint8_t *buffer, int size) {
    auto *input = static_cast<memory_input *>(opaque);
    int64_t left = int64_t(input->bytes.size()) - input->position;
    if (left <= 0) return AVERROR_EOF;
    int count = int(std::min<int64_t>(left, size));
    memcpy(buffer, input->bytes.data() + input->position, size_t(count));
    input->position += count;
    return count;
}

int64_t seek_memory(void *opaque, int64_t offset, int whence) {
    auto *input = static_cast<memory_input *>(opaque);
    int64_t size = int64_t(input->bytes.size());
    if (whence & AVSEEK_SIZE) return size;
    int64_t base = 0;
    switch (whence & ~AVSEEK_FORCE) {
    case SEEK_SET: base = 0; break;
    case SEEK_CUR: base = input->position; break;
    case SEEK_END: base = size; break;
    default: return AVERROR(EINVAL);
    }
    if (offset > size || offset < -size) return AVERROR(EINVAL);
    int64_t target = base + offset;
    if (target < 0 || target > size) return AVERROR(EINVAL);
    input->position = target;
    return target;
}

// A demuxer may open other files or URLs (HLS segments, concat lists, MOV references): for bytes
// from elsewhere, none may.
int refuse_to_open(AVFormatContext *, AVIOContext **, const char *, int, AVDictionary **) { return AVERROR(EPERM); }

bool in_list(const char *names, const std::string &list) {
    // A demuxer's name may itself be a list ("mov,mp4,m4a,3gp,3g2,mj2"): any one of them will do.
    std::string all(names);
    size_t start = 0;
    while (start <= all.size()) {
        size_t end = all.find(',', start);
        std::string name = all.substr(start, end == std::string::npos ? std::string::npos : end - start);
        std::string padded = "," + list + ",";
        if (!name.empty() && padded.find("," + name + ",") != std::string::npos) return true;
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return false;
}

// After the container is open: the best video stream and its decoder. max_pixels (0 for none) is
// handed to every decoder libav opens, the ones probing the stream included.
void open_video_stream(cfocal_video_reader *r, int32_t threads, int64_t max_pixels) {
    auto input_fail = [r](int code, const std::string &what) { r->fail_reading(code, what); };
    std::vector<AVDictionary *> options(r->format->nb_streams, nullptr);
    if (max_pixels > 0)
        for (auto &option : options) av_dict_set_int(&option, "max_pixels", max_pixels, 0);
    int code = avformat_find_stream_info(r->format, options.empty() ? nullptr : options.data());
    for (auto &option : options) av_dict_free(&option);
    if (code < 0) input_fail(code, "read stream information of '" + r->path + "'");
    r->stream = av_find_best_stream(r->format, AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
    if (r->stream < 0) fail(CFOCAL_ERR_EMPTY, "'" + r->path + "' has no video stream");
    AVStream *stream = r->format->streams[r->stream];
    if (stream->codecpar->codec_id == AV_CODEC_ID_NONE)
        fail(CFOCAL_ERR_DECODE, "'" + r->path + "' is damaged: its video stream names no codec");
    const AVCodec *codec = avcodec_find_decoder(stream->codecpar->codec_id);
    if (codec == nullptr)
        fail(CFOCAL_ERR_UNSUPPORTED, "no decoder for the " + std::string(avcodec_get_name(stream->codecpar->codec_id)) +
                                         " video in '" + r->path + "'");
    r->decoder = avcodec_alloc_context3(codec);
    if (r->decoder == nullptr) fail(CFOCAL_ERR_INTERNAL, "out of memory");
    code = avcodec_parameters_to_context(r->decoder, stream->codecpar);
    if (code < 0) input_fail(code, "read the video parameters of '" + r->path + "'");
    r->decoder->thread_count = threads;
    r->decoder->thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE;
    if (max_pixels > 0) r->decoder->max_pixels = max_pixels;
    code = avcodec_open2(r->decoder, codec, nullptr);
    if (code < 0) input_fail(code, "open the " + std::string(codec->name) + " decoder for '" + r->path + "'");
    if (r->decoder->width <= 0 || r->decoder->height <= 0)
        fail(CFOCAL_ERR_DECODE, "'" + r->path + "' has a video stream without a frame size");
    r->packet = av_packet_alloc();
    r->frame = av_frame_alloc();
    if (r->packet == nullptr || r->frame == nullptr) fail(CFOCAL_ERR_INTERNAL, "out of memory");

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
        // The caller names the file and the operation; the message is the reason alone.
        if (code == AVERROR_INVALIDDATA)
            fail(CFOCAL_ERR_DECODE, "it is neither a video nor an image Focal reads (FFmpeg finds no container in it)");
        if (code < 0) fail(av_status(code), av_message(code));
        open_video_stream(r.get(), threads, 0);
        *out = r.release();
        return CFOCAL_OK;
    });
}

cfocal_status cfocal_video_reader_open_memory(const uint8_t *bytes, size_t count, const char *name,
                                              const char *containers, int64_t max_pixels, int32_t threads,
                                              cfocal_video_reader **out) {
    return guarded("open video", [&] {
        quiet_libav();
        if ((bytes == nullptr && count > 0) || name == nullptr || containers == nullptr || out == nullptr)
            fail(CFOCAL_ERR_INVALID_ARGUMENT, "open video: no bytes");
        auto r = std::make_unique<cfocal_video_reader>();
        r->path = name;
        r->untrusted = true;
        if (count == 0) fail(CFOCAL_ERR_EMPTY, "'" + r->path + "' is empty");
        r->memory = std::make_unique<memory_input>();
        r->memory->bytes.assign(bytes, bytes + count);
        const int io_buffer_size = 1 << 16;
        auto *io_buffer = static_cast<unsigned char *>(av_malloc(io_buffer_size));
        if (io_buffer == nullptr) fail(CFOCAL_ERR_INTERNAL, "out of memory");
        r->io = avio_alloc_context(io_buffer, io_buffer_size, 0, r->memory.get(), read_memory, nullptr, seek_memory);
        if (r->io == nullptr) {
            av_free(io_buffer);
            fail(CFOCAL_ERR_INTERNAL, "out of memory");
        }

        // Recognise the container first, so that one outside the list is refused by name.
        const AVInputFormat *container = nullptr;
        int code = av_probe_input_buffer2(r->io, &container, "", nullptr, 0, 0);
        if (code < 0 || container == nullptr)
            fail(CFOCAL_ERR_DECODE, "'" + r->path + "' is damaged or not a video");
        if (!in_list(container->name, containers))
            fail(CFOCAL_ERR_UNSUPPORTED, "'" + r->path + "' is " + std::string(container->long_name ? container->long_name : container->name) +
                                             ", not a container Focal reads here (" + containers + ")");
        if (avio_seek(r->io, 0, SEEK_SET) < 0) fail(CFOCAL_ERR_INTERNAL, "cannot rewind '" + r->path + "'");

        r->format = avformat_alloc_context();
        if (r->format == nullptr) fail(CFOCAL_ERR_INTERNAL, "out of memory");
        r->format->pb = r->io;
        r->format->flags |= AVFMT_FLAG_CUSTOM_IO;
        r->format->io_open = refuse_to_open;
        r->format->format_whitelist = av_strdup(containers);
        r->format->protocol_whitelist = av_strdup("none");
        code = avformat_open_input(&r->format, "", container, nullptr);
        // On failure avformat_open_input frees the context (not the custom I/O, which r still owns).
        if (code < 0) {
            r->format = nullptr;
            r->fail_reading(code, "'" + r->path + "' is damaged or not a video");
        }
        open_video_stream(r.get(), threads, max_pixels);
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
