// JPEG decode and encode on libjpeg-turbo's TurboJPEG API. TurboJPEG keeps libjpeg's longjmp error handling
// inside itself and reports by return value; this file keeps the size check between reading the
// header and allocating the pixels next to the library calls, as the PNG and WebP codecs do.
#define _GNU_SOURCE  // strcasestr
#include "jpeg_codec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>

static void copy_message(char *error, size_t error_size, const char *message) {
    if (error_size == 0) return;
    snprintf(error, error_size, "%s", message ? message : "unknown libjpeg-turbo error");
}

// Whether the decoder's last report is a warning other than the end of the data coming early.
static int is_harmless_warning(tjhandle decoder) {
    const char *message = tjGetErrorStr2(decoder);
    return tjGetErrorCode(decoder) == TJERR_WARNING && message != NULL && strcasestr(message, "premature end") == NULL;
}

int mf_jpeg_decode(const uint8_t *data, size_t length, int max_side,
                   uint8_t **pixels, int *width, int *height, int *opaque,
                   char *error, size_t error_size) {
    *pixels = NULL;
    *opaque = 0;
    tjhandle decoder = tjInitDecompress();
    if (decoder == NULL) {
        copy_message(error, error_size, tjGetErrorStr2(NULL));
        return -1;
    }
    int image_width = 0, image_height = 0, subsampling = 0, colourspace = 0;
    if (tjDecompressHeader3(decoder, data, (unsigned long)length, &image_width, &image_height, &subsampling, &colourspace) != 0) {
        copy_message(error, error_size, tjGetErrorStr2(decoder));
        tjDestroy(decoder);
        return -1;
    }
    if (image_width < 1 || image_height < 1 || image_width > max_side || image_height > max_side) {
        if (error_size > 0) {
            snprintf(error, error_size, "the JPEG is %dx%d pixels; at most %dx%d are decoded",
                     image_width, image_height, max_side, max_side);
        }
        tjDestroy(decoder);
        return -1;
    }
    // BGRA bytes are Cairo's ARGB32 on little-endian machines; TurboJPEG sets alpha to 0xFF.
    size_t stride = (size_t)image_width * 4;
    uint8_t *buffer = malloc(stride * (size_t)image_height);
    if (buffer == NULL) {
        copy_message(error, error_size, "out of memory");
        tjDestroy(decoder);
        return -1;
    }
    // libjpeg finishes a damaged JPEG with warnings. A truncated one ("Premature end of JPEG
    // file") would be finished in grey, so it is refused; other warnings are common and harmless
    // in real files ("extraneous bytes before marker" from some encoders). TurboJPEG keeps only
    // the last message, so the first decode stops at the first warning to read it, and a harmless
    // one is decoded again to the end. Limiting scans refuses a progressive JPEG of hundreds of
    // scans, each of which costs a pass over the whole image.
    int status = tjDecompress2(decoder, data, (unsigned long)length, buffer, image_width, (int)stride, image_height,
                               TJPF_BGRA, TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS);
    if (status != 0 && is_harmless_warning(decoder)) {
        status = tjDecompress2(decoder, data, (unsigned long)length, buffer, image_width, (int)stride, image_height,
                               TJPF_BGRA, TJFLAG_LIMITSCANS);
        if (status != 0 && is_harmless_warning(decoder)) status = 0;
    }
    if (status != 0) {
        copy_message(error, error_size, tjGetErrorStr2(decoder));
        free(buffer);
        tjDestroy(decoder);
        return -1;
    }
    tjDestroy(decoder);
    *pixels = buffer;
    *width = image_width;
    *height = image_height;
    *opaque = 1;
    return 0;
}

int mf_jpeg_encode(const uint8_t *pixels, int width, int height, int stride, int quality,
                   uint8_t **jpeg, size_t *jpeg_length,
                   char *error, size_t error_size) {
    *jpeg = NULL;
    *jpeg_length = 0;
    tjhandle encoder = tjInitCompress();
    if (encoder == NULL) {
        copy_message(error, error_size, tjGetErrorStr2(NULL));
        return -1;
    }
    // Maps are thin coloured lines on pale ground, which 4:2:0 chroma would smear over two
    // pixels: every pixel keeps its own colour. BGRX reads Cairo's little-endian words and
    // ignores alpha.
    unsigned char *output = NULL;
    unsigned long length = 0;
    int status = tjCompress2(encoder, pixels, width, stride, height, TJPF_BGRX,
                             &output, &length, TJSAMP_444, quality, 0);
    if (status != 0 || output == NULL) {
        copy_message(error, error_size, tjGetErrorStr2(encoder));
        if (output != NULL) tjFree(output);
        tjDestroy(encoder);
        return -1;
    }
    tjDestroy(encoder);
    // Handed over in memory of malloc's, as every encoder here hands over its bytes.
    uint8_t *copy = malloc(length);
    if (copy == NULL) {
        tjFree(output);
        copy_message(error, error_size, "out of memory");
        return -1;
    }
    memcpy(copy, output, length);
    tjFree(output);
    *jpeg = copy;
    *jpeg_length = length;
    return 0;
}
