#ifndef MAPFRAME_JPEG_CODEC_H
#define MAPFRAME_JPEG_CODEC_H

#include <stddef.h>
#include <stdint.h>

/// Decodes a JPEG held in memory into 32-bit pixels laid out as Cairo's CAIRO_FORMAT_ARGB32
/// (native-endian 0xAARRGGBB, stride = width * 4, every pixel opaque).
/// An image wider or taller than `max_side` is refused from its header, before any pixel memory
/// is allocated. A damaged or truncated JPEG is refused, not decoded in part.
/// On success returns 0 and sets *pixels (free() it), *width, *height, and *opaque to 1 (a JPEG
/// has no alpha), in the shape of the other decoders.
/// On failure returns -1 and writes a message into error (at most error_size bytes).
int mf_jpeg_decode(const uint8_t *data, size_t length, int max_side,
                   uint8_t **pixels, int *width, int *height, int *opaque,
                   char *error, size_t error_size);


/// Encodes opaque 32-bit pixels laid out as Cairo's CAIRO_FORMAT_ARGB32 (alpha is ignored) as a
/// baseline JPEG at `quality` (1-100), its colour kept at full resolution (4:4:4).
/// On success returns 0 and sets *jpeg (free() it) and *jpeg_length.
/// On failure returns -1 and writes a message into error (at most error_size bytes).
int mf_jpeg_encode(const uint8_t *pixels, int width, int height, int stride, int quality,
                   uint8_t **jpeg, size_t *jpeg_length,
                   char *error, size_t error_size);

#endif
