// PNG rows one at a time through libpng's row API (see CPNGRows.h for why here and in C).
//
// A reader streams only what it can give byte for byte as libpng's simplified whole-image reader
// (OpenCoreGraphics' decodePNG) gives it: 8 bits a channel or fewer, not interlaced, sRGB or no
// stated gamma. Palette, gray and tRNS expand exactly to 8-bit RGBA, so those stream too; any
// other file is marked not streamable and its caller decodes it whole.
#include "CPNGRows.h"

#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct oq_png_rows {
    png_structp png;
    png_infop info;
    FILE *file;
    char error[200];
};

struct oq_png_row_writer {
    png_structp png;
    png_infop info;
    int fd;
    char error[200];
};

static void copy_message(char *message, size_t size, const char *text) {
    if (message == NULL || size == 0) return;
    snprintf(message, size, "%s", text);
}

static void reader_error(png_structp png, png_const_charp text) {
    struct oq_png_rows *reader = png_get_error_ptr(png);
    copy_message(reader->error, sizeof reader->error, text);
    png_longjmp(png, 1);
}

static void writer_error(png_structp png, png_const_charp text) {
    struct oq_png_row_writer *writer = png_get_error_ptr(png);
    copy_message(writer->error, sizeof writer->error, text);
    png_longjmp(png, 1);
}

// Warnings (an unknown ancillary chunk, a bad CRC in one) are what the whole-image reader passes
// over too.
static void ignore_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

void oq_png_rows_close(oq_png_rows *reader) {
    if (reader == NULL) return;
    if (reader->png != NULL) png_destroy_read_struct(&reader->png, &reader->info, NULL);
    if (reader->file != NULL) fclose(reader->file);
    free(reader);
}

// gAMA values libpng's simplified reader takes as sRGB's (1/2.2 in its fixed point, 45455), with
// the rounding other encoders write.
static int gamma_is_srgb(png_fixed_point gamma) { return gamma >= 45450 && gamma <= 45460; }

oq_png_rows *oq_png_rows_open(const char *path, oq_png_rows_info *info, char *message, size_t message_size) {
    struct oq_png_rows *reader = calloc(1, sizeof *reader);
    if (reader == NULL) {
        copy_message(message, message_size, "out of memory");
        return NULL;
    }
    reader->file = fopen(path, "rb");
    if (reader->file == NULL) {
        copy_message(message, message_size, strerror(errno));
        oq_png_rows_close(reader);
        return NULL;
    }
    reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, reader, reader_error, ignore_warning);
    if (reader->png != NULL) reader->info = png_create_info_struct(reader->png);
    if (reader->png == NULL || reader->info == NULL) {
        copy_message(message, message_size, "out of memory");
        oq_png_rows_close(reader);
        return NULL;
    }
    if (setjmp(png_jmpbuf(reader->png))) {
        copy_message(message, message_size, reader->error);
        oq_png_rows_close(reader);
        return NULL;
    }
    png_init_io(reader->png, reader->file);
    png_read_info(reader->png, reader->info);
    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(reader->png, reader->info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    info->width = width;
    info->height = height;
    info->color_type = color_type;
    info->bit_depth = bit_depth;
    int srgb = 1;
    png_fixed_point gamma = 0;
    if (!png_get_valid(reader->png, reader->info, PNG_INFO_sRGB) && png_get_gAMA_fixed(reader->png, reader->info, &gamma)) {
        srgb = gamma_is_srgb(gamma);
    }
    info->streamable = bit_depth <= 8 && interlace == PNG_INTERLACE_NONE && srgb;
    if (!info->streamable) return reader;
    // To 8-bit straight RGBA, as the whole-image reader gives it.
    png_set_expand(reader->png); // palette to RGB, gray under 8 bits to 8, tRNS to alpha
    if (!(color_type & PNG_COLOR_MASK_COLOR)) png_set_gray_to_rgb(reader->png);
    if (!(color_type & PNG_COLOR_MASK_ALPHA) && !png_get_valid(reader->png, reader->info, PNG_INFO_tRNS)) {
        png_set_add_alpha(reader->png, 0xff, PNG_FILLER_AFTER);
    }
    png_read_update_info(reader->png, reader->info);
    if (png_get_rowbytes(reader->png, reader->info) != (size_t)width * 4) {
        info->streamable = 0; // a combination the transforms above do not bring to RGBA
    }
    return reader;
}

int oq_png_rows_read(oq_png_rows *reader, uint8_t *row, char *message, size_t message_size) {
    if (setjmp(png_jmpbuf(reader->png))) {
        copy_message(message, message_size, reader->error);
        return -1;
    }
    png_read_row(reader->png, row, NULL);
    return 0;
}

static void write_to_fd(png_structp png, png_bytep data, size_t length) {
    struct oq_png_row_writer *writer = png_get_io_ptr(png);
    while (length > 0) {
        ssize_t written = write(writer->fd, data, length);
        if (written < 0) {
            if (errno == EINTR) continue;
            png_error(png, strerror(errno));
        }
        data += written;
        length -= (size_t)written;
    }
}

static void flush_nothing(png_structp png) { (void)png; }

void oq_png_row_writer_abandon(oq_png_row_writer *writer) {
    if (writer == NULL) return;
    if (writer->png != NULL) png_destroy_write_struct(&writer->png, &writer->info);
    free(writer);
}

oq_png_row_writer *oq_png_row_writer_open(int fd, uint32_t width, uint32_t height, char *message, size_t message_size) {
    struct oq_png_row_writer *writer = calloc(1, sizeof *writer);
    if (writer == NULL) {
        copy_message(message, message_size, "out of memory");
        return NULL;
    }
    writer->fd = fd;
    writer->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, writer, writer_error, ignore_warning);
    if (writer->png != NULL) writer->info = png_create_info_struct(writer->png);
    if (writer->png == NULL || writer->info == NULL) {
        copy_message(message, message_size, "out of memory");
        oq_png_row_writer_abandon(writer);
        return NULL;
    }
    if (setjmp(png_jmpbuf(writer->png))) {
        copy_message(message, message_size, writer->error);
        oq_png_row_writer_abandon(writer);
        return NULL;
    }
    png_set_write_fn(writer->png, writer, write_to_fd, flush_nothing);
    png_set_IHDR(writer->png, writer->info, width, height, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_sRGB_gAMA_and_cHRM(writer->png, writer->info, PNG_sRGB_INTENT_PERCEPTUAL);
    png_write_info(writer->png, writer->info);
    return writer;
}

int oq_png_row_writer_write(oq_png_row_writer *writer, const uint8_t *row, char *message, size_t message_size) {
    if (setjmp(png_jmpbuf(writer->png))) {
        copy_message(message, message_size, writer->error);
        return -1;
    }
    png_write_row(writer->png, row);
    return 0;
}

int oq_png_row_writer_finish(oq_png_row_writer *writer, char *message, size_t message_size) {
    if (setjmp(png_jmpbuf(writer->png))) {
        copy_message(message, message_size, writer->error);
        oq_png_row_writer_abandon(writer);
        return -1;
    }
    png_write_end(writer->png, NULL);
    oq_png_row_writer_abandon(writer);
    return 0;
}
