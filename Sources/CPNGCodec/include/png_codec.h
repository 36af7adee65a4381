#ifndef MAPFRAME_PNG_CODEC_H
#define MAPFRAME_PNG_CODEC_H

#include <stddef.h>
#include <stdint.h>

/// Decodes a PNG held in memory into premultiplied 32-bit pixels laid out as Cairo's
/// CAIRO_FORMAT_ARGB32 (native-endian 0xAARRGGBB, stride = width * 4).
/// Every colour type and bit depth is read, interlaced or not, with tRNS transparency.
/// An image wider or taller than `max_side` is refused from its header, before any pixel memory
/// is allocated.
/// On success returns 0 and sets *pixels (free() it), *width, *height, and *opaque to 1 when the
/// colour type has no alpha and there is no tRNS chunk (every pixel is then opaque), else 0.
/// On failure returns -1 and writes a message into error (at most error_size bytes).
int mf_png_decode(const uint8_t *data, size_t length, int max_side,
                  uint8_t **pixels, int *width, int *height, int *opaque,
                  char *error, size_t error_size);

/// Encodes premultiplied ARGB32 pixels as an 8-bit PNG: RGB when `opaque` is non-zero
/// (alpha is dropped), RGBA otherwise (colours are un-premultiplied).
/// `zlib_level` is 0-9; `filters` is a mask of libpng's PNG_FILTER_* flags.
/// On success returns 0 and sets *png (free() it) and *png_length.
/// On failure returns -1 and writes a message into error.
int mf_png_encode(const uint8_t *pixels, int width, int height, int stride, int opaque,
                  int zlib_level, int filters,
                  uint8_t **png, size_t *png_length,
                  char *error, size_t error_size);

/// Encodes as `mf_png_encode` does, faster and without zlib: each row behind whichever of the
/// None, Sub and Up filters leaves the fewest changes from byte to byte, runs of a repeated byte
/// as deflate matches at distance 1, and the rest as literals, in one dynamic Huffman block.
int mf_png_encode_run_length(const uint8_t *pixels, int width, int height, int stride, int opaque,
                             uint8_t **png, size_t *png_length,
                             char *error, size_t error_size);

#endif
