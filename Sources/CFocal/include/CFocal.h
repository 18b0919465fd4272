/*
 * CFocal: the C face of Focal's OpenCV and libav code.
 *
 * Plain C on purpose: Swift imports it without C++ interop, and no C++ exception can cross it.
 * Every entry point catches everything, returns a cfocal_status, and leaves a message for
 * cfocal_last_error() on the calling thread.
 *
 * Pixels: callers pass cfocal_image views (pointer, size, stride, format) that the shim wraps
 * without copying. Anything the shim allocates comes back as an opaque handle with a matching
 * *_free function.
 */
#ifndef CFOCAL_H
#define CFOCAL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- status and errors ------------------------------------------------------------------ */

typedef enum {
    CFOCAL_OK = 0,
    CFOCAL_END_OF_STREAM = 1,      /* not an error: a reader has no more frames */
    CFOCAL_ERR_INVALID_ARGUMENT = 2,
    CFOCAL_ERR_DECODE = 3,         /* bytes are not a readable image or video */
    CFOCAL_ERR_EMPTY = 4,          /* the input decodes to nothing (no pixels, no video stream) */
    CFOCAL_ERR_UNSUPPORTED = 5,    /* a format, codec or container this build cannot handle */
    CFOCAL_ERR_IO = 6,             /* the operating system refused a read or write */
    CFOCAL_ERR_NOT_FOUND = 7,
    CFOCAL_ERR_OPENCV = 8,         /* cv::Exception; the message names OpenCV's function */
    CFOCAL_ERR_INTERNAL = 9,       /* std::exception or worse */
    CFOCAL_ERR_UNSUPPORTED_CODEC = 10, /* no encoder of that name, or the container cannot hold its video */
} cfocal_status;

/* The message of the last failed call on this thread ("" if none). Valid until the next call. */
const char *cfocal_last_error(void);

/* Threads OpenCV may use inside one call (0: its default, one per core). Benchmarks set 1. */
void cfocal_set_threads(int32_t threads);

/* Has the C library keep freed blocks up to heap_block_limit bytes in its heap, and up to
   trim_limit bytes of freed memory before returning any to the system (glibc's M_MMAP_THRESHOLD
   and M_TRIM_THRESHOLD). Returns 1 where it was applied, 0 where the C library is not glibc or
   refused a value. */
int32_t cfocal_keep_freed_memory(int64_t heap_block_limit, int64_t trim_limit);

/* ---- images ----------------------------------------------------------------------------- */

typedef enum {
    CFOCAL_GRAY8 = 0,
    CFOCAL_BGR8 = 1,
    CFOCAL_BGRA8 = 2,
    CFOCAL_YUV420P = 3, /* I420: full-size Y plane, then quarter-size U and V planes */
} cfocal_pixel_format;

/* A view of pixels owned by the caller. Planes beyond the format's count are ignored. */
typedef struct {
    int32_t width;
    int32_t height;
    int32_t format; /* cfocal_pixel_format */
    uint8_t *planes[3];
    size_t row_bytes[3];
} cfocal_image;

/* Pixels the shim allocated (a decoded image, a video frame). Read them through cfocal_buffer_view. */
typedef struct cfocal_buffer cfocal_buffer;
void cfocal_buffer_free(cfocal_buffer *buffer);
cfocal_image cfocal_buffer_view(const cfocal_buffer *buffer);

/* The most pixels any image this process decodes may have, checked by OpenCV after it has read
   the image's header and before it allocates (OPENCV_IO_MAX_IMAGE_PIXELS, default 2^30). OpenCV
   reads the limit once, when its image codecs load: CFOCAL_OK when set before that,
   CFOCAL_ERR_UNSUPPORTED once they have loaded (the limit they loaded with stays). */
cfocal_status cfocal_image_limit_decoded_pixels(uint64_t pixels);

/* Decodes JPEG, PNG, TIFF, WebP, BMP… from memory. apply_orientation follows EXIF orientation. */
cfocal_status cfocal_image_decode(const uint8_t *bytes, size_t count, int32_t apply_orientation,
                                  cfocal_buffer **out);

