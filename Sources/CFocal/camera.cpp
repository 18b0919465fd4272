// V4L2 cameras through libv4l2: the ioctls for formats, negotiation and memory-mapped streaming,
// and the conversions of the buffers cameras deliver into BGR pixels.
#include "internal.hpp"

#include <opencv2/imgproc.hpp>

#include <libv4l2.h>
#include <linux/videodev2.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>

using namespace cfocal;

namespace {

thread_local int32_t last_os_error = 0;

// Retries ioctls interrupted by a signal, as every V4L2 program must.
int xioctl(int fd, unsigned long request, void *argument) {
    int result;
    do {
        result = v4l2_ioctl(fd, request, argument);
    } while (result == -1 && errno == EINTR);
    return result;
}

[[noreturn]] void fail_os(const std::string &what, int code) {
    last_os_error = code;
    const cfocal_status status =
        code == ENOENT || code == ENXIO ? CFOCAL_ERR_NOT_FOUND : (code == EINVAL ? CFOCAL_ERR_UNSUPPORTED : CFOCAL_ERR_IO);
    fail(status, what + ": " + std::strerror(code));
}

std::string fourcc_name(uint32_t fourcc) {
    std::string name;
    for (int i = 0; i < 4; i++) name += static_cast<char>((fourcc >> (8 * i)) & 0xff);
    return name;
}

}  // namespace

struct cfocal_camera {
    int fd = -1;
    struct Mapping {
        void *start = MAP_FAILED;
        size_t length = 0;
    };
    std::vector<Mapping> buffers;
    bool streaming = false;

    ~cfocal_camera() {
        if (streaming) {
            v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
            xioctl(fd, VIDIOC_STREAMOFF, &type);
        }
        unmap();
        if (fd >= 0) v4l2_close(fd);
    }

    void unmap() {
        for (auto &b : buffers)
            if (b.start != MAP_FAILED) v4l2_munmap(b.start, b.length);
        buffers.clear();
    }
};

