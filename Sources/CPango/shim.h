#include <cairo/cairo.h>
#include <pango/pangocairo.h>