/* Encodes to the format named by extension (".jpg", ".png", ".tiff", ".webp", ".bmp").
 * quality: 0…100 for JPEG and WebP, ignored otherwise. The bytes come back in a cfocal_bytes. */
typedef struct cfocal_bytes cfocal_bytes;
void cfocal_bytes_free(cfocal_bytes *bytes);
const uint8_t *cfocal_bytes_data(const cfocal_bytes *bytes);
size_t cfocal_bytes_count(const cfocal_bytes *bytes);
cfocal_status cfocal_image_encode(const cfocal_image *image, const char *extension, int32_t quality,
                                  cfocal_bytes **out);
/* Whether this build can write the format named by extension. */
int32_t cfocal_image_can_encode(const char *extension);

/* Converts between any two formats; dst must be preallocated with the right size. */
cfocal_status cfocal_image_convert(const cfocal_image *src, const cfocal_image *dst);

/* Resizes src into dst (same format, any size). interpolation: 0 nearest, 1 linear, 2 area, 3 cubic. */
cfocal_status cfocal_image_resize(const cfocal_image *src, const cfocal_image *dst, int32_t interpolation);

/* Applies EXIF orientation 1…8 (rotation and mirroring); dst has the oriented size. */
cfocal_status cfocal_image_orient(const cfocal_image *src, int32_t exif_orientation, const cfocal_image *dst);

/* ---- video ------------------------------------------------------------------------------ */
/* Video goes through libav directly: OpenCV 4.6's writer is fixed to x264's slowest useful
 * preset, and both its reader and writer force BGR, costing two colour conversions a frame. */

typedef struct cfocal_video_reader cfocal_video_reader;

typedef struct {
    int32_t width;
    int32_t height;
    double frames_per_second;
    int64_t frame_count;      /* from the container; estimated from duration; -1 if unknown */
    double duration_seconds;  /* -1 if unknown */
    char codec_name[32];
} cfocal_video_info;

/* threads: decoder threads, 0 for one per core. */
cfocal_status cfocal_video_reader_open(const char *path, int32_t threads, cfocal_video_reader **out);
/* Opens a video held in memory (the bytes are copied), for input from elsewhere such as an upload.
 * Only the demuxers named in containers (a comma-separated list of libav names, such as
 * "mov,matroska,avi") read it, and it can open no other file or URL: no playlists, concat lists or
 * references. name stands for the path in messages. max_pixels (0: no limit) bounds every decoder,
 * probing included. Anything wrong with the bytes is CFOCAL_ERR_DECODE, or CFOCAL_ERR_UNSUPPORTED
 * for a container outside the list or a codec without a decoder. */
cfocal_status cfocal_video_reader_open_memory(const uint8_t *bytes, size_t count, const char *name,
                                              const char *containers, int64_t max_pixels, int32_t threads,
                                              cfocal_video_reader **out);
void cfocal_video_reader_free(cfocal_video_reader *reader);
cfocal_video_info cfocal_video_reader_info(const cfocal_video_reader *reader);
/* Decodes the next frame in the given format (YUV420P is the decoder's own for most video and costs
 * no conversion). Returns CFOCAL_END_OF_STREAM after the last frame. */
cfocal_status cfocal_video_reader_next(cfocal_video_reader *reader, int32_t format, cfocal_buffer **out,
                                       double *timestamp_seconds);

typedef struct cfocal_video_writer cfocal_video_writer;

typedef struct {
    int32_t width;
    int32_t height;
    double frames_per_second;
    const char *encoder;  /* libav encoder name: "libx264", "mpeg4", "mjpeg", "ffv1", "libvpx"… */
    const char *preset;   /* x264/x265 speed preset, or NULL */
    int32_t crf;          /* constant rate factor, or -1 for the encoder's default */
    int32_t bit_rate;     /* bits per second for encoders without CRF, or 0 */
    int32_t threads;      /* encoder threads, 0 for one per core */
    int32_t lookahead;    /* frames x264's rate control looks ahead (rc-lookahead), or -1 for the preset's */
    int32_t b_frames;     /* most consecutive B-frames, or -1 for the preset's */
    int32_t lookahead_thread; /* 0: x264 runs its lookahead on the encoding threads (sync-lookahead=0); else the preset's */
} cfocal_video_writer_config;

