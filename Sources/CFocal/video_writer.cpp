// Video encoding through libavcodec/libavformat. The file is written under a temporary name and
// renamed into place only after the trailer is written, so a failed run leaves no half file.
#include "av_common.hpp"

#include <cstdio>
#include <unistd.h>

using namespace cfocal;

struct cfocal_video_writer {
    AVFormatContext *format = nullptr;
    AVCodecContext *encoder = nullptr;
    AVStream *stream = nullptr;
    AVFrame *frame = nullptr;     // the encoder's own copy of frames it cannot borrow
    AVFrame *borrowed = nullptr;  // wraps a caller's planes for one append
    AVPacket *packet = nullptr;
    SwsContext *scaler = nullptr;
    std::string final_path, temporary_path;
    int64_t next_pts = 0;
    bool file_open = false;
    bool finished = false;

    ~cfocal_video_writer() {
        if (format != nullptr && file_open) avio_closep(&format->pb);
        if (!finished && file_open) unlink(temporary_path.c_str());
        sws_freeContext(scaler);
        av_frame_free(&frame);
        av_frame_free(&borrowed);
        av_packet_free(&packet);
        avcodec_free_context(&encoder);
        avformat_free_context(format);
    }
};

namespace {

// A caller's release callback, run exactly once: when this goes out of scope, when now() is
// called, or, once into_buffer has handed it to an AVBuffer, when the buffer's last reference goes.
class ReleaseOnce {
  public:
    ReleaseOnce(void (*release)(void *), void *context) : release_(release), context_(context) {}
    ReleaseOnce(const ReleaseOnce &) = delete;
    ReleaseOnce &operator=(const ReleaseOnce &) = delete;
    ~ReleaseOnce() { now(); }

    void now() {
        if (release_ == nullptr) return;
        auto release = release_;
        release_ = nullptr;
        release(context_);
    }

    AVBufferRef *into_buffer(uint8_t *data, size_t size) {
        auto *owned = new ReleaseOnce(release_, context_);
        AVBufferRef *buffer = av_buffer_create(data, size, [](void *opaque, uint8_t *) { delete static_cast<ReleaseOnce *>(opaque); },
                                               owned, 0);
        if (buffer == nullptr) {
            owned->release_ = nullptr;
            delete owned;
            fail(CFOCAL_ERR_INTERNAL, "out of memory");  // this object still releases
        }
        release_ = nullptr;
        return buffer;
    }

  private:
    void (*release_)(void *);
    void *context_;
};

// Sends frame (nullptr to flush) and writes every packet the encoder has ready.
void encode(cfocal_video_writer *w, AVFrame *frame) {
    int code = avcodec_send_frame(w->encoder, frame);
    if (code < 0) fail_av(code, "encode a frame for '" + w->final_path + "'");
    for (;;) {
        code = avcodec_receive_packet(w->encoder, w->packet);
        if (code == AVERROR(EAGAIN) || code == AVERROR_EOF) return;
        if (code < 0) fail_av(code, "encode a frame for '" + w->final_path + "'");
        av_packet_rescale_ts(w->packet, w->encoder->time_base, w->stream->time_base);
        w->packet->stream_index = w->stream->index;
        code = av_interleaved_write_frame(w->format, w->packet);
        if (code < 0) fail_av(code, "write '" + w->final_path + "'");
    }
}

AVPixelFormat encoder_pixel_format(const AVCodec *codec) {
    if (codec->pix_fmts == nullptr) return AV_PIX_FMT_YUV420P;
    if (codec->id == AV_CODEC_ID_MJPEG) return AV_PIX_FMT_YUVJ420P;  // JPEG is full range
    for (const AVPixelFormat *f = codec->pix_fmts; *f != AV_PIX_FMT_NONE; ++f)
        if (*f == AV_PIX_FMT_YUV420P) return *f;
    for (const AVPixelFormat *f = codec->pix_fmts; *f != AV_PIX_FMT_NONE; ++f)
        if (*f == AV_PIX_FMT_YUVJ420P) return *f;
    return codec->pix_fmts[0];
}

}  // namespace

