// Faces through OpenCV's Haar cascades (Debian's opencv-data ships them). QR codes through the
// contrib WeChat decoder (ZXing inside, no model files needed): Debian builds 4.6 without quirc,
// so cv::QRCodeDetector locates codes but cannot read them; it remains the fallback locator.
#include "internal.hpp"

#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>
#include <opencv2/wechat_qrcode.hpp>

#include <cmath>
#include <cstring>
#include <map>
#include <mutex>

using namespace cfocal;

namespace {

// Cascades are costly to parse: load each file once per thread (CascadeClassifier is not
// thread-safe to share while detecting).
cv::CascadeClassifier &cascade(const std::string &path) {
    thread_local std::map<std::string, cv::CascadeClassifier> loaded;
    auto found = loaded.find(path);
    if (found != loaded.end()) return found->second;
    cv::CascadeClassifier classifier;
    if (!classifier.load(path)) fail(CFOCAL_ERR_NOT_FOUND, "the face model '" + path + "' is missing or unreadable");
    return loaded.emplace(path, classifier).first->second;
}

}  // namespace

extern "C" {

cfocal_status cfocal_detect_faces(const cfocal_image *image, const char *cascade_folder, double min_size,
                                  int32_t find_landmarks, cfocal_face *out, int32_t capacity, int32_t *count) {
    return guarded("detect faces", [&] {
        validate(image, "detect faces");
        if (cascade_folder == nullptr || out == nullptr || count == nullptr)
            fail(CFOCAL_ERR_INVALID_ARGUMENT, "detect faces: missing argument");
        *count = 0;
        std::string folder(cascade_folder);
        cv::Mat gray = gray_of(*image), equalized;
        cv::equalizeHist(gray, equalized);
        std::vector<cv::Rect> faces;
        std::vector<int> levels;
        std::vector<double> weights;
        int side = std::max(12, int(min_size));
        cascade(folder + "/haarcascade_frontalface_default.xml")
            .detectMultiScale(equalized, faces, levels, weights, 1.1, 5, 0, cv::Size(side, side), cv::Size(), true);
        std::vector<size_t> order(faces.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return weights[a] > weights[b]; });
        for (size_t index : order) {
            if (*count >= capacity) break;
            const cv::Rect &f = faces[index];
            cfocal_face &face = out[*count];
            face.x = f.x;
            face.y = f.y;
            face.width = f.width;
            face.height = f.height;
            face.confidence = 1.0 / (1.0 + std::exp(-(weights[index] - 2.0)));  // cascade margin squashed to 0…1
            for (double &v : face.eyes) v = NAN;
            face.mouth[0] = face.mouth[1] = NAN;
            if (find_landmarks) {
                cv::Rect upper(f.x, f.y + f.height / 5, f.width, f.height * 2 / 5);
                std::vector<cv::Rect> eyes;
                cascade(folder + "/haarcascade_eye.xml")
                    .detectMultiScale(equalized(upper), eyes, 1.1, 4, 0, cv::Size(f.width / 8, f.width / 8));
                std::sort(eyes.begin(), eyes.end(), [](const cv::Rect &a, const cv::Rect &b) { return a.area() > b.area(); });
                if (eyes.size() > 2) eyes.resize(2);
                std::sort(eyes.begin(), eyes.end(), [](const cv::Rect &a, const cv::Rect &b) { return a.x < b.x; });
                for (size_t e = 0; e < eyes.size() && eyes.size() == 2; ++e) {
                    face.eyes[2 * e] = upper.x + eyes[e].x + eyes[e].width / 2.0;
                    face.eyes[2 * e + 1] = upper.y + eyes[e].y + eyes[e].height / 2.0;
                }
                cv::Rect lower(f.x + f.width / 5, f.y + f.height * 3 / 5, f.width * 3 / 5, f.height * 2 / 5);
                lower &= cv::Rect(0, 0, gray.cols, gray.rows);
                std::vector<cv::Rect> mouths;
                if (!lower.empty())
                    cascade(folder + "/haarcascade_smile.xml")
                        .detectMultiScale(equalized(lower), mouths, 1.1, 10, 0, cv::Size(f.width / 5, f.width / 10));
                if (!mouths.empty()) {
                    auto m = *std::max_element(mouths.begin(), mouths.end(),
                                               [](const cv::Rect &a, const cv::Rect &b) { return a.area() < b.area(); });
                    face.mouth[0] = lower.x + m.x + m.width / 2.0;
                    face.mouth[1] = lower.y + m.y + m.height / 2.0;
                }
            }
            *count += 1;
        }
        return CFOCAL_OK;
    });
}

