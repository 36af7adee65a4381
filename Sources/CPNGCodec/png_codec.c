// PNG decode and encode on libpng (the run-length encoder is in run_length_png.c). libpng reports
// errors by longjmp, which must not cross Swift frames, so every libpng call and its setjmp live
// in this file.
#include "png_codec.h"
#include "pixel_rows.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void copy_message(char *error, size_t error_size, const char *message) {
    if (error_size == 0) return;
    snprintf(error, error_size, "%s", message ? message : "unknown libpng error");
}

static int has_signature(const uint8_t *data, size_t length) {
    return length >= 8 && png_sig_cmp((png_const_bytep)data, 0, 8) == 0;
}

// libpng allocates a buffer of the length a chunk's header declares before reading the chunk,
// and on read a length over its limit is only a warning, so a few hundred bytes declaring a
// gigabyte-long text chunk would allocate a gigabyte. Every chunk up to IEND must fit in the data.
static int check_chunk_lengths(const uint8_t *data, size_t length, char *error, size_t error_size) {
    size_t offset = 8;
    while (length - offset >= 8) {
        const uint8_t *header = data + offset;
        uint32_t chunk = (uint32_t)header[0] << 24 | (uint32_t)header[1] << 16 | (uint32_t)header[2] << 8 | header[3];
        size_t left = length - offset - 8;
        if (left < 4 || chunk > left - 4) {
            char type[5];
            for (int i = 0; i < 4; i++) type[i] = header[4 + i] >= 0x20 && header[4 + i] < 0x7F ? (char)header[4 + i] : '?';
            type[4] = 0;
            if (error_size > 0) {
                snprintf(error, error_size, "PNG chunk '%s' at byte %zu declares %u bytes; only %zu bytes follow it",
                         type, offset, chunk, left < 4 ? 0 : left - 4);
            }
            return -1;
        }
        if (memcmp(header + 4, "IEND", 4) == 0) break;
        offset += 12 + (size_t)chunk;
    }
    return 0;
}

struct error_context {
    jmp_buf jump;
    char *error;
    size_t error_size;
};

static void on_error(png_structp png, png_const_charp message) {
    struct error_context *context = png_get_error_ptr(png);
    copy_message(context->error, context->error_size, message);
    longjmp(context->jump, 1);
}

static void on_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

// The bytes libpng has yet to read.
struct input_buffer {
    const uint8_t *bytes;
    size_t left;
};

static void read_from_buffer(png_structp png, png_bytep data, png_size_t length) {
    struct input_buffer *in = png_get_io_ptr(png);
    if (length > in->left) png_error(png, "the PNG ends in the middle of a chunk");
    memcpy(data, in->bytes, length);
    in->bytes += length;
    in->left -= length;
}

