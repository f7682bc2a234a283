#include "CPixelKernels.h"
#include "oq_dispatch.h"
#include "oq_bytes.h"

OQ_KERNEL(, oq_solid_over, (uint8_t *restrict pixels, long count, uint32_t source), (pixels, count, source))
