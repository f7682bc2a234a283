// C shim for fontconfig (font lookup), FreeType (glyph outlines and metrics) and HarfBuzz
// (shaping), used by OpenCoreGraphics' text. No Swift API of its own.
#ifndef OPENQUARTZ_CFONTSTACK_SHIM_H
#define OPENQUARTZ_CFONTSTACK_SHIM_H
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H
#include <hb.h>
#include <hb-ft.h>
#include <fontconfig/fontconfig.h>
#endif
