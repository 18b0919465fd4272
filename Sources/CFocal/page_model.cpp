// The learned page detector (Sources/Focal/Models/page-detector.onnx, recipe in Models/page-detector/) run by
// OpenCV's dnn module. It turns an image into two probability maps; quads.cpp makes quads of them.
#include "internal.hpp"
#include "onnx.hpp"

#include <opencv2/imgproc.hpp>

#include <map>
#include <utility>

using namespace cfocal;

struct cfocal_page_model {
    std::string path;
    int side = 0;  // the shorter side of the first forward pass's input
    // A network for each input shape: OpenCV 4.6 keeps a network's Resize sizes from its first
    // forward pass. Inputs come in a few shapes (proportional_size), so a model holds a few.
    std::map<std::pair<int, int>, cv::dnn::Net> nets;
    cv::dnn::Net unused;   // read on opening, to check the file; the first shape takes it
};

namespace cfocal {

namespace {

// The image's pixels inside roi, reduced to size BGR, as the network takes them; a YUV420P image's
// luma from `luma`'s halvings where they are of it.
cv::Mat squeezed_input(const cfocal_image &image, const cv::Rect &roi, cv::Size size, Halvings *luma) {
    // Colour is converted after the reduction, on the input's pixels rather than on the frame's
    // (the conversions are affine, so averaging first gives the same colours but for clipping).
    // Still images (BGR) are averaged over each input pixel's area in one step, as the phone
    // photos were tuned on (read as video frames are read, below, the photos with a cable laid
    // across the page lose at .high: 0.983 → 0.943).
    auto squeezed = [&](const cv::Mat &plane) {
        cv::Mat out;
        cv::resize(plane, out, size, 0, 0, cv::INTER_AREA);
        return out;
    };
    // A video frame's planes are read as a mipmap is: halved (a mean of 2 × 2, exact and cheap)
    // while the half is still at least 1.5 times the input, then interpolated to it. The network
    // reads the sharper input better than an area average over the last uneven step, as before
    // 0.7.0, which blurred a page's region away in frames the camera swung in (facade clips, seed
    // 5: 0.968 → 0.978 at .high, 0.949 → 0.983 at .low), and it costs less (at .high, 0.06 instead
    // of 0.25 ms a plane for the last step).
    auto mipmapped = [&](cv::Mat plane, Halvings *kept = nullptr) {
        if (kept != nullptr && !kept->of(plane)) kept = nullptr;
        for (int times = 1; plane.cols / 2 >= 1.5 * size.width && plane.rows / 2 >= 1.5 * size.height; ++times)
            plane = kept != nullptr ? kept->halved_times(times) : halved(plane);
        // A plane the halvings could not bring near the input (a frame squeezed to a square, a
        // 640 × 480 frame at .high) is averaged over the rest of the way instead: interpolating
        // from 2.5 or more pixels apart would alias.
        const bool far = plane.cols >= 2.5 * size.width || plane.rows >= 2.5 * size.height;
        cv::Mat out;
        cv::resize(plane, out, size, 0, 0, far ? cv::INTER_AREA : cv::INTER_LINEAR);
        return out;
    };
    auto planes = planes_of(image);
    cv::Mat input;
    switch (image.format) {
    case CFOCAL_BGR8: input = squeezed(planes[0](roi)); break;
    case CFOCAL_BGRA8: cv::cvtColor(squeezed(planes[0](roi)), input, cv::COLOR_BGRA2BGR); break;
    case CFOCAL_YUV420P: {
        // The chroma planes are half the size: the region's half, within them.
        cv::Rect chroma = cv::Rect(cv::Point(roi.x / 2, roi.y / 2), cv::Point((roi.x + roi.width + 1) / 2, (roi.y + roi.height + 1) / 2)) &
                          cv::Rect(0, 0, planes[1].cols, planes[1].rows);
        cv::Mat ycrcb;
        cv::merge(std::vector<cv::Mat>{mipmapped(planes[0](roi), luma), mipmapped(planes[2](chroma)),
                                       mipmapped(planes[1](chroma))},
                  ycrcb);
        cv::cvtColor(ycrcb, input, cv::COLOR_YCrCb2BGR);
        break;
    }
    default: cv::cvtColor(squeezed(gray_of(image)(roi)), input, cv::COLOR_GRAY2BGR); break;
    }
    return input;
}

cv::dnn::Net &network_for(cfocal_page_model *model, cv::Size size) {
    const auto key = std::make_pair(size.width, size.height);
    auto found = model->nets.find(key);
    if (found != model->nets.end()) return found->second;
    cv::dnn::Net net = model->unused.empty() ? read_onnx(model->path.c_str(), "page model") : model->unused;
    model->unused = cv::dnn::Net();
    return model->nets.emplace(key, net).first->second;
}

// input (8-bit BGR) as the network's 1 × 3 × rows × cols float blob: cv::dnn::blobFromImage's
// values (scale 1, no mean, no swap), in one pass instead of its conversion, subtraction and split.
cv::Mat blob_of(const cv::Mat &input) {
    CV_Assert(input.type() == CV_8UC3);
    const int rows = input.rows, cols = input.cols;
    cv::Mat blob(std::vector<int>{1, 3, rows, cols}, CV_32F);
    float *blue = blob.ptr<float>(0, 0), *green = blob.ptr<float>(0, 1), *red = blob.ptr<float>(0, 2);
    for (int y = 0; y < rows; ++y) {
        const uint8_t *pixel = input.ptr<uint8_t>(y);
        const size_t row = size_t(y) * cols;
        for (int x = 0; x < cols; ++x) {
            blue[row + x] = pixel[3 * x];
            green[row + x] = pixel[3 * x + 1];
            red[row + x] = pixel[3 * x + 2];
        }
    }
    return blob;
}

// The network's page and outline maps for input (8-bit BGR), at the input's size.
PageMaps maps_from(cfocal_page_model *model, cv::dnn::Net &net, const cv::Mat &input) {
    const cv::Size size = input.size();
    net.setInput(blob_of(input));
    cv::Mat output = net.forward();
    // The maps come at the input's size or a whole fraction of it (a network with a head at half
    // resolution); smaller ones are interpolated to the input's size, as such a network is trained.
    // A third map, where there is one, is the corner head's: trained with the others (it teaches
    // the network where pages end), and not read here (Models/page-detector/MODEL_CARD.md).
    int rows = output.dims == 4 ? output.size[2] : 0, cols = output.dims == 4 ? output.size[3] : 0;
    const int channels = output.dims == 4 ? output.size[1] : 0;
    if (output.dims != 4 || output.size[0] != 1 || channels < 2 || channels > 3 || rows < 8 || cols < 8 ||
        size.height % rows != 0 || size.width % cols != 0 || size.height / rows != size.width / cols)
        fail(CFOCAL_ERR_UNSUPPORTED, "find pages with the model '" + model->path +
                                         "': the network's output is not two or three maps of the input's size or a fraction of it");
    auto map = [&](int channel) {
        cv::Mat at(rows, cols, CV_32F, output.ptr<float>(0, channel)), out;
        if (rows == size.height) return at.clone();
        cv::resize(at, out, size, 0, 0, cv::INTER_LINEAR);
        return out;
    };
    return {map(0), map(1)};
}

PageMaps forward(cfocal_page_model *model, const cv::Mat &input) {
    model->side = std::min(input.cols, input.rows);
    return maps_from(model, network_for(model, input.size()), input);
}

// The input for an image at about its own proportions, side along its shorter side: the longer
// side fitted to 4:3 or 16:9 (a multiple of 32 near it), or side too for a nearly square image, so
// that a model needs a few networks, not one for each shape of photo.
cv::Size proportional_size(int width, int height, int side) {
    const double ratio = double(std::max(width, height)) / std::min(width, height);
    const double kept = ratio < 1.2 ? 1.0 : ratio < 1.55 ? 4.0 / 3 : 16.0 / 9;
    const int length = 32 * int(std::lround(side * kept / 32));
    return width >= height ? cv::Size(length, side) : cv::Size(side, length);
}

void check_side(const cfocal_page_model *model, int side) {
    if (model->side != 0 && model->side != side)
        fail(CFOCAL_ERR_INVALID_ARGUMENT, "find pages with the model: one model runs at one input size (" +
                                              std::to_string(model->side) + ", asked " + std::to_string(side) + ")");
}

}  // namespace

PageMaps page_maps(cfocal_page_model *model, const cfocal_image &image, int side, Halvings *luma) {
    check_side(model, side);
    // Squeezed to a square, as the network was trained: a 16:9 frame keeps its whole field of view.
    return forward(model, squeezed_input(image, cv::Rect(0, 0, image.width, image.height), cv::Size(side, side), luma));
}

PageMaps page_maps_proportional(cfocal_page_model *model, const cfocal_image &image, int side, Halvings *luma) {
    check_side(model, side);
    // A portrait phone photo squeezed to a square is half its height: a card held up in it is a
    // strip a few cells high (the phone photos' card held by a hand: 0.75 at .low squeezed, 1.00
    // at its own proportions), and a small card in a 16:9 frame loses half its width.
    const cv::Size size = proportional_size(image.width, image.height, side);
    return forward(model, squeezed_input(image, cv::Rect(0, 0, image.width, image.height), size, luma));
}

cv::Size page_map_size(int width, int height, int side, int32_t view) {
    switch (view) {
    case CFOCAL_PAGE_VIEW_SQUEEZED: return cv::Size(side, side);
    case CFOCAL_PAGE_VIEW_PROPORTIONAL: return proportional_size(width, height, side);
    default: fail(CFOCAL_ERR_INVALID_ARGUMENT, "find pages with the model: unknown page view " + std::to_string(view));
    }
}

PageMaps page_maps_in(cfocal_page_model *model, const cfocal_image &image, int side, int32_t view, Halvings *luma) {
    switch (view) {
    case CFOCAL_PAGE_VIEW_SQUEEZED: return page_maps(model, image, side, luma);
    case CFOCAL_PAGE_VIEW_PROPORTIONAL: return page_maps_proportional(model, image, side, luma);
    default: fail(CFOCAL_ERR_INVALID_ARGUMENT, "find pages with the model: unknown page view " + std::to_string(view));
    }
}

}  // namespace cfocal

