// C shim for libpng's simplified API (png_image_*), used by OpenCoreGraphics' PNG codec.
#ifndef OPENQUARTZ_CLIBPNG_SHIM_H
#define OPENQUARTZ_CLIBPNG_SHIM_H
#include <png.h>
#endif