/* Writes into temporary_path, in the container named by final_path's extension. finish renames
 * the temporary file to final_path only after the trailer is written; free without finish removes it. */
cfocal_status cfocal_video_writer_open(const char *final_path, const char *temporary_path,
                                       const cfocal_video_writer_config *config, cfocal_video_writer **out);
/* Encodes one frame. With release NULL, frame's planes are read during the call only. Otherwise
 * the writer may pass the planes to the encoder without copying them, and calls release(context)
 * exactly once when nothing needs them any more: before returning (also on failure), or later
 * for encoders that hold frames back. */
cfocal_status cfocal_video_writer_append(cfocal_video_writer *writer, const cfocal_image *frame,
                                         void (*release)(void *context), void *context);
cfocal_status cfocal_video_writer_finish(cfocal_video_writer *writer);
void cfocal_video_writer_free(cfocal_video_writer *writer);
/* Whether this build has the encoder, and the container accepts its codec. */
int32_t cfocal_video_encoder_available(const char *encoder, const char *final_path);

/* ---- drawing ---------------------------------------------------------------------------- */
/* In C++ because OpenCV's anti-aliased rasteriser and Hershey fonts are already there. */

typedef struct {
    double b, g, r, a; /* 0…255; a is opacity */
} cfocal_color;

/* Sets every pixel to colour (opacity ignored). */
cfocal_status cfocal_fill(const cfocal_image *image, cfocal_color color);
/* Draws a closed or open polyline; thickness < 0 fills the polygon. Blends with colour.a. */
cfocal_status cfocal_draw_polygon(const cfocal_image *image, const double *xy, int32_t point_count,
                                  int32_t closed, cfocal_color color, double thickness);
cfocal_status cfocal_draw_circle(const cfocal_image *image, double x, double y, double radius,
                                 cfocal_color color, double thickness);
/* Text with its baseline's left end at (x, y); height_pixels sets the cap height. */
cfocal_status cfocal_draw_text(const cfocal_image *image, const char *text, double x, double y,
                               double height_pixels, cfocal_color color, double thickness);
/* Width and height in pixels that cfocal_draw_text would cover. */
cfocal_status cfocal_measure_text(const char *text, double height_pixels, double thickness, double *width,
                                  double *height, double *baseline);

/* ---- filters and geometry --------------------------------------------------------------- */

cfocal_status cfocal_gaussian_blur(const cfocal_image *src, const cfocal_image *dst, double sigma);
/* Linear motion blur of the given length (pixels) and angle (degrees). */
cfocal_status cfocal_motion_blur(const cfocal_image *src, const cfocal_image *dst, double length,
                                 double angle_degrees);
/* Adds Gaussian noise with the given standard deviation, reproducibly from seed. In place. */
cfocal_status cfocal_add_noise(const cfocal_image *image, double sigma, uint64_t seed);
/* Document enhancement in place: contrast-limited adaptive histogram equalisation of the luma
 * (evens out shadows and uneven light), then a light unsharp mask. Colour planes are kept. */
cfocal_status cfocal_enhance_document(const cfocal_image *image);
/* Scan enhancement (for flat scans, not video frames): the paper's illumination is estimated and
 * divided out. COLOR writes bgr8 (paper white, colour cast gone, ink kept), GRAY gray8 the same,
 * BLACK_AND_WHITE gray8 of 0 (ink) and 255 (paper), thresholded against the paper's own noise so
 * that faint strokes survive. src is gray8, bgr8 or bgra8; dst has its size. */
enum { CFOCAL_ENHANCE_COLOR = 1, CFOCAL_ENHANCE_GRAY = 2, CFOCAL_ENHANCE_BLACK_AND_WHITE = 3 };
cfocal_status cfocal_enhance_scan(const cfocal_image *src, int32_t mode, const cfocal_image *dst);
/* A PDF of scanned pages (libHaru): each page is one JPEG, embedded as it is, drawn over the
 * whole page. title is UTF-8 (may be empty); the creation date is given in Unix seconds, written
 * as UTC. Bytes that are not a JPEG libHaru reads are CFOCAL_ERR_DECODE. */
