// Nearest-neighbour upsampling by whole factors, run here rather than by OpenCV 4.6's dnn, whose
// Resize layer computes each output pixel's source position on its own (the page networks'
// decoder doubles its maps four times: 0.15 ms of the network's 2.1 at .low's 96 × 160). With the
// ONNX export's "asymmetric" coordinates and "floor" rounding, output pixel (y, x) is input pixel
// (y / fy, x / fx): each input pixel written fx times along a row, each row fy times.
#include "dnn_layers.hpp"
#include "internal.hpp"

#include <cstring>

namespace {

class NearestUpsampling final : public cv::dnn::Layer {
  public:
    NearestUpsampling(const cv::dnn::LayerParams &params, int factor_y, int factor_x)
        : cv::dnn::Layer(params), factor_y_(factor_y), factor_x_(factor_x) {}

    // A length of 0 is one the importer does not know yet (a network with dynamic input shapes): it
    // stays unknown.
    bool getMemoryShapes(const std::vector<cv::dnn::MatShape> &inputs, const int, std::vector<cv::dnn::MatShape> &outputs,
                         std::vector<cv::dnn::MatShape> &) const override {
        CV_Assert(inputs.size() == 1 && inputs[0].size() == 4);
        const cv::dnn::MatShape &in = inputs[0];
        outputs.assign(1, cv::dnn::MatShape{in[0], in[1], in[2] * factor_y_, in[3] * factor_x_});
        return false;
    }

    bool supportBackend(int backend) override { return backend == cv::dnn::DNN_BACKEND_OPENCV; }

    void forward(cv::InputArrayOfArrays inputs_arr, cv::OutputArrayOfArrays outputs_arr, cv::OutputArrayOfArrays) override {
        cv::Mat in, out;
        cfocal::single_float_blobs(inputs_arr, outputs_arr, in, out);
        const int rows = in.size[2], cols = in.size[3], out_cols = cols * factor_x_;
        cv::parallel_for_(cv::Range(0, in.size[0] * in.size[1]), [&](const cv::Range &range) {
            for (int plane = range.start; plane < range.end; ++plane) {
                const float *from = in.ptr<float>() + size_t(plane) * rows * cols;
                float *to = out.ptr<float>() + size_t(plane) * rows * factor_y_ * out_cols;
                for (int y = 0; y < rows; ++y, from += cols) {
                    float *row = to + size_t(y) * factor_y_ * out_cols;
                    for (int x = 0; x < cols; ++x)
                        for (int k = 0; k < factor_x_; ++k) row[x * factor_x_ + k] = from[x];
                    for (int k = 1; k < factor_y_; ++k) std::memcpy(row + size_t(k) * out_cols, row, sizeof(float) * out_cols);
                }
            }
        });
    }

  private:
    int factor_y_, factor_x_;
};

// A whole zoom factor of 1 to 16 given in params as `name`, or 0.
int whole_factor(const cv::dnn::LayerParams &params, const char *name) {
    if (!params.has(name)) return 0;
    const double factor = params.get<double>(name);
    return factor >= 1 && factor <= 16 && factor == std::floor(factor) ? int(factor) : 0;
}

}  // namespace

namespace cfocal {

cv::Ptr<cv::dnn::Layer> nearest_upsampling_for(const cv::dnn::LayerParams &params) {
    if (params.get<cv::String>("interpolation", "") != "nearest" || params.get<bool>("align_corners", false) ||
        params.get<bool>("half_pixel_centers", false))
        return nullptr;
    if (params.get<cv::String>("coordinate_transformation_mode", "asymmetric") != "asymmetric" ||
        params.get<cv::String>("nearest_mode", "floor") != "floor" || params.has("height") || params.has("width"))
        return nullptr;
    const int factor_y = whole_factor(params, "zoom_factor_y"), factor_x = whole_factor(params, "zoom_factor_x");
    if (factor_y == 0 || factor_x == 0) return nullptr;
    return cv::makePtr<NearestUpsampling>(params, factor_y, factor_x);
}

}  // namespace cfocal