extern "C" {

int32_t cfocal_video_encoder_available(const char *encoder, const char *final_path) {
    if (encoder == nullptr || final_path == nullptr) return 0;
    const AVCodec *codec = avcodec_find_encoder_by_name(encoder);
    const AVOutputFormat *container = av_guess_format(nullptr, final_path, nullptr);
    return codec != nullptr && container != nullptr &&
           avformat_query_codec(container, codec->id, FF_COMPLIANCE_NORMAL) == 1;
}

namespace {

// The encoder for `codec` in `pixel_format`, opened with the config's rate control, preset and
// memory settings.
void open_encoder(cfocal_video_writer &w, const AVCodec *codec, AVPixelFormat pixel_format,
                  const cfocal_video_writer_config &config) {
    AVCodecContext *e = w.encoder = avcodec_alloc_context3(codec);
    if (e == nullptr) fail(CFOCAL_ERR_INTERNAL, "out of memory");
    AVRational rate = av_d2q(config.frames_per_second, 100000);
    e->width = config.width;
    e->height = config.height;
    e->pix_fmt = pixel_format;
    e->framerate = rate;
    e->time_base = av_inv_q(rate);
    e->thread_count = config.threads;
    if (w.format->oformat->flags & AVFMT_GLOBALHEADER) e->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    AVDictionary *options = nullptr;
    bool has_crf = av_opt_find(e->priv_data, "crf", nullptr, 0, 0) != nullptr;
    if (config.preset != nullptr && av_opt_find(e->priv_data, "preset", nullptr, 0, 0) != nullptr)
        av_dict_set(&options, "preset", config.preset, 0);
    if (config.bit_rate > 0) {
        e->bit_rate = config.bit_rate;
    } else if (has_crf && config.crf >= 0) {
        av_dict_set_int(&options, "crf", config.crf, 0);
    } else if (!has_crf && codec->id != AV_CODEC_ID_FFV1) {
        // Encoders without a rate factor default to very low bit rates: ask for a fixed quantiser.
        e->flags |= AV_CODEC_FLAG_QSCALE;
        e->global_quality = FF_QP2LAMBDA * 3;
    }
    // Each frame of lookahead and each B-frame is a frame x264 holds (per thread): the memory knobs.
    if (config.lookahead >= 0 && av_opt_find(e->priv_data, "rc-lookahead", nullptr, 0, 0) != nullptr)
        av_dict_set_int(&options, "rc-lookahead", config.lookahead, 0);
    if (config.b_frames >= 0) e->max_b_frames = config.b_frames;
    // x264's lookahead thread buffers frames of its own (about 8 MB at 1080p); on the encoding
    // threads the output is byte-identical and, at veryfast on two cores, no slower.
    if (config.lookahead_thread == 0 && av_opt_find(e->priv_data, "x264-params", nullptr, 0, 0) != nullptr)
        av_dict_set(&options, "x264-params", "sync-lookahead=0", 0);
    int code = avcodec_open2(e, codec, &options);
    av_dict_free(&options);
    if (code < 0) fail_av(code, "open the " + std::string(codec->name) + " encoder for '" + w.final_path + "'");
}

// The stream for the encoder's packets, and the file at `temporary_path` with its header written.
void open_file(cfocal_video_writer &w, const char *temporary_path) {
    w.stream = avformat_new_stream(w.format, nullptr);
    if (w.stream == nullptr) fail(CFOCAL_ERR_INTERNAL, "out of memory");
    w.stream->time_base = w.encoder->time_base;
    w.stream->avg_frame_rate = w.encoder->framerate;
    avcodec_parameters_from_context(w.stream->codecpar, w.encoder);

    int code = avio_open(&w.format->pb, temporary_path, AVIO_FLAG_WRITE);
    if (code < 0) fail_av(code, "create '" + w.final_path + "'");
    w.file_open = true;
    code = avformat_write_header(w.format, nullptr);
    if (code < 0) fail_av(code, "write the header of '" + w.final_path + "'");
}

}  // namespace

cfocal_status cfocal_video_writer_open(const char *final_path, const char *temporary_path,
                                       const cfocal_video_writer_config *config, cfocal_video_writer **out) {
    return guarded("open video writer", [&] {
        quiet_libav();
        if (final_path == nullptr || temporary_path == nullptr || config == nullptr || out == nullptr)
            fail(CFOCAL_ERR_INVALID_ARGUMENT, "open video writer: missing argument");
        auto w = std::make_unique<cfocal_video_writer>();
        w->final_path = final_path;
        w->temporary_path = temporary_path;
        if (config->width <= 0 || config->height <= 0 || !(config->frames_per_second > 0))
            fail(CFOCAL_ERR_INVALID_ARGUMENT, "write '" + w->final_path + "': frame size and rate must be positive");

        avformat_alloc_output_context2(&w->format, nullptr, nullptr, final_path);
        if (w->format == nullptr)
            fail(CFOCAL_ERR_UNSUPPORTED, "write '" + w->final_path + "': no video container for this file extension");
        const char *encoder_name = config->encoder != nullptr ? config->encoder : "libx264";
        const AVCodec *codec = avcodec_find_encoder_by_name(encoder_name);
        if (codec == nullptr)
            fail(CFOCAL_ERR_UNSUPPORTED_CODEC, "write '" + w->final_path + "': this build has no '" + encoder_name + "' encoder");
        if (avformat_query_codec(w->format->oformat, codec->id, FF_COMPLIANCE_NORMAL) != 1)
            fail(CFOCAL_ERR_UNSUPPORTED_CODEC, "write '" + w->final_path + "': the " + w->format->oformat->name +
                                             " container cannot hold " + codec->name + " video");

        AVPixelFormat pixel_format = encoder_pixel_format(codec);
        const AVPixFmtDescriptor *descriptor = av_pix_fmt_desc_get(pixel_format);
        if (descriptor != nullptr && (descriptor->log2_chroma_w > 0 || descriptor->log2_chroma_h > 0) &&
            (config->width % 2 != 0 || config->height % 2 != 0))
            fail(CFOCAL_ERR_INVALID_ARGUMENT, "write '" + w->final_path + "': " + codec->name +
                                                  " in 4:2:0 needs an even width and height, not " +
                                                  std::to_string(config->width) + "x" + std::to_string(config->height));

        open_encoder(*w, codec, pixel_format, *config);
        open_file(*w, temporary_path);

        w->packet = av_packet_alloc();
        w->frame = av_frame_alloc();
        w->borrowed = av_frame_alloc();
        if (w->packet == nullptr || w->frame == nullptr || w->borrowed == nullptr) fail(CFOCAL_ERR_INTERNAL, "out of memory");
        *out = w.release();
        return CFOCAL_OK;
    });
}

namespace {

// The caller's planes go to the encoder as they are, in a reference-counted buffer whose last
// reference releases them: encoders that copy their input (x264 does) let go at once, others when
// they are done with the frame.
void encode_borrowed(cfocal_video_writer &w, const cfocal_image &image, ReleaseOnce &pending) {
    AVFrame *f = w.borrowed;
    f->buf[0] = pending.into_buffer(image.planes[0], size_t(image.row_bytes[0]) * size_t(image.height));
    f->format = av_pixel_format(image.format);
    f->width = image.width;
    f->height = image.height;
    for (int p = 0; p < plane_count(image.format); ++p) {
        f->data[p] = image.planes[p];
        f->linesize[p] = int(image.row_bytes[p]);
    }
    f->pts = w.next_pts++;
    try {
        encode(&w, f);
    } catch (...) {
        av_frame_unref(f);
        throw;
    }
    av_frame_unref(f);
}

// The image's pixels copied (or converted) into the writer's own frame.
void copy_into_frame(cfocal_video_writer &w, const cfocal_image &image) {
    AVFrame *f = w.frame;
    if (f->buf[0] == nullptr) {  // allocated on first use: frames the encoder can borrow never need it
        f->format = w.encoder->pix_fmt;
        f->width = w.encoder->width;
        f->height = w.encoder->height;
        if (av_frame_get_buffer(f, 64) < 0) fail(CFOCAL_ERR_INTERNAL, "out of memory");
    }
    const int code = av_frame_make_writable(f);
    if (code < 0) fail_av(code, "write '" + w.final_path + "'");
    const AVPixelFormat source = av_pixel_format(image.format);
    if (source == w.encoder->pix_fmt) {
        for (int p = 0; p < plane_count(image.format); ++p) {
            int width_bytes = p == 0 ? image.width * channels(image.format) : (image.width + 1) / 2;
            int rows = p == 0 ? image.height : (image.height + 1) / 2;
            av_image_copy_plane(f->data[p], f->linesize[p], image.planes[p], int(image.row_bytes[p]), width_bytes, rows);
        }
        return;
    }
    w.scaler = sws_getCachedContext(w.scaler, image.width, image.height, source, f->width, f->height,
                                    AVPixelFormat(f->format), SWS_BILINEAR, nullptr, nullptr, nullptr);
    if (w.scaler == nullptr) fail(CFOCAL_ERR_UNSUPPORTED, "no conversion to the encoder's pixel format");
    const uint8_t *planes[4] = {image.planes[0], image.planes[1], image.planes[2], nullptr};
    int strides[4] = {int(image.row_bytes[0]), int(image.row_bytes[1]), int(image.row_bytes[2]), 0};
    sws_scale(w.scaler, planes, strides, 0, image.height, f->data, f->linesize);
}

}  // namespace

cfocal_status cfocal_video_writer_append(cfocal_video_writer *w, const cfocal_image *image, void (*release)(void *),
                                         void *context) {
    // Unless an AVBuffer takes it over below, release runs when this returns, whatever happens.
    ReleaseOnce pending{release, context};
    return guarded("write video frame", [&] {
        if (w == nullptr || w->finished) fail(CFOCAL_ERR_INVALID_ARGUMENT, "write video frame: writer is closed");
        validate(image, "write video frame");
        if (image->width != w->encoder->width || image->height != w->encoder->height)
            fail(CFOCAL_ERR_INVALID_ARGUMENT, "write '" + w->final_path + "': frame is " + std::to_string(image->width) +
                                                  "x" + std::to_string(image->height) + ", the video " +
                                                  std::to_string(w->encoder->width) + "x" +
                                                  std::to_string(w->encoder->height));
        const AVPixelFormat source = av_pixel_format(image->format);
        if (source == w->encoder->pix_fmt && release != nullptr) {
            encode_borrowed(*w, *image, pending);
            return CFOCAL_OK;
        }
        copy_into_frame(*w, *image);
        pending.now();  // the pixels are in w->frame now
        w->frame->pts = w->next_pts++;
        encode(w, w->frame);
        return CFOCAL_OK;
    });
}

cfocal_status cfocal_video_writer_finish(cfocal_video_writer *w) {
    return guarded("finish video", [&] {
        if (w == nullptr || w->finished) fail(CFOCAL_ERR_INVALID_ARGUMENT, "finish video: writer is closed");
        encode(w, nullptr);
        int code = av_write_trailer(w->format);
        if (code < 0) fail_av(code, "finish '" + w->final_path + "'");
        code = avio_closep(&w->format->pb);
        w->file_open = false;
        if (code < 0) {
            unlink(w->temporary_path.c_str());
            fail_av(code, "close '" + w->final_path + "'");
        }
        if (std::rename(w->temporary_path.c_str(), w->final_path.c_str()) != 0) {
            int error = errno;
            unlink(w->temporary_path.c_str());
            fail(CFOCAL_ERR_IO, "move the finished video into place at '" + w->final_path + "': " + strerror(error));
        }
        w->finished = true;
        return CFOCAL_OK;
    });
}

void cfocal_video_writer_free(cfocal_video_writer *writer) { delete writer; }
}
