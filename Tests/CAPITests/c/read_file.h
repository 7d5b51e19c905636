/* The whole file at `path`, NUL-terminated, for the C hosts of CAPITests; exits on an error. */
#ifndef TRACKERLESS_TEST_READ_FILE_H
#define TRACKERLESS_TEST_READ_FILE_H

#include <stdio.h>
#include <stdlib.h>

static char *read_file(const char *path, size_t *length) {
    FILE *file = fopen(path, "rb");
    if (!file) { perror(path); exit(1); }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    char *bytes = malloc((size_t)size + 1);
    if (fread(bytes, 1, (size_t)size, file) != (size_t)size) { perror(path); exit(1); }
    bytes[size] = 0;
    fclose(file);
    *length = (size_t)size;
    return bytes;
}

#endif
