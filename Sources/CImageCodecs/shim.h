// C shim for giflib and TurboJPEG, used by OpenCoreGraphics' ImageIO. Both report errors by
// return codes (TurboJPEG instead of libjpeg's longjmp, which Swift cannot cross).
#ifndef OPENQUARTZ_CIMAGECODECS_SHIM_H
#define OPENQUARTZ_CIMAGECODECS_SHIM_H
#include <stddef.h>
#include <gif_lib.h>
#include <turbojpeg.h>
#endif
