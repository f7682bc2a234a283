#include "CByteUnits.h"

// Statically initialised data: reading it needs no once-guard (a Swift global with a computed
// initializer is read through swift_once at every access).
#define OQ_UNIT(k) ((k) / 255.0)
#define OQ_UNITS4(k) OQ_UNIT(k), OQ_UNIT((k) + 1), OQ_UNIT((k) + 2), OQ_UNIT((k) + 3)
#define OQ_UNITS16(k) OQ_UNITS4(k), OQ_UNITS4((k) + 4), OQ_UNITS4((k) + 8), OQ_UNITS4((k) + 12)
#define OQ_UNITS64(k) OQ_UNITS16(k), OQ_UNITS16((k) + 16), OQ_UNITS16((k) + 32), OQ_UNITS16((k) + 48)

const double oq_byte_units[256] = { OQ_UNITS64(0), OQ_UNITS64(64), OQ_UNITS64(128), OQ_UNITS64(192) };
