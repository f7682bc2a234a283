// PNG files read and written a row at a time, for comparisons of images too large to hold whole
// (quartz diff). libpng's row API reports errors by longjmp, which Swift cannot cross, so each
// call here sets its own jump point and returns an error code and a message instead.
#ifndef OPENQUARTZ_CPNGROWS_H
#define OPENQUARTZ_CPNGROWS_H
#include <stddef.h>
#include <stdint.h>

typedef struct oq_png_rows oq_png_rows;

/// What `oq_png_rows_open` found; `streamable` is 0 for files whose rows cannot be read one at a
/// time with the bytes libpng's whole-image reader gives (interlaced, 16 bits a channel, a gamma
/// other than sRGB's): those are decoded whole.
typedef struct {
    uint32_t width, height;
    int streamable;
    /// The header's colour type and bit depth, for the plausibility check of the file's size.
    int color_type, bit_depth;
} oq_png_rows_info;

/// Opens `path` and reads its header; NULL with `message` (of `message_size` bytes) filled on failure.
oq_png_rows *oq_png_rows_open(const char *path, oq_png_rows_info *info, char *message, size_t message_size);
/// The next row as 8-bit straight RGBA (width * 4 bytes); 0 on success, -1 with the message.
int oq_png_rows_read(oq_png_rows *reader, uint8_t *row, char *message, size_t message_size);
void oq_png_rows_close(oq_png_rows *reader);

typedef struct oq_png_row_writer oq_png_row_writer;

/// Starts an 8-bit RGBA PNG of `width` x `height` on the open file descriptor `fd`.
oq_png_row_writer *oq_png_row_writer_open(int fd, uint32_t width, uint32_t height, char *message, size_t message_size);
/// Writes the next row (8-bit straight RGBA); 0 on success, -1 with the message.
int oq_png_row_writer_write(oq_png_row_writer *writer, const uint8_t *row, char *message, size_t message_size);
/// Writes the end of the file after the last row; 0 on success, -1 with the message. Frees the writer.
int oq_png_row_writer_finish(oq_png_row_writer *writer, char *message, size_t message_size);
/// Frees a writer that is not finished (after an error).
void oq_png_row_writer_abandon(oq_png_row_writer *writer);

#endif
