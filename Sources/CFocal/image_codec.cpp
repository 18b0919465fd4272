// Image decoding and encoding through OpenCV's imgcodecs (libjpeg, libpng, libtiff, libwebp).
//
// imgcodecs is loaded on first use rather than linked: Debian builds it with GDAL, whose 118
// libraries cost every program 80 ms and 42 MB at start-up, image files or not. Loaded after the
// program's own 170, they cost more: each of their symbols was looked up among the program's
// libraries before their own (RTLD_DEEPBIND, below).
#include "internal.hpp"

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <dlfcn.h>

#include <atomic>
#include <cstdlib>

#include <type_traits>
#include <utility>

using namespace cfocal;

namespace {

using Decode = cv::Mat (*)(cv::InputArray, int);
using Encode = bool (*)(const cv::String &, cv::InputArray, std::vector<uchar> &, const std::vector<int> &);
using CanWrite = bool (*)(const cv::String &);

// The pointer types must match the header's declarations; checked without referencing the symbols.
static_assert(std::is_same_v<decltype(cv::imdecode(std::declval<cv::InputArray>(), 0)), cv::Mat>);
static_assert(std::is_same_v<decltype(cv::imencode(std::declval<const cv::String &>(), std::declval<cv::InputArray>(),
                                                   std::declval<std::vector<uchar> &>(),
                                                   std::declval<const std::vector<int> &>())),
                             bool>);
static_assert(std::is_same_v<decltype(cv::haveImageWriter(std::declval<const cv::String &>())), bool>);

struct Codecs {
    Decode decode = nullptr;
    Encode encode = nullptr;
    CanWrite can_write = nullptr;
    std::string error;
};

// An environment variable set for a scope, and put back as it was when the scope ends.
class ScopedVariable {
public:
    ScopedVariable(const char *name, const std::string &value) : name_(name) {
        const char *before = getenv(name);
        had_ = before != nullptr;
        if (had_) previous_ = before;
        setenv(name, value.c_str(), 1);
    }
    ~ScopedVariable() { had_ ? setenv(name_, previous_.c_str(), 1) : unsetenv(name_); }
    ScopedVariable(const ScopedVariable &) = delete;
    ScopedVariable &operator=(const ScopedVariable &) = delete;

private:
    const char *name_;
    bool had_ = false;
    std::string previous_;
};

// Set as the codecs start loading: from then on OpenCV's decode limit is fixed.
std::atomic<bool> codecs_loading{false};

// How the codecs' library is opened. RTLD_DEEPBIND has its tree of libraries find their symbols
// among themselves before the program's: a one-shot `focal detect` on the sample photo without the
// page model 319–352 → 217–231 ms (scripts/bench.sh; 121–157 ms on the same frame as a one-frame
// video, which loads no codecs), and the same pixels decoded. The same libraries
// are shared either way (opencv_core, libstdc++ and libc are in both trees). The sanitizers refuse
// libraries opened so, and their builds (the fuzz targets, scripts/fuzz.sh) open them plainly.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define CFOCAL_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CFOCAL_SANITIZED 1
#endif
#ifdef CFOCAL_SANITIZED
constexpr int codec_open_flags = RTLD_NOW | RTLD_LOCAL;
#else
constexpr int codec_open_flags = RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND;
#endif

const Codecs &codecs() {
    static const Codecs loaded = [] {
        codecs_loading.store(true);
        Codecs c;
        const std::string major = std::to_string(CV_VERSION_MAJOR), minor = std::to_string(CV_VERSION_MINOR);
        // Debian names it .so.406, other builds .so.4.6; the unversioned name is a last resort.
        const std::string names[] = {"libopencv_imgcodecs.so." + major + minor,
                                     "libopencv_imgcodecs.so." + major + "." + minor, "libopencv_imgcodecs.so"};
        void *library = nullptr;
        for (const auto &name : names)
            if ((library = dlopen(name.c_str(), codec_open_flags)) != nullptr) break;
        if (library == nullptr) {
            const char *why = dlerror();
            c.error = "OpenCV's image codecs (" + names[0] + ") could not be loaded: " + (why ? why : "not found");
            return c;
        }
        // Itanium C++ ABI names (GCC and Clang) of the declarations checked above.
        c.decode = reinterpret_cast<Decode>(dlsym(library, "_ZN2cv8imdecodeERKNS_11_InputArrayEi"));
        c.encode = reinterpret_cast<Encode>(dlsym(
            library, "_ZN2cv8imencodeERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEERKNS_11_InputArrayERSt6vectorIhSaIhEERKSB_IiSaIiEE"));
        c.can_write = reinterpret_cast<CanWrite>(
            dlsym(library, "_ZN2cv15haveImageWriterERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE"));
        if (!c.decode || !c.encode || !c.can_write) c.error = "OpenCV's image codecs lack an expected function";
        return c;
    }();
    if (!loaded.error.empty()) fail(CFOCAL_ERR_UNSUPPORTED, loaded.error);
    return loaded;
}

}  // namespace