extern "C" {

cfocal_status cfocal_page_model_open(const char *path, cfocal_page_model **out) {
    return guarded("load the page model", [&] {
        if (path == nullptr || out == nullptr) fail(CFOCAL_ERR_INVALID_ARGUMENT, "load the page model: missing argument");
        *out = nullptr;
        auto model = std::make_unique<cfocal_page_model>();
        model->path = path;
        model->unused = read_onnx(path, "page model");
        *out = model.release();
        return CFOCAL_OK;
    });
}

void cfocal_page_model_free(cfocal_page_model *model) { delete model; }

cfocal_status cfocal_page_model_map_size(int32_t width, int32_t height, int32_t input_size, int32_t view,
                                         int32_t *map_width, int32_t *map_height) {
    return guarded("find pages with the model", [&] {
        if (width < 1 || height < 1 || input_size < 32 || input_size % 32 != 0 || map_width == nullptr || map_height == nullptr)
            fail(CFOCAL_ERR_INVALID_ARGUMENT, "find pages with the model: bad argument");
        const cv::Size size = page_map_size(width, height, input_size, view);
        *map_width = size.width;
        *map_height = size.height;
        return CFOCAL_OK;
    });
}

cfocal_status cfocal_page_model_maps(cfocal_page_model *model, const cfocal_image *image, int32_t input_size,
                                     int32_t view, float *page, float *outline) {
    return guarded("find pages with the model", [&] {
        validate(image, "find pages with the model");
        if (model == nullptr || input_size < 32 || input_size % 32 != 0)
            fail(CFOCAL_ERR_INVALID_ARGUMENT, "find pages with the model: bad argument");
        PageMaps maps = page_maps_in(model, *image, input_size, view);
        const cv::Size size = page_map_size(image->width, image->height, input_size, view);
        if (maps.page.size() != size) fail(CFOCAL_ERR_INTERNAL, "find pages with the model: maps of an unexpected size");
        if (page != nullptr) maps.page.copyTo(cv::Mat(size, CV_32F, page));
        if (outline != nullptr) maps.outline.copyTo(cv::Mat(size, CV_32F, outline));
        return CFOCAL_OK;
    });
}

}  // extern "C"