cfocal_status cfocal_detect_qr(const cfocal_image *image, cfocal_qr *out, int32_t capacity, int32_t *count) {
    return guarded("detect QR codes", [&] {
        validate(image, "detect QR codes");
        if (out == nullptr || count == nullptr) fail(CFOCAL_ERR_INVALID_ARGUMENT, "detect QR codes: missing argument");
        *count = 0;
        cv::Mat gray = gray_of(*image);
        // Locate with QRCodeDetector, read a crop around each code with the WeChat decoder (which,
        // without its optional CNN models, reports the whole image as the code's outline).
        // Locating costs time with the image's area (19 s for a blank 6000 x 6000 image), so it
        // runs on a working image of at most kLocateSide pixels; a code still spans 100 pixels or
        // more there in any photo where it is readable, and it is read at full resolution.
        const int kLocateSide = 2048;
        const double scale = std::min(1.0, double(kLocateSide) / std::max(gray.cols, gray.rows));
        cv::Mat working = gray;
        if (scale < 1.0) resize_by(gray, working, scale, cv::INTER_AREA);
        std::vector<std::string> messages;
        std::vector<cv::Point2f> corners;
        cv::QRCodeDetector locator;
        if (!locator.detectMulti(working, corners)) {
            corners.clear();
            std::vector<cv::Point2f> single;
            if (locator.detect(working, single) && single.size() == 4) corners = single;
        }
        // Pixel centres sit at integers: map (x + 0.5) / scale - 0.5.
        for (auto &corner : corners) corner = (corner + cv::Point2f(0.5f, 0.5f)) * float(1.0 / scale) - cv::Point2f(0.5f, 0.5f);
        thread_local cv::wechat_qrcode::WeChatQRCode reader;
        for (size_t i = 0; i + 3 < corners.size(); i += 4) {
            cv::Rect box = cv::boundingRect(std::vector<cv::Point2f>(corners.begin() + long(i), corners.begin() + long(i) + 4));
            int margin = std::max(box.width, box.height) / 5 + 8;
            box = cv::Rect(box.x - margin, box.y - margin, box.width + 2 * margin, box.height + 2 * margin) &
                  cv::Rect(0, 0, gray.cols, gray.rows);
            std::vector<std::string> read = box.empty() ? std::vector<std::string>{} : reader.detectAndDecode(gray(box));
            messages.push_back(read.empty() ? "" : read.front());
        }
        if (corners.empty()) {
            // Readable but not located: report the code with the image as its outline.
            std::vector<std::string> read = reader.detectAndDecode(working);
            if (!read.empty()) {
                float w = float(gray.cols - 1), h = float(gray.rows - 1);
                corners = {{0, 0}, {w, 0}, {w, h}, {0, h}};
                messages = {read.front()};
            }
        }
        for (size_t i = 0; i + 3 < corners.size() && *count < capacity; i += 4) {
            cfocal_qr &qr = out[*count];
            for (int k = 0; k < 4; ++k) {
                qr.x[k] = corners[i + k].x;
                qr.y[k] = corners[i + k].y;
            }
            const std::string message = i / 4 < messages.size() ? messages[i / 4] : "";
            std::snprintf(qr.message, sizeof qr.message, "%s", message.c_str());
            *count += 1;
        }
        return CFOCAL_OK;
    });
}

cfocal_status cfocal_encode_qr(const char *message, cfocal_buffer **out) {
    return guarded("encode QR code", [&] {
        if (message == nullptr || out == nullptr) fail(CFOCAL_ERR_INVALID_ARGUMENT, "encode QR code: missing argument");
        cv::Ptr<cv::QRCodeEncoder> encoder = cv::QRCodeEncoder::create();
        cv::Mat code;
        encoder->encode(message, code);
        if (code.empty()) fail(CFOCAL_ERR_INVALID_ARGUMENT, "encode QR code: the message does not fit a QR code");
        cv::Mat gray;
        if (code.type() != CV_8UC1) code.convertTo(gray, CV_8UC1);
        else gray = code;
        *out = buffer_from_mat(gray.clone(), CFOCAL_GRAY8);
        return CFOCAL_OK;
    });
}
}