extern "C" {

int32_t cfocal_last_os_error(void) { return last_os_error; }

cfocal_status cfocal_camera_open(const char *path, cfocal_camera **out) {
    return guarded("open camera", [&] {
        last_os_error = 0;
        if (path == nullptr || out == nullptr) fail(CFOCAL_ERR_INVALID_ARGUMENT, "open camera: missing argument");
        *out = nullptr;
        auto camera = std::make_unique<cfocal_camera>();
        // O_NONBLOCK: a dequeue must never wait without bound; poll() gives the timeout instead.
        camera->fd = v4l2_open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
        if (camera->fd < 0) {
            // libv4l2 queries the device while opening it: a file that is not a camera fails here.
            if (errno == ENOTTY || errno == EINVAL) {
                last_os_error = errno;
                fail(CFOCAL_ERR_UNSUPPORTED, "not a V4L2 device");
            }
            fail_os("open", errno);
        }
        v4l2_capability capability{};
        if (xioctl(camera->fd, VIDIOC_QUERYCAP, &capability) == -1) {
            const int code = errno;
            last_os_error = code;
            fail(code == ENOTTY || code == EINVAL ? CFOCAL_ERR_UNSUPPORTED : CFOCAL_ERR_IO,
                 code == ENOTTY || code == EINVAL ? "not a V4L2 device" : std::string("query: ") + std::strerror(code));
        }
        const uint32_t caps = capability.capabilities & V4L2_CAP_DEVICE_CAPS ? capability.device_caps : capability.capabilities;
        if (!(caps & V4L2_CAP_VIDEO_CAPTURE)) fail(CFOCAL_ERR_UNSUPPORTED, "the device does not capture video");
        if (!(caps & V4L2_CAP_STREAMING)) fail(CFOCAL_ERR_UNSUPPORTED, "the device cannot stream (no memory-mapped I/O)");
        *out = camera.release();
        return CFOCAL_OK;
    });
}

void cfocal_camera_close(cfocal_camera *camera) { delete camera; }

cfocal_status cfocal_camera_name(cfocal_camera *camera, char *out, int32_t capacity) {
    return guarded("name camera", [&] {
        last_os_error = 0;
        if (camera == nullptr || out == nullptr || capacity < 1) fail(CFOCAL_ERR_INVALID_ARGUMENT, "name camera: bad argument");
        v4l2_capability capability{};
        if (xioctl(camera->fd, VIDIOC_QUERYCAP, &capability) == -1) fail_os("query", errno);
        std::snprintf(out, static_cast<size_t>(capacity), "%s", reinterpret_cast<const char *>(capability.card));
        return CFOCAL_OK;
    });
}

cfocal_status cfocal_camera_formats(cfocal_camera *camera, cfocal_camera_format *out, int32_t capacity,
                                    int32_t *count) {
    return guarded("list camera formats", [&] {
        last_os_error = 0;
        if (camera == nullptr || out == nullptr || count == nullptr) fail(CFOCAL_ERR_INVALID_ARGUMENT, "missing argument");
        *count = 0;
        for (uint32_t f = 0;; f++) {
            v4l2_fmtdesc description{};
            description.index = f;
            description.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
            if (xioctl(camera->fd, VIDIOC_ENUM_FMT, &description) == -1) break;
            for (uint32_t s = 0;; s++) {
                v4l2_frmsizeenum size{};
                size.index = s;
                size.pixel_format = description.pixelformat;
                if (xioctl(camera->fd, VIDIOC_ENUM_FRAMESIZES, &size) == -1) break;
                cfocal_camera_format format{description.pixelformat, 0, 0, 0,
                                            (description.flags & V4L2_FMT_FLAG_EMULATED) ? 1 : 0};
                if (size.type == V4L2_FRMSIZE_TYPE_DISCRETE) {
                    format.width = static_cast<int32_t>(size.discrete.width);
                    format.height = static_cast<int32_t>(size.discrete.height);
                } else {
                    format.width = static_cast<int32_t>(size.stepwise.max_width);
                    format.height = static_cast<int32_t>(size.stepwise.max_height);
                }
                if (*count < capacity) out[(*count)++] = format;
                if (size.type != V4L2_FRMSIZE_TYPE_DISCRETE) break;
            }
        }
        return CFOCAL_OK;
    });
}

cfocal_status cfocal_camera_set_format(cfocal_camera *camera, const cfocal_camera_format *wanted,
                                       cfocal_camera_format *negotiated) {
    return guarded("set camera format", [&] {
        last_os_error = 0;
        if (camera == nullptr || wanted == nullptr || negotiated == nullptr) fail(CFOCAL_ERR_INVALID_ARGUMENT, "missing argument");
        if (camera->streaming) fail(CFOCAL_ERR_INVALID_ARGUMENT, "set camera format: the camera is streaming");
        v4l2_format format{};
        format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        format.fmt.pix.width = static_cast<uint32_t>(wanted->width);
        format.fmt.pix.height = static_cast<uint32_t>(wanted->height);
        format.fmt.pix.pixelformat = wanted->fourcc;
        format.fmt.pix.field = V4L2_FIELD_NONE;
        // EBUSY (another program holds the camera) is named by the Swift side from the errno.
        if (xioctl(camera->fd, VIDIOC_S_FMT, &format) == -1) fail_os("set format " + fourcc_name(wanted->fourcc), errno);
        *negotiated = cfocal_camera_format{format.fmt.pix.pixelformat, static_cast<int32_t>(format.fmt.pix.width),
                                           static_cast<int32_t>(format.fmt.pix.height),
                                           static_cast<int32_t>(format.fmt.pix.bytesperline), 0};
        return CFOCAL_OK;
    });
}

cfocal_status cfocal_camera_start(cfocal_camera *camera, int32_t buffer_count) {
    return guarded("start camera", [&] {
        last_os_error = 0;
        if (camera == nullptr || buffer_count < 2) fail(CFOCAL_ERR_INVALID_ARGUMENT, "start camera: bad argument");
        v4l2_requestbuffers request{};
        request.count = static_cast<uint32_t>(buffer_count);
        request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        request.memory = V4L2_MEMORY_MMAP;
        if (xioctl(camera->fd, VIDIOC_REQBUFS, &request) == -1) fail_os("request buffers", errno);
        if (request.count < 2) fail(CFOCAL_ERR_IO, "the driver gave fewer than two buffers");
        for (uint32_t i = 0; i < request.count; i++) {
            v4l2_buffer buffer{};
            buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
            buffer.memory = V4L2_MEMORY_MMAP;
            buffer.index = i;
            if (xioctl(camera->fd, VIDIOC_QUERYBUF, &buffer) == -1) fail_os("query buffer", errno);
            cfocal_camera::Mapping mapping;
            mapping.length = buffer.length;
            mapping.start = v4l2_mmap(nullptr, buffer.length, PROT_READ | PROT_WRITE, MAP_SHARED, camera->fd, buffer.m.offset);
            if (mapping.start == MAP_FAILED) fail_os("map buffer", errno);
            camera->buffers.push_back(mapping);
            if (xioctl(camera->fd, VIDIOC_QBUF, &buffer) == -1) fail_os("queue buffer", errno);
        }
        v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        if (xioctl(camera->fd, VIDIOC_STREAMON, &type) == -1) fail_os("start streaming", errno);
        camera->streaming = true;
        return CFOCAL_OK;
    });
}

cfocal_status cfocal_camera_next(cfocal_camera *camera, int32_t timeout_ms, cfocal_camera_buffer *out) {
    return guarded("read camera", [&] {
        last_os_error = 0;
        if (camera == nullptr || out == nullptr || !camera->streaming) fail(CFOCAL_ERR_INVALID_ARGUMENT, "the camera is not streaming");
        pollfd waiting{camera->fd, POLLIN, 0};
        int ready;
        do {
            ready = poll(&waiting, 1, timeout_ms);
        } while (ready == -1 && errno == EINTR);
        if (ready == -1) fail_os("wait for a frame", errno);
        if (ready == 0) return CFOCAL_END_OF_STREAM;
        // An unplugged camera reports POLLERR (and ENODEV from the dequeue).
        v4l2_buffer buffer{};
        buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        buffer.memory = V4L2_MEMORY_MMAP;
        if (xioctl(camera->fd, VIDIOC_DQBUF, &buffer) == -1) {
            if (errno == EAGAIN) return CFOCAL_END_OF_STREAM;
            fail_os("dequeue a frame", errno);
        }
        if (buffer.index >= camera->buffers.size()) fail(CFOCAL_ERR_INTERNAL, "the driver returned an unknown buffer");
        out->data = static_cast<const uint8_t *>(camera->buffers[buffer.index].start);
        out->count = buffer.bytesused;
        out->index = static_cast<int32_t>(buffer.index);
        out->sequence = buffer.sequence;
        out->timestamp = static_cast<double>(buffer.timestamp.tv_sec) + buffer.timestamp.tv_usec / 1e6;
        return CFOCAL_OK;
    });
}

cfocal_status cfocal_camera_release(cfocal_camera *camera, int32_t index) {
    return guarded("release camera buffer", [&] {
        last_os_error = 0;
        if (camera == nullptr || index < 0 || static_cast<size_t>(index) >= camera->buffers.size())
            fail(CFOCAL_ERR_INVALID_ARGUMENT, "release camera buffer: bad index");
        v4l2_buffer buffer{};
        buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        buffer.memory = V4L2_MEMORY_MMAP;
        buffer.index = static_cast<uint32_t>(index);
        if (xioctl(camera->fd, VIDIOC_QBUF, &buffer) == -1) fail_os("queue buffer", errno);
        return CFOCAL_OK;
    });
}

cfocal_status cfocal_camera_stop(cfocal_camera *camera) {
    return guarded("stop camera", [&] {
        last_os_error = 0;
        if (camera == nullptr) fail(CFOCAL_ERR_INVALID_ARGUMENT, "stop camera: missing camera");
        if (camera->streaming) {
            v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
            xioctl(camera->fd, VIDIOC_STREAMOFF, &type);
            camera->streaming = false;
        }
        camera->unmap();
        v4l2_requestbuffers request{};
        request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        request.memory = V4L2_MEMORY_MMAP;
        xioctl(camera->fd, VIDIOC_REQBUFS, &request);  // count 0 frees the driver's buffers
        return CFOCAL_OK;
    });
}

cfocal_status cfocal_camera_exposure_range(cfocal_camera *camera, int32_t *minimum, int32_t *maximum,
                                           int32_t *supported) {
    return guarded("query camera exposure", [&] {
        last_os_error = 0;
        if (camera == nullptr || minimum == nullptr || maximum == nullptr || supported == nullptr)
            fail(CFOCAL_ERR_INVALID_ARGUMENT, "missing argument");
        v4l2_queryctrl query{};
        query.id = V4L2_CID_EXPOSURE_ABSOLUTE;
        *supported = xioctl(camera->fd, VIDIOC_QUERYCTRL, &query) == 0 && !(query.flags & V4L2_CTRL_FLAG_DISABLED);
        *minimum = *supported ? query.minimum : 0;
        *maximum = *supported ? query.maximum : 0;
        return CFOCAL_OK;
    });
}

cfocal_status cfocal_camera_set_exposure(cfocal_camera *camera, int32_t value) {
    return guarded("set camera exposure", [&] {
        last_os_error = 0;
        if (camera == nullptr) fail(CFOCAL_ERR_INVALID_ARGUMENT, "missing camera");
        v4l2_control manual{V4L2_CID_EXPOSURE_AUTO, V4L2_EXPOSURE_MANUAL};
        xioctl(camera->fd, VIDIOC_S_CTRL, &manual);  // some cameras have no auto mode to leave
        v4l2_control exposure{V4L2_CID_EXPOSURE_ABSOLUTE, value};
        if (xioctl(camera->fd, VIDIOC_S_CTRL, &exposure) == -1) fail_os("set exposure", errno);
        return CFOCAL_OK;
    });
}

namespace {

// A buffer as the camera delivered it, checked for length before it is read.
struct CameraBuffer {
    const uint8_t *bytes;
    size_t count;
    uint32_t fourcc;
    int32_t width, height, bytes_per_line;

    void need(size_t bytesNeeded) const {
        if (count < bytesNeeded)
            fail(CFOCAL_ERR_DECODE, "a " + fourcc_name(fourcc) + " buffer of " + std::to_string(count) +
                                        " bytes is too short for " + std::to_string(width) + "x" +
                                        std::to_string(height) + " (" + std::to_string(bytesNeeded) + " needed)");
    }

    // The buffer as one packed plane of `type`.
    cv::Mat packed(int type, int bytesPerPixel) const {
        const size_t stride = bytes_per_line > 0 ? static_cast<size_t>(bytes_per_line) : static_cast<size_t>(width) * bytesPerPixel;
        need(stride * (height - 1) + static_cast<size_t>(width) * bytesPerPixel);
        return cv::Mat(height, width, type, const_cast<uint8_t *>(bytes), stride);
    }
};

// Planar 4:2:0 (NV12 or I420) with the luma stride; OpenCV wants the planes stacked without padding.
void convert_420(const CameraBuffer &b, cv::Mat &to) {
    const int width = b.width, height = b.height;
    if (width % 2 || height % 2) fail(CFOCAL_ERR_INVALID_ARGUMENT, "4:2:0 needs an even width and height");
    const size_t stride = b.bytes_per_line > 0 ? static_cast<size_t>(b.bytes_per_line) : static_cast<size_t>(width);
    b.need(stride * height * 3 / 2);
    const bool i420 = b.fourcc == V4L2_PIX_FMT_YUV420;
    cv::Mat stacked(height * 3 / 2, width, CV_8UC1);
    for (int r = 0; r < height * 3 / 2; r++) {
        // NV12's chroma rows are full stride wide; I420's are half.
        const bool chroma = r >= height;
        const size_t rowStride = (chroma && i420) ? stride / 2 : stride;
        const uint8_t *row = chroma ? b.bytes + stride * height + (r - height) * rowStride : b.bytes + r * stride;
        if (chroma && i420) {
            // Two half-width chroma rows (U then V plane) fill one stacked row.
            const int half = (r - height);
            const uint8_t *u = b.bytes + stride * height;
            const uint8_t *v = u + (stride / 2) * (height / 2);
            const uint8_t *source = half < height / 4 ? u : v;
            const int local = half < height / 4 ? half : half - height / 4;
            std::memcpy(stacked.ptr(r), source + static_cast<size_t>(local) * 2 * (stride / 2), width / 2);
            std::memcpy(stacked.ptr(r) + width / 2, source + (static_cast<size_t>(local) * 2 + 1) * (stride / 2), width / 2);
        } else {
            std::memcpy(stacked.ptr(r), row, width);
        }
    }
    cv::cvtColor(stacked, to, i420 ? cv::COLOR_YUV2BGR_I420 : cv::COLOR_YUV2BGR_NV12);
}

// A motion-JPEG buffer, decoded, at the negotiated size.
void convert_jpeg(const CameraBuffer &b, cv::Mat &to) {
    cfocal_buffer *decoded = nullptr;
    const cfocal_status status = cfocal_image_decode(b.bytes, b.count, 0, &decoded);
    if (status != CFOCAL_OK) fail(CFOCAL_ERR_DECODE, std::string("a corrupt MJPEG frame: ") + cfocal_last_error());
    std::unique_ptr<cfocal_buffer, void (*)(cfocal_buffer *)> owner(decoded, cfocal_buffer_free);
    const cfocal_image view = cfocal_buffer_view(decoded);
    if (view.width != b.width || view.height != b.height)
        fail(CFOCAL_ERR_DECODE, "the MJPEG frame is " + std::to_string(view.width) + "x" + std::to_string(view.height) +
                                    ", not the negotiated " + std::to_string(b.width) + "x" + std::to_string(b.height));
    cv::Mat from = planes_of(view)[0];
    if (view.format == CFOCAL_GRAY8) cv::cvtColor(from, to, cv::COLOR_GRAY2BGR);
    else if (view.format == CFOCAL_BGRA8) cv::cvtColor(from, to, cv::COLOR_BGRA2BGR);
    else from.copyTo(to);
}

}  // namespace

cfocal_status cfocal_camera_convert(const uint8_t *bytes, size_t count, uint32_t fourcc, int32_t width,
                                    int32_t height, int32_t bytes_per_line, const cfocal_image *dst) {
    return guarded("convert camera frame", [&] {
        last_os_error = 0;
        validate(dst, "convert camera frame");
        if (bytes == nullptr || width <= 0 || height <= 0) fail(CFOCAL_ERR_INVALID_ARGUMENT, "convert camera frame: bad buffer");
        if (dst->format != CFOCAL_BGR8 || dst->width != width || dst->height != height)
            fail(CFOCAL_ERR_INVALID_ARGUMENT, "convert camera frame: the destination must be bgr8 of the buffer's size");
        cv::Mat to = planes_of(*dst)[0];
        const CameraBuffer buffer{bytes, count, fourcc, width, height, bytes_per_line};
        switch (fourcc) {
        case V4L2_PIX_FMT_YUYV: cv::cvtColor(buffer.packed(CV_8UC2, 2), to, cv::COLOR_YUV2BGR_YUYV); break;
        case V4L2_PIX_FMT_UYVY: cv::cvtColor(buffer.packed(CV_8UC2, 2), to, cv::COLOR_YUV2BGR_UYVY); break;
        case V4L2_PIX_FMT_GREY: cv::cvtColor(buffer.packed(CV_8UC1, 1), to, cv::COLOR_GRAY2BGR); break;
        case V4L2_PIX_FMT_BGR24: buffer.packed(CV_8UC3, 3).copyTo(to); break;
        case V4L2_PIX_FMT_RGB24: cv::cvtColor(buffer.packed(CV_8UC3, 3), to, cv::COLOR_RGB2BGR); break;
        case V4L2_PIX_FMT_NV12:
        case V4L2_PIX_FMT_YUV420: convert_420(buffer, to); break;
        case V4L2_PIX_FMT_MJPEG:
        case V4L2_PIX_FMT_JPEG: convert_jpeg(buffer, to); break;
        default: fail(CFOCAL_ERR_UNSUPPORTED, "camera pixel format " + fourcc_name(fourcc) + " is not supported");
        }
        return CFOCAL_OK;
    });
}

}  // extern "C"
