// The learned page detector (Models/page-detector.onnx, recipe in Models/page-detector/) run by
// OpenCV's dnn module. It turns an image into two probability maps; quads.cpp makes quads of them.
#include "internal.hpp"
#include "onnx.hpp"

#include <opencv2/imgproc.hpp>

using namespace cfocal;

struct cfocal_page_model {
    cv::dnn::Net net;
    std::string path;
    int side = 0;  // the input size of the first forward pass; 4.6 keeps its Resize sizes from it
};

namespace cfocal {

PageMaps page_maps(cfocal_page_model *model, const cfocal_image &image, int side) {
    if (model->side != 0 && model->side != side)
        fail(CFOCAL_ERR_INVALID_ARGUMENT, "find pages with the model: one model runs at one input size (" +
                                              std::to_string(model->side) + ", asked " + std::to_string(side) + ")");
    cv::Mat bgr;
    switch (image.format) {
    case CFOCAL_BGR8: bgr = planes_of(image)[0]; break;
    case CFOCAL_BGRA8: cv::cvtColor(planes_of(image)[0], bgr, cv::COLOR_BGRA2BGR); break;
    case CFOCAL_YUV420P: {
        // A side of a few hundred pixels needs no more than the chroma planes' resolution, and
        // halving is the fast case of an area resize.
        auto planes = planes_of(image);
        cv::Mat y, ycrcb;
        cv::resize(planes[0], y, planes[1].size(), 0, 0, cv::INTER_AREA);
        cv::merge(std::vector<cv::Mat>{y, planes[2], planes[1]}, ycrcb);
        cv::cvtColor(ycrcb, bgr, cv::COLOR_YCrCb2BGR);
        break;
    }
    default: cv::cvtColor(gray_of(image), bgr, cv::COLOR_GRAY2BGR); break;
    }
    // Squeezed to a square, as the network was trained: a 16:9 frame keeps its whole field of view.
    cv::Mat input;
    cv::resize(bgr, input, cv::Size(side, side), 0, 0, cv::INTER_AREA);
    model->net.setInput(cv::dnn::blobFromImage(input, 1.0, cv::Size(side, side), cv::Scalar(), false, false));
    cv::Mat output = model->net.forward();
    model->side = side;
    if (output.dims != 4 || output.size[0] != 1 || output.size[1] != 2 || output.size[2] != side || output.size[3] != side)
        fail(CFOCAL_ERR_UNSUPPORTED, "find pages with the model '" + model->path +
                                         "': the network's output is not two maps of the input's size");
    PageMaps maps;
    maps.page = cv::Mat(side, side, CV_32F, output.ptr<float>(0, 0)).clone();
    maps.outline = cv::Mat(side, side, CV_32F, output.ptr<float>(0, 1)).clone();
    return maps;
}

}  // namespace cfocal

extern "C" {

cfocal_status cfocal_page_model_open(const char *path, cfocal_page_model **out) {
    return guarded("load the page model", [&] {
        if (path == nullptr || out == nullptr) fail(CFOCAL_ERR_INVALID_ARGUMENT, "load the page model: missing argument");
        *out = nullptr;
        auto model = std::make_unique<cfocal_page_model>();
        model->path = path;
        model->net = read_onnx(path, "page model");
        *out = model.release();
        return CFOCAL_OK;
    });
}

void cfocal_page_model_free(cfocal_page_model *model) { delete model; }

cfocal_status cfocal_page_model_maps(cfocal_page_model *model, const cfocal_image *image, int32_t input_size,
                                     float *page, float *outline) {
    return guarded("find pages with the model", [&] {
        validate(image, "find pages with the model");
        if (model == nullptr || input_size < 32 || input_size % 32 != 0)
            fail(CFOCAL_ERR_INVALID_ARGUMENT, "find pages with the model: bad argument");
        PageMaps maps = page_maps(model, *image, input_size);
        if (page != nullptr) maps.page.copyTo(cv::Mat(input_size, input_size, CV_32F, page));
        if (outline != nullptr) maps.outline.copyTo(cv::Mat(input_size, input_size, CV_32F, outline));
        return CFOCAL_OK;
    });
}

}  // extern "C"
