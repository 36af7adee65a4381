#ifndef MAPFRAME_WEBP_CODEC_H
#define MAPFRAME_WEBP_CODEC_H

#include <stddef.h>
#include <stdint.h>

/// Decodes a still WebP image (lossy or lossless, with or without alpha) held in memory into
/// premultiplied 32-bit pixels laid out as Cairo's CAIRO_FORMAT_ARGB32 (native-endian
/// 0xAARRGGBB, stride = width * 4).
/// An image wider or taller than `max_side` is refused from its header, before any pixel memory
/// is allocated. Animated WebP is refused.
/// On success returns 0 and sets *pixels (free() it), *width, *height, and *opaque to 1 when the
/// image has no alpha (every pixel is then opaque), else 0.
/// On failure returns -1 and writes a message into error (at most error_size bytes).
int mf_webp_decode(const uint8_t *data, size_t length, int max_side,
                   uint8_t **pixels, int *width, int *height, int *opaque,
                   char *error, size_t error_size);


/// Encodes opaque 32-bit pixels laid out as Cairo's CAIRO_FORMAT_ARGB32 (alpha is ignored) as a
/// lossy WebP at `quality` (0-100).
/// On success returns 0 and sets *webp (free() it) and *webp_length.
/// On failure returns -1 and writes a message into error (at most error_size bytes).
int mf_webp_encode(const uint8_t *pixels, int width, int height, int stride, int quality,
                   uint8_t **webp, size_t *webp_length,
                   char *error, size_t error_size);

#endif
