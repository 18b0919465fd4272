// Networks read from ONNX files, for the text and page models.
#include "internal.hpp"
#include "onnx.hpp"

#include <fstream>

namespace cfocal {

cv::dnn::Net read_onnx(const char *path, const char *what) {
    if (!std::ifstream(path, std::ios::binary).good())
        fail(CFOCAL_ERR_NOT_FOUND, std::string("the ") + what + " '" + path + "' is missing or unreadable");
    cv::dnn::Net net;
    try {
        net = cv::dnn::readNetFromONNX(path);
    } catch (const cv::Exception &e) {
        fail(CFOCAL_ERR_DECODE, std::string("'") + path + "' is not an ONNX network OpenCV can load: " + e.err);
    }
    if (net.empty()) fail(CFOCAL_ERR_DECODE, std::string("'") + path + "' holds no network");
    return net;
}

}  // namespace cfocal