typedef struct cfocal_pdf cfocal_pdf;
cfocal_status cfocal_pdf_create(const char *title, int64_t created_unix_seconds, cfocal_pdf **out);
void cfocal_pdf_free(cfocal_pdf *pdf);
cfocal_status cfocal_pdf_add_jpeg_page(cfocal_pdf *pdf, const uint8_t *jpeg, size_t count, double width_points,
                                       double height_points);
cfocal_status cfocal_pdf_save(cfocal_pdf *pdf, cfocal_bytes **out);
/* Pixellation in place: blocks of block × block pixels take their mean colour. */
cfocal_status cfocal_pixellate(const cfocal_image *image, int32_t block);
/* Warps src by the 3×3 row-major homography h (src → dst coordinates) and composites it into dst:
 * pixels outside src's footprint keep dst's content. Both images must share a format. */
cfocal_status cfocal_warp_perspective(const cfocal_image *src, const double h[9], const cfocal_image *dst,
                                      int32_t interpolation);
/* The homography taking the four src points onto the four dst points (x, y pairs). */
cfocal_status cfocal_homography_from_quads(const double src[8], const double dst[8], double h_out[9]);

/* ---- sharpness -------------------------------------------------------------------------- */

/* Mean and variance of the 3×3 Laplacian [-1 -1 -1; -1 8 -1; -1 -1 -1] over the interior of a
 * gray8 image (or the Y plane of YUV420P), in one pass with vector instructions. */
cfocal_status cfocal_laplacian_variance(const cfocal_image *gray, double *mean, double *variance);
/* The same figures by OpenCV's idiom (filter2D to CV_64F, then meanStdDev): the reference the
 * benchmarks and tests hold the fast version to. */
cfocal_status cfocal_laplacian_variance_reference(const cfocal_image *gray, double *mean, double *variance);
/* |Laplacian| of a gray image, clipped to 0…255 and lifted by a gamma curve (out = 255 (v/255)^gamma),
 * as Apple's sharpest-image sample shows it. dst: gray8 of the same size. */
cfocal_status cfocal_laplacian_image(const cfocal_image *gray, const cfocal_image *dst, double gamma);
/* Maps the quad (TL, TR, BR, BL; x, y pairs) of src onto the whole of dst (any size, same format):
 * the perspective-corrected view of a document. */
cfocal_status cfocal_rectify_quad(const cfocal_image *src, const double quad[8], const cfocal_image *dst);

/* ---- quadrilaterals (documents, rectangles) --------------------------------------------- */
/* In C++ because every stage is an OpenCV primitive (Canny, contours, Sobel, line fitting). */

/* The learned page detector (Sources/Focal/Models/page-detector.onnx). Not thread-safe: one caller at a time per
 * model, and one input size per model (the input's shorter side; the model holds a network for each
 * shape it is given, as OpenCV 4.6 fixes a network's layers' sizes at its first run). */
typedef struct cfocal_page_model cfocal_page_model;
cfocal_status cfocal_page_model_open(const char *path, cfocal_page_model **out);
void cfocal_page_model_free(cfocal_page_model *model);
/* The size of the maps cfocal_page_model_maps gives for an image of width × height seen in view
 * (a cfocal_page_view) at input_size (a multiple of 32). */
cfocal_status cfocal_page_model_map_size(int32_t width, int32_t height, int32_t input_size, int32_t view,
                                         int32_t *map_width, int32_t *map_height);
/* The network's maps for the image as the detector sees it in view, at input_size (a multiple of
 * 32): page probability (the whole page, also where something hides it) and the probability of a
 * page's outline. Either output may be NULL; each holds map_width × map_height floats
 * (cfocal_page_model_map_size), row by row. */
cfocal_status cfocal_page_model_maps(cfocal_page_model *model, const cfocal_image *image, int32_t input_size,
                                     int32_t view, float *page, float *outline);

