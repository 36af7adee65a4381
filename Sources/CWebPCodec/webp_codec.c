// WebP decode on libwebp, into memory allocated here once the header's size has been checked.
// libwebp premultiplies alpha itself (MODE_bgrA), as Cairo wants. Encoding takes opaque frames
// through libwebp's advanced API, which can be told to ignore alpha (BGRX).
#include "webp_codec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <webp/decode.h>
#include <webp/encode.h>

static void copy_message(char *error, size_t error_size, const char *message) {
    if (error_size == 0) return;
    snprintf(error, error_size, "%s", message);
}

static const char *status_text(VP8StatusCode status) {
    switch (status) {
    case VP8_STATUS_OK: return "no error";
    case VP8_STATUS_OUT_OF_MEMORY: return "out of memory";
    case VP8_STATUS_INVALID_PARAM: return "invalid parameter";
    case VP8_STATUS_BITSTREAM_ERROR: return "the WebP bitstream is broken";
    case VP8_STATUS_UNSUPPORTED_FEATURE: return "the WebP uses a feature libwebp does not support";
    case VP8_STATUS_SUSPENDED: return "decoding was suspended";
    case VP8_STATUS_USER_ABORT: return "decoding was aborted";
    case VP8_STATUS_NOT_ENOUGH_DATA: return "the WebP is truncated";
    }
    return "unknown libwebp error";
}

int mf_webp_decode(const uint8_t *data, size_t length, int max_side,
                   uint8_t **pixels, int *width, int *height, int *opaque,
                   char *error, size_t error_size) {
    *pixels = NULL;
    *opaque = 0;
    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) {
        copy_message(error, error_size, "libwebp is not the version MapFrame was built with");
        return -1;
    }
    VP8StatusCode status = WebPGetFeatures(data, length, &config.input);
    if (status != VP8_STATUS_OK) {
        copy_message(error, error_size, status_text(status));
        return -1;
    }
    if (config.input.has_animation) {
        copy_message(error, error_size, "an animated WebP; only still images are decoded");
        return -1;
    }
    int image_width = config.input.width, image_height = config.input.height;
    if (image_width < 1 || image_height < 1 || image_width > max_side || image_height > max_side) {
        if (error_size > 0) {
            snprintf(error, error_size, "the WebP is %dx%d pixels; at most %dx%d are decoded",
                     image_width, image_height, max_side, max_side);
        }
        return -1;
    }
    size_t stride = (size_t)image_width * 4;
    size_t size = stride * (size_t)image_height;
    uint8_t *buffer = malloc(size);
    if (buffer == NULL) {
        copy_message(error, error_size, "out of memory");
        return -1;
    }
    // Premultiplied BGRA bytes are Cairo's ARGB32 on little-endian machines.
    config.output.colorspace = MODE_bgrA;
    config.output.is_external_memory = 1;
    config.output.u.RGBA.rgba = buffer;
    config.output.u.RGBA.stride = (int)stride;
    config.output.u.RGBA.size = size;
    status = WebPDecode(data, length, &config);
    WebPFreeDecBuffer(&config.output);
    if (status != VP8_STATUS_OK) {
        copy_message(error, error_size, status_text(status));
        free(buffer);
        return -1;
    }
    *pixels = buffer;
    *width = image_width;
    *height = image_height;
    *opaque = !config.input.has_alpha;
    return 0;
}

static const char *encoding_error_text(WebPEncodingError error) {
    switch (error) {
    case VP8_ENC_ERROR_OUT_OF_MEMORY:
    case VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: return "out of memory";
    case VP8_ENC_ERROR_BAD_DIMENSION: return "the image is too large for WebP (at most 16383 pixels a side)";
    default: return "libwebp could not encode the image";
    }
}

int mf_webp_encode(const uint8_t *pixels, int width, int height, int stride, int quality,
                   uint8_t **webp, size_t *webp_length,
                   char *error, size_t error_size) {
    *webp = NULL;
    *webp_length = 0;
    WebPConfig config;
    WebPPicture picture;
    if (!WebPConfigPreset(&config, WEBP_PRESET_DEFAULT, (float)quality) || !WebPPictureInit(&picture)) {
        copy_message(error, error_size, "libwebp is not the version MapFrame was built with");
        return -1;
    }
    picture.width = width;
    picture.height = height;
    WebPMemoryWriter writer;
    WebPMemoryWriterInit(&writer);
    picture.writer = WebPMemoryWrite;
    picture.custom_ptr = &writer;
    // BGRX bytes are Cairo's little-endian ARGB32 words with alpha ignored.
    if (!WebPPictureImportBGRX(&picture, pixels, stride)) {
        copy_message(error, error_size, encoding_error_text(picture.error_code));
        WebPPictureFree(&picture);
        WebPMemoryWriterClear(&writer);
        return -1;
    }
    int encoded = WebPEncode(&config, &picture);
    WebPEncodingError encoding_error = picture.error_code;
    WebPPictureFree(&picture);
    if (!encoded) {
        copy_message(error, error_size, encoding_error_text(encoding_error));
        WebPMemoryWriterClear(&writer);
        return -1;
    }
    // Handed over in memory of malloc's, as every encoder here hands over its bytes.
    uint8_t *copy = malloc(writer.size);
    if (copy == NULL) {
        copy_message(error, error_size, "out of memory");
        WebPMemoryWriterClear(&writer);
        return -1;
    }
    memcpy(copy, writer.mem, writer.size);
    *webp = copy;
    *webp_length = writer.size;
    WebPMemoryWriterClear(&writer);
    return 0;
}
