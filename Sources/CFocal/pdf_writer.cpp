// PDF documents of scanned pages through libHaru: each page one JPEG, embedded as it is (no
// re-encoding), on a page of the size the caller gives.
#include "internal.hpp"

#include <hpdf.h>

#include <cstdio>
#include <memory>
#include <ctime>
#include <string>

using namespace cfocal;

struct cfocal_pdf {
    HPDF_Doc doc = nullptr;
    // libHaru reports errors through a callback; the last one is kept here and turned into a
    // Failure by the entry point that made it.
    HPDF_STATUS error = HPDF_OK;
    HPDF_STATUS detail = 0;
};

namespace {

void on_error(HPDF_STATUS error, HPDF_STATUS detail, void *user) {
    auto *pdf = static_cast<cfocal_pdf *>(user);
    pdf->error = error;
    pdf->detail = detail;
}

void check(cfocal_pdf *pdf, HPDF_STATUS status, const char *what) {
    if (status == HPDF_OK && pdf->error == HPDF_OK) return;
    char code[64];
    std::snprintf(code, sizeof code, " (libHaru error 0x%04X, detail %u)", static_cast<unsigned>(pdf->error ? pdf->error : status),
                  static_cast<unsigned>(pdf->detail));
    pdf->error = HPDF_OK;
    HPDF_ResetError(pdf->doc);
    fail(CFOCAL_ERR_INTERNAL, std::string(what) + code);
}

}  // namespace

cfocal_status cfocal_pdf_create(const char *title, int64_t created_unix_seconds, cfocal_pdf **out) {
    return guarded("create a PDF", [&] {
        if (!out) fail(CFOCAL_ERR_INVALID_ARGUMENT, "create a PDF: no output");
        *out = nullptr;
        auto *pdf = new cfocal_pdf;
        pdf->doc = HPDF_New(on_error, pdf);
        if (!pdf->doc) {
            delete pdf;
            fail(CFOCAL_ERR_INTERNAL, "create a PDF: libHaru could not start a document");
        }
        try {
            // Image data is already JPEG; compression only shrinks the page content streams.
            check(pdf, HPDF_SetCompressionMode(pdf->doc, HPDF_COMP_ALL), "create a PDF");
            // Titles are UTF-8: libHaru writes them as UTF-16 text strings through this encoder.
            check(pdf, HPDF_UseUTFEncodings(pdf->doc), "create a PDF");
            check(pdf, HPDF_SetCurrentEncoder(pdf->doc, "UTF-8"), "create a PDF");
            if (title && *title) check(pdf, HPDF_SetInfoAttr(pdf->doc, HPDF_INFO_TITLE, title), "set the PDF's title");
            check(pdf, HPDF_SetInfoAttr(pdf->doc, HPDF_INFO_CREATOR, "Focal"), "set the PDF's creator");
            const std::time_t seconds = static_cast<std::time_t>(created_unix_seconds);
            std::tm utc{};
            gmtime_r(&seconds, &utc);
            HPDF_Date date{};
            date.year = utc.tm_year + 1900;
            date.month = utc.tm_mon + 1;
            date.day = utc.tm_mday;
            date.hour = utc.tm_hour;
            date.minutes = utc.tm_min;
            date.seconds = utc.tm_sec;
            date.ind = 'Z';
            check(pdf, HPDF_SetInfoDateAttr(pdf->doc, HPDF_INFO_CREATION_DATE, date), "set the PDF's creation date");
        } catch (...) {
            HPDF_Free(pdf->doc);
            delete pdf;
            throw;
        }
        *out = pdf;
        return CFOCAL_OK;
    });
}

void cfocal_pdf_free(cfocal_pdf *pdf) {
    if (!pdf) return;
    HPDF_Free(pdf->doc);
    delete pdf;
}

cfocal_status cfocal_pdf_add_jpeg_page(cfocal_pdf *pdf, const uint8_t *jpeg, size_t count, double width_points,
                                       double height_points) {
    return guarded("add a page to the PDF", [&] {
        if (!pdf || !jpeg || count == 0) fail(CFOCAL_ERR_INVALID_ARGUMENT, "add a page to the PDF: no image");
        // PDF viewers limit pages to 14,400 points (200 inches) a side.
        if (!(width_points >= 3 && width_points <= 14400 && height_points >= 3 && height_points <= 14400))
            fail(CFOCAL_ERR_INVALID_ARGUMENT, "add a page to the PDF: a page must be 3…14400 points a side");
        if (count > 0xFFFFFFFFu) fail(CFOCAL_ERR_INVALID_ARGUMENT, "add a page to the PDF: the image is too large");
        HPDF_Image image = HPDF_LoadJpegImageFromMem(pdf->doc, jpeg, static_cast<HPDF_UINT>(count));
        if (!image || pdf->error != HPDF_OK) {
            // Whatever libHaru tripped on (often the end of a truncated stream), the bytes are not
            // a JPEG it can embed.
            char code[32];
            std::snprintf(code, sizeof code, " (libHaru error 0x%04X)", static_cast<unsigned>(pdf->error));
            pdf->error = HPDF_OK;
            HPDF_ResetError(pdf->doc);
            fail(CFOCAL_ERR_DECODE, std::string("the page's image is not a JPEG that can be embedded") + code);
        }
        HPDF_Page page = HPDF_AddPage(pdf->doc);
        if (!page) check(pdf, HPDF_FAILD_TO_ALLOC_MEM, "add a page to the PDF");
        check(pdf, HPDF_Page_SetWidth(page, static_cast<HPDF_REAL>(width_points)), "size the PDF page");
        check(pdf, HPDF_Page_SetHeight(page, static_cast<HPDF_REAL>(height_points)), "size the PDF page");
        check(pdf,
              HPDF_Page_DrawImage(page, image, 0, 0, static_cast<HPDF_REAL>(width_points),
                                  static_cast<HPDF_REAL>(height_points)),
              "draw the page's image");
        return CFOCAL_OK;
    });
}

cfocal_status cfocal_pdf_save(cfocal_pdf *pdf, cfocal_bytes **out) {
    return guarded("write the PDF", [&] {
        if (!pdf || !out) fail(CFOCAL_ERR_INVALID_ARGUMENT, "write the PDF: no document");
        *out = nullptr;
        check(pdf, HPDF_SaveToStream(pdf->doc), "write the PDF");
        const HPDF_UINT32 size = HPDF_GetStreamSize(pdf->doc);
        auto bytes = std::make_unique<cfocal_bytes>();
        bytes->data.resize(size);
        HPDF_UINT32 read = size;
        HPDF_STATUS status = HPDF_ReadFromStream(pdf->doc, bytes->data.data(), &read);
        // Reading the whole stream in one go ends at its end, which libHaru reports as an error.
        if (status == HPDF_STREAM_EOF || pdf->error == HPDF_STREAM_EOF) {
            status = HPDF_OK;
            pdf->error = HPDF_OK;
            HPDF_ResetError(pdf->doc);
        }
        check(pdf, status, "write the PDF");
        if (read != size) fail(CFOCAL_ERR_INTERNAL, "write the PDF: the stream was shorter than its size");
        *out = bytes.release();
        return CFOCAL_OK;
    });
}