/* How the page network sees an image. */
typedef enum {
    CFOCAL_PAGE_VIEW_SQUEEZED = 0,     /* once, the image squeezed to input_size × input_size */
    CFOCAL_PAGE_VIEW_PROPORTIONAL = 1, /* once, at about its own proportions (4:3 or 16:9), input_size
                                          along its shorter side */
    /* 2 was TILED (squares along the image, and squeezed), for the network before 0.4.0 */
} cfocal_page_view;

/* When quads on the straight stretches of the page network's outline map are candidates too. */
typedef enum {
    CFOCAL_OUTLINE_LINES_NEVER = 0,
    CFOCAL_OUTLINE_LINES_ALWAYS = 1,
    CFOCAL_OUTLINE_LINES_WHERE_UNDRAWN = 2, /* only where the page region's likeliest quad is not outlined
                                               all round (most frames with a page skip the cost) */
} cfocal_outline_lines;

typedef struct {
    int32_t working_size;            /* long side of the image candidates are found on, pixels */
    int32_t max_results;
    double min_size;                 /* shorter quad side, as a fraction of the shorter image side */
    double min_aspect_ratio;         /* shorter side / longer side */
    double max_aspect_ratio;
    double quadrature_tolerance;     /* largest deviation of an interior angle from 90°, degrees */
    double min_confidence;           /* 0…1 */
    double min_interior_brightness;  /* interior median over the frame's brightest 2 %, 0…1; 0 = any */
    double max_interior_saturation;  /* interior median HSV saturation, 0…1, for colour frames; 1 = any */
    int32_t refine;                  /* fit each side at full resolution for sub-pixel corners */
    const struct cfocal_quad *priors; /* quads seen in the previous frame, tried as candidates too */
    int32_t prior_count;
    int32_t priors_only;             /* verify and refine the priors only: no search for new quads */
    cfocal_page_model *page_model;   /* documents from the page network (NULL: edges and outlines only) */
    int32_t page_model_input;        /* its input size, a multiple of 32 */
    int32_t page_model_view;         /* how it sees the image: a cfocal_page_view */
    cfocal_page_model *second_look_model; /* where nothing is found, or only a quad the network agrees with
                                             weakly, and the first look drew something page-like: a second
                                             look, this model's maps at second_look_input added to the
                                             first (NULL: none) */
    int32_t second_look_input;
    int32_t page_outline_lines;      /* a cfocal_outline_lines: quads on the straight stretches of its outline
                                        map too (about 1 ms; mends regions that leak into a pale desk or a
                                        shadow, or stop at a cable) */
    int32_t straight_edge_count;     /* straight edges tried for quads when nothing else convinced */
    int32_t cut_sheets_on_clear_edges; /* also cut off a strip of sheet below a page where the image's edges
                                          show the page's side clearly and the network's maps only faintly
                                          (searches the image's lines on more frames: about 0.7 ms on some) */
    int32_t image_lines_where_unedged; /* also quads joined from the image's own straight edges where the
                                          network's likeliest quad does not lie on edges all round (an object
                                          standing on the page: a few ms on such frames) */
    cfocal_page_model *empty_frame_look_model; /* where the first look found nothing at all and the second
                                                  nothing covering most of the frame: this model's maps at
                                                  empty_frame_look_input, in place of the second look's (NULL:
                                                  no such look) */
    int32_t empty_frame_look_input;
    int32_t lenient_on_unprinted_sheets; /* where a sheet holds no print, an inner quad that an object
                                            standing beside it runs the quad round on past may rank lower
                                            (ObjectsBeside in quads.cpp) */
    int32_t frame_over_doubted_quads;    /* report the whole frame in place of the quad kept where the
                                            network agrees with the frame clearly more (a page scanned to
                                            fill the image, of which the quad is a part; FrameItself in
                                            quads.cpp). Where nothing is kept, the frame is weighed anyway */
    cfocal_page_model *finer_view_model; /* the network's view of the image at finer_view_input, blended
                                            into the first look's maps before any candidate is found
                                            (FinerView in quads.cpp: a second pass on every search; NULL:
                                            the first look alone) */
    int32_t finer_view_input;
    int32_t recount_picture_pages; /* count again, on a finer grid, the paper of a network quad too little
                                      paper to be a page (a page mostly photograph with thin margins;
                                      PictureOnPaper in quads.cpp) */
    int32_t run_on_from_fitted_corners; /* ask whether a page laid on a stack has sides that run on beyond
                                           its corners from its quad fitted to the image's edges, not from
                                           the network's coarser quad (PageLaidWithin in quads.cpp) */
    int32_t finer_view_spares_filled_frames; /* no finer view where the first look paints most of the frame
                                                page (a page scanned to fill the image; FinerViewGate in
                                                quads.cpp) */
} cfocal_quad_options;

