// Cairo's pixels as PNG rows, shared by both encoders.
#ifndef MAPFRAME_PIXEL_ROWS_H
#define MAPFRAME_PIXEL_ROWS_H

#include <stdint.h>

// One row of premultiplied ARGB32 pixels as 8-bit RGB (`opaque`: alpha dropped) or RGBA
// (colours un-premultiplied).
static inline void convert_row(const uint32_t *source, uint8_t *target, int width, int opaque) {
    if (opaque) {
        for (int x = 0; x < width; x++) {
            uint32_t pixel = source[x];
            target[0] = (uint8_t)(pixel >> 16);
            target[1] = (uint8_t)(pixel >> 8);
            target[2] = (uint8_t)pixel;
            target += 3;
        }
        return;
    }
    for (int x = 0; x < width; x++) {
        uint32_t pixel = source[x];
        unsigned alpha = pixel >> 24;
        unsigned red = (pixel >> 16) & 0xff, green = (pixel >> 8) & 0xff, blue = pixel & 0xff;
        if (alpha != 0 && alpha != 255) {
            red = (red * 255 + alpha / 2) / alpha;
            green = (green * 255 + alpha / 2) / alpha;
            blue = (blue * 255 + alpha / 2) / alpha;
        }
        target[0] = (uint8_t)(red > 255 ? 255 : red);
        target[1] = (uint8_t)(green > 255 ? 255 : green);
        target[2] = (uint8_t)(blue > 255 ? 255 : blue);
        target[3] = (uint8_t)alpha;
        target += 4;
    }
}

#endif