extern "C" {

cfocal_status cfocal_image_limit_decoded_pixels(uint64_t pixels) {
    return guarded("limit decoded pixels", [&] {
        if (pixels == 0) fail(CFOCAL_ERR_INVALID_ARGUMENT, "the pixel limit must be at least 1");
        if (codecs_loading.load()) fail(CFOCAL_ERR_UNSUPPORTED, "OpenCV's image codecs are loaded already; their limit stays");
        // loadsave.cpp reads the variable into a static as the library loads: load it now, then
        // put the environment back (also if loading fails), so that programs this process starts
        // keep their own limit.
        const ScopedVariable limit("OPENCV_IO_MAX_IMAGE_PIXELS", std::to_string(pixels));
        codecs();
        return CFOCAL_OK;
    });
}

cfocal_status cfocal_image_decode(const uint8_t *bytes, size_t count, int32_t apply_orientation,
                                  cfocal_buffer **out) {
    return guarded("decode image", [&] {
        if (out == nullptr) fail(CFOCAL_ERR_INVALID_ARGUMENT, "no output");
        if (bytes == nullptr || count == 0) fail(CFOCAL_ERR_EMPTY, "the data is empty (0 bytes)");
        // libjpeg decodes a cut-off JPEG with a warning and grey rows where the data ran out;
        // OpenCV passes that on as a whole image. The end-of-image marker must follow the last
        // scan (entropy-coded data never holds FF D9, so none after the last FF DA means a cut).
        if (count >= 4 && bytes[0] == 0xFF && bytes[1] == 0xD8) {
            size_t lastScan = 0;
            for (size_t i = 2; i + 1 < count; i++)
                if (bytes[i] == 0xFF && bytes[i + 1] == 0xDA) lastScan = i;
            bool ended = false;
            for (size_t i = lastScan; i + 1 < count && lastScan > 0; i++)
                if (bytes[i] == 0xFF && bytes[i + 1] == 0xD9) ended = true;
            if (!ended) fail(CFOCAL_ERR_DECODE, "the JPEG data is truncated (it ends before its end-of-image marker)");
        }
        cv::Mat encoded(1, int(count), CV_8UC1, const_cast<uint8_t *>(bytes));
        int flags = cv::IMREAD_ANYCOLOR;
        if (!apply_orientation) flags |= cv::IMREAD_IGNORE_ORIENTATION;
        cv::Mat image;
        try {
            image = codecs().decode(encoded, flags);
        } catch (const cv::Exception &e) {
            // The decoders check what the data describes as they read it: bytes that disagree
            // with their own header are a damaged image, not a fault of Focal's.
            if (std::string(e.func).find("validateInputImageSize") != std::string::npos)
                fail(CFOCAL_ERR_DECODE, "its data describes an image larger than its header says, or larger than OpenCV decodes");
            fail(CFOCAL_ERR_DECODE, "the image data is damaged (" + e.err + ")");
        }
        if (image.empty())
            fail(CFOCAL_ERR_DECODE, "not a readable image (JPEG, PNG, TIFF, WebP, BMP, Netpbm, JPEG 2000, OpenEXR, "
                                    "Radiance HDR or Sun raster), or the data is truncated");
        if (image.depth() != CV_8U) image.convertTo(image, CV_8U);
        int32_t format = CFOCAL_BGR8;
        if (image.channels() == 1) format = CFOCAL_GRAY8;
        else if (image.channels() == 4) format = CFOCAL_BGRA8;
        else if (image.channels() != 3) fail(CFOCAL_ERR_UNSUPPORTED, "images with " + std::to_string(image.channels()) + " channels");
        *out = buffer_from_mat(image, format);
        return CFOCAL_OK;
    });
}

int32_t cfocal_image_can_encode(const char *extension) {
    try {
        return extension != nullptr && codecs().can_write(extension) ? 1 : 0;
    } catch (...) {
        return 0;
    }
}

cfocal_status cfocal_image_encode(const cfocal_image *image, const char *extension, int32_t quality,
                                  cfocal_bytes **out) {
    return guarded("encode image", [&] {
        validate(image, "encode image");
        if (out == nullptr || extension == nullptr) fail(CFOCAL_ERR_INVALID_ARGUMENT, "no output");
        std::string ext(extension);
        for (auto &c : ext) c = char(std::tolower(c));
        if (!codecs().can_write(ext)) fail(CFOCAL_ERR_UNSUPPORTED, "no encoder for '" + ext + "' images");
        cv::Mat pixels;
        if (image->format == CFOCAL_YUV420P) {
            cv::Mat bgr(image->height, image->width, CV_8UC3);
            cfocal_image dst = view_of_mat(bgr, CFOCAL_BGR8);
            cfocal_status status = cfocal_image_convert(image, &dst);
            if (status != CFOCAL_OK) fail(status, cfocal_last_error());
            pixels = bgr;
        } else {
            pixels = packed_of(*image, "encode image");
        }
        std::vector<int> params;
        int q = std::max(0, std::min(100, int(quality)));
        if (ext == ".jpg" || ext == ".jpeg") params = {cv::IMWRITE_JPEG_QUALITY, q};
        else if (ext == ".webp") params = {cv::IMWRITE_WEBP_QUALITY, std::max(1, q)};
        auto bytes = std::make_unique<cfocal_bytes>();
        if (!codecs().encode(ext, pixels, bytes->data, params))
            fail(CFOCAL_ERR_UNSUPPORTED, "OpenCV could not encode this image as '" + ext + "'");
        *out = bytes.release();
        return CFOCAL_OK;
    });
}
}