typedef struct cfocal_quad {
    double x[4]; /* corners clockwise on screen from the top-left: TL, TR, BR, BL */
    double y[4];
    double confidence;
} cfocal_quad;

/* Finds up to min(capacity, options->max_results) quadrilaterals, best first. */
cfocal_status cfocal_detect_quads(const cfocal_image *image, const cfocal_quad_options *options, cfocal_quad *out,
                                  int32_t capacity, int32_t *count);

/* The textbook recipe (resize, blur, Canny, findContours, approxPolyDP, largest 4-gon), kept as
 * the benchmarks' and evaluations' baseline. Returns 0 or 1 quad. */
cfocal_status cfocal_detect_quads_textbook(const cfocal_image *image, cfocal_quad *out, int32_t *count);

/* ---- text -------------------------------------------------------------------------------- */

/* A text box: a line, a word in a line, or a character in a word. Corners TL, TR, BR, BL in
 * reading order (TL→TR runs along the text), so a slanted line keeps its slant. */
typedef struct {
    double x[4];
    double y[4];
    double confidence;
    int32_t level;  /* 0 line, 1 word, 2 character */
    int32_t parent; /* index of the enclosing line or word in the same array; -1 for a line */
} cfocal_text_box;

typedef struct {
    double min_contrast;  /* gray levels a stroke must stand out from the paper around it */
    double max_word_gap;  /* gaps closed within a word, in character heights */
    double max_line_gap;  /* gaps bridged within a line, in character heights */
    int32_t max_lines;
    int32_t find_turned;  /* also search the image turned so its text runs level (for frames, not flattened pages) */
} cfocal_text_options;

/* Dark text on light ground without a model: black-hat strokes, words by closing, words chained
 * into lines along a shared band. Text must run roughly level unless find_turned is set. Lines come first in out, then
 * words, then characters; when out is full the lines are kept first. */
cfocal_status cfocal_detect_text(const cfocal_image *image, const cfocal_text_options *options,
                                 cfocal_text_box *out, int32_t capacity, int32_t *count);

/* A Differentiable Binarization network (PP-OCRv4's detector, converted for OpenCV 4.6). Not
 * thread-safe: one caller at a time per model. */
typedef struct cfocal_text_model cfocal_text_model;
cfocal_status cfocal_text_model_open(const char *path, cfocal_text_model **out);
void cfocal_text_model_free(cfocal_text_model *model);
/* Lines (level 0) found by the network with the image scaled to input_size on its long side
 * (aspect ratio kept) and padded to a square of input_size (rounded down to a multiple of 32). Regions of the probability map above
 * binary_threshold whose mean reaches polygon_threshold are grown by DB's unclip ratio; runs on
 * one band less than max_line_gap heights apart are joined into one line. Each line is then cut to
 * its ink (with a margin of a seventh of the ink's height) and split where the ink leaves a gap
 * wider than max_segment_gap ink heights (0: not split). */
cfocal_status cfocal_text_model_detect(cfocal_text_model *model, const cfocal_image *image, int32_t input_size,
                                       double binary_threshold, double polygon_threshold, double unclip_ratio,
                                       double max_line_gap, double max_segment_gap, cfocal_text_box *out,
                                       int32_t capacity, int32_t *count);

/* ---- cameras (V4L2 through libv4l2) ------------------------------------------------------ */
/* A thin ioctl layer: open, list formats, negotiate one, stream memory-mapped buffers. libv4l2
 * converts formats the camera has but applications rarely read (Bayer, vendor YUV) into ones it
 * lists too. On a failure the system's errno is left for cfocal_last_os_error(). */

