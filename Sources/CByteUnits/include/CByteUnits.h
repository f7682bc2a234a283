// Each byte's value over 255 as a table the C compiler fills: see Sources/RasterBackend/ByteUnits.swift
// for why it lives in C.
#ifndef OPENQUARTZ_C_BYTE_UNITS_H
#define OPENQUARTZ_C_BYTE_UNITS_H

/// byte / 255.0 for every byte, each entry the correctly rounded quotient (the compiler folds the
/// division with IEEE round-to-nearest, as the processor's division rounds it).
extern const double oq_byte_units[256];

/// `byte / 255.0`, read from the table.
static inline double oq_byte_unit(unsigned char byte) { return oq_byte_units[byte]; }

#endif