// Decoded with libpng's own transforms rather than its simplified API, whose 16-bit to 8-bit
// conversion garbles interlaced images (libpng 1.6.39; pnggroup/libpng issue 853).
int mf_png_decode(const uint8_t *data, size_t length, int max_side,
                  uint8_t **pixels, int *width, int *height, int *opaque,
                  char *error, size_t error_size) {
    *pixels = NULL;
    *opaque = 0;
    if (!has_signature(data, length)) {
        copy_message(error, error_size, "not a PNG (bad signature)");
        return -1;
    }
    if (check_chunk_lengths(data, length, error, error_size) != 0) return -1;
    struct error_context context;
    context.error = error;
    context.error_size = error_size;
    struct input_buffer in = {data, length};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &context, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (png == NULL || info == NULL) {
        copy_message(error, error_size, "could not create the PNG reader");
        png_destroy_read_struct(&png, &info, NULL);
        return -1;
    }
    // Set between setjmp and a longjmp, so volatile: what to free when libpng gives up.
    uint8_t *volatile buffer = NULL;
    png_bytep *volatile rows = NULL;
    if (setjmp(context.jump)) {
        png_destroy_read_struct(&png, &info, NULL);
        free(rows);
        free(buffer);
        return -1;
    }
    png_set_read_fn(png, &in, read_from_buffer);
    png_read_info(png, info);
    png_uint_32 image_width = png_get_image_width(png, info), image_height = png_get_image_height(png, info);
    if (image_width == 0 || image_height == 0 || image_width > (png_uint_32)max_side || image_height > (png_uint_32)max_side) {
        if (error_size > 0) {
            snprintf(error, error_size, "the PNG is %ux%u pixels; at most %dx%d are decoded",
                     (unsigned)image_width, (unsigned)image_height, max_side, max_side);
        }
        png_destroy_read_struct(&png, &info, NULL);
        return -1;
    }
    // Without an alpha channel or tRNS, every pixel gets the opaque filler below: nothing to premultiply.
    int without_alpha = (png_get_color_type(png, info) & PNG_COLOR_MASK_ALPHA) == 0 && !png_get_valid(png, info, PNG_INFO_tRNS);
    // Every colour type and depth becomes 8-bit BGRA, Cairo's ARGB32 on little-endian machines:
    // palettes and greys under 8 bits are expanded, tRNS becomes alpha, 16-bit samples are
    // rounded to 8, grey becomes RGB, and an image without alpha gets an opaque one.
    png_set_expand(png);
    png_set_scale_16(png);
    png_set_gray_to_rgb(png);
    png_set_bgr(png);
    png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    // Samples are sRGB, unless a gAMA chunk says otherwise; then they are brought to sRGB.
    png_set_gamma(png, PNG_DEFAULT_sRGB, PNG_DEFAULT_sRGB);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    size_t stride = (size_t)image_width * 4;
    if (png_get_rowbytes(png, info) != stride) png_error(png, "libpng did not give 4 bytes a pixel");
    buffer = malloc(stride * image_height);
    rows = malloc(sizeof(png_bytep) * image_height);
    if (buffer == NULL || rows == NULL) png_error(png, "out of memory");
    for (png_uint_32 y = 0; y < image_height; y++) rows[y] = buffer + y * stride;
    png_read_image(png, rows);
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    size_t count = without_alpha ? 0 : (size_t)image_width * image_height;
    for (size_t i = 0; i < count; i++) {
        uint8_t *p = buffer + i * 4;
        unsigned alpha = p[3];
        if (alpha == 255) continue;
        p[0] = (uint8_t)((p[0] * alpha + 127) / 255);
        p[1] = (uint8_t)((p[1] * alpha + 127) / 255);
        p[2] = (uint8_t)((p[2] * alpha + 127) / 255);
    }
    *pixels = buffer;
    *width = (int)image_width;
    *height = (int)image_height;
    *opaque = without_alpha;
    return 0;
}

struct output_buffer {
    uint8_t *bytes;
    size_t length;
    size_t capacity;
    int failed;
};

static void write_to_buffer(png_structp png, png_bytep data, png_size_t length) {
    struct output_buffer *out = png_get_io_ptr(png);
    if (out->length + length > out->capacity) {
        size_t capacity = out->capacity ? out->capacity : 65536;
        while (capacity < out->length + length) capacity *= 2;
        uint8_t *grown = realloc(out->bytes, capacity);
        if (grown == NULL) {
            out->failed = 1;
            png_error(png, "out of memory");
        }
        out->bytes = grown;
        out->capacity = capacity;
    }
    memcpy(out->bytes + out->length, data, length);
    out->length += length;
}

static void flush_nothing(png_structp png) { (void)png; }

int mf_png_encode(const uint8_t *pixels, int width, int height, int stride, int opaque,
                  int zlib_level, int filters,
                  uint8_t **png_out, size_t *png_length,
                  char *error, size_t error_size) {
    *png_out = NULL;
    *png_length = 0;
    struct error_context context;
    context.error = error;
    context.error_size = error_size;
    struct output_buffer out = {NULL, 0, 0, 0};
    int channels = opaque ? 3 : 4;
    uint8_t *row = malloc((size_t)width * channels);
    if (row == NULL) {
        copy_message(error, error_size, "out of memory");
        return -1;
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &context, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (png == NULL || info == NULL) {
        copy_message(error, error_size, "could not create the PNG writer");
        png_destroy_write_struct(&png, &info);
        free(row);
        return -1;
    }
    if (setjmp(context.jump)) {
        png_destroy_write_struct(&png, &info);
        free(row);
        free(out.bytes);
        return -1;
    }
    png_set_write_fn(png, &out, write_to_buffer, flush_nothing);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8,
                 opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, zlib_level);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, filters);
    png_write_info(png, info);
    for (int y = 0; y < height; y++) {
        convert_row((const uint32_t *)(pixels + (size_t)y * stride), row, width, opaque);
        png_write_row(png, row);
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    free(row);
    // Give back the growth slack: callers may keep many small PNGs in memory.
    uint8_t *exact = realloc(out.bytes, out.length ? out.length : 1);
    if (exact != NULL) out.bytes = exact;
    *png_out = out.bytes;
    *png_length = out.length;
    return 0;
}