typedef struct cfocal_camera cfocal_camera;

typedef struct {
    uint32_t fourcc;        /* V4L2 pixel format, e.g. 'YUYV', 'MJPG', 'NV12' */
    int32_t width;
    int32_t height;
    int32_t bytes_per_line; /* 0 where it does not apply (compressed formats), and in listings */
    int32_t emulated;       /* converted by libv4l2, not native to the camera */
} cfocal_camera_format;

typedef struct {
    const uint8_t *data;    /* valid until cfocal_camera_release(index) */
    size_t count;           /* bytes used */
    int32_t index;
    int64_t sequence;
    double timestamp;       /* seconds, the driver's clock */
} cfocal_camera_buffer;

int32_t cfocal_last_os_error(void);

cfocal_status cfocal_camera_open(const char *path, cfocal_camera **out);
void cfocal_camera_close(cfocal_camera *camera);
/* The driver's name for the device (VIDIOC_QUERYCAP card), NUL-terminated into out. */
cfocal_status cfocal_camera_name(cfocal_camera *camera, char *out, int32_t capacity);
/* Each pixel format with each discrete frame size (stepwise ranges give their largest size). */
cfocal_status cfocal_camera_formats(cfocal_camera *camera, cfocal_camera_format *out, int32_t capacity,
                                    int32_t *count);
/* Asks for a format and size; the driver answers with what it will deliver. */
cfocal_status cfocal_camera_set_format(cfocal_camera *camera, const cfocal_camera_format *wanted,
                                       cfocal_camera_format *negotiated);
cfocal_status cfocal_camera_start(cfocal_camera *camera, int32_t buffer_count);
/* Waits up to timeout_ms for a filled buffer. CFOCAL_END_OF_STREAM on timeout. */
cfocal_status cfocal_camera_next(cfocal_camera *camera, int32_t timeout_ms, cfocal_camera_buffer *out);
cfocal_status cfocal_camera_release(cfocal_camera *camera, int32_t index);
cfocal_status cfocal_camera_stop(cfocal_camera *camera);
/* Exposure: manual mode and an absolute value (100 µs units), if the camera has them. */
cfocal_status cfocal_camera_exposure_range(cfocal_camera *camera, int32_t *minimum, int32_t *maximum,
                                           int32_t *supported);
cfocal_status cfocal_camera_set_exposure(cfocal_camera *camera, int32_t value);

/* Converts one camera buffer (YUYV, UYVY, NV12, YU12, GREY, MJPG/JPEG, BGR3, RGB3) into dst, which
 * must be a bgr8 image of the buffer's size. bytes_per_line 0 means tightly packed. */
cfocal_status cfocal_camera_convert(const uint8_t *bytes, size_t count, uint32_t fourcc, int32_t width,
                                    int32_t height, int32_t bytes_per_line, const cfocal_image *dst);

/* ---- objects: faces and QR codes -------------------------------------------------------- */

typedef struct {
    double x, y, width, height;          /* face box */
    double eyes[4];                      /* left eye x, y, right eye x, y (image left/right); NAN if not found */
    double mouth[2];                     /* NAN if not found */
    double confidence;
} cfocal_face;

/* cascade_folder: where haarcascade_frontalface_default.xml, haarcascade_eye.xml and
 * haarcascade_smile.xml are. min_size: smallest face side in pixels. */
cfocal_status cfocal_detect_faces(const cfocal_image *image, const char *cascade_folder, double min_size,
                                  int32_t find_landmarks, cfocal_face *out, int32_t capacity, int32_t *count);

typedef struct {
    double x[4];
    double y[4];
    char message[1024]; /* UTF-8, NUL-terminated; empty if the code was found but not decoded */
} cfocal_qr;

cfocal_status cfocal_detect_qr(const cfocal_image *image, cfocal_qr *out, int32_t capacity, int32_t *count);
/* Renders message as a QR code, one module per pixel with a 4-module quiet zone (gray8, in a buffer). */
cfocal_status cfocal_encode_qr(const char *message, cfocal_buffer **out);

#ifdef __cplusplus
}
#endif

#endif /* CFOCAL_H */
