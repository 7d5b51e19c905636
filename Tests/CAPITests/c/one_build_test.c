/*
 * A C host that builds a protection set and writes what it got, for CAPITests to compare with
 * the runtime's build of the same inputs (the one build every entry point shares).
 *
 * usage: one_build_test OUT_DIR TDS.json PRIVACY_CONFIG.json ALLOWLIST.json WEBKIT
 * Writes OUT_DIR/info.json (tl_protection_set_info_json), OUT_DIR/lists.json
 * (tl_protection_set_rule_lists_json), OUT_DIR/scripts.json (tl_protection_set_scripts_json) and
 * OUT_DIR/engine.bin (tl_engine_compiled of the set's engine), and OUT_DIR/render.json
 * (tl_scripts_render of the blocklist and the configuration alone); exits 1 on a failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trackerless.h"

static void fail(const char *what, const char *detail) {
    fprintf(stderr, "one_build_test: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(1);
}

static void write_file(const char *directory, const char *name, const void *bytes, size_t length) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", directory, name);
    FILE *file = fopen(path, "wb");
    if (!file || fwrite(bytes, 1, length, file) != length || fclose(file) != 0) fail("cannot write", path);
}

/* The whole file at `path`, NUL-terminated; its length in *length. */
static char *read_file(const char *path, size_t *length) {
    FILE *file = fopen(path, "rb");
    if (!file || fseek(file, 0, SEEK_END) != 0) fail("cannot read", path);
    long size = ftell(file);
    if (size < 0 || fseek(file, 0, SEEK_SET) != 0) fail("cannot read", path);
    char *bytes = malloc((size_t)size + 1);
    if (!bytes || fread(bytes, 1, (size_t)size, file) != (size_t)size) fail("cannot read", path);
    fclose(file);
    bytes[size] = 0;
    *length = (size_t)size;
    return bytes;
}

int main(int argc, char **argv) {
    if (argc != 6) fail("usage: one_build_test OUT_DIR TDS.json PRIVACY_CONFIG.json ALLOWLIST.json WEBKIT", NULL);
    const char *out = argv[1];
    char *error = NULL;
    tl_inputs *inputs = tl_inputs_new();
    if (!inputs) fail("tl_inputs_new", NULL);
    if (tl_inputs_set_file(inputs, TL_INPUT_TDS, argv[2]) != TL_OK) fail("tl_inputs_set_file tds", NULL);
    if (tl_inputs_set_file(inputs, TL_INPUT_PRIVACY_CONFIG, argv[3]) != TL_OK) fail("tl_inputs_set_file config", NULL);
    if (tl_inputs_set_file(inputs, TL_INPUT_USER_ALLOWLIST, argv[4]) != TL_OK) fail("tl_inputs_set_file allowlist", NULL);
    if (tl_inputs_set_webkit(inputs, argv[5], &error) != TL_OK) fail("tl_inputs_set_webkit", error);

    tl_protection_set *set = NULL;
    if (tl_protection_set_build(inputs, &set, &error) != TL_OK) fail("tl_protection_set_build", error);
    char *json = NULL;
    if (tl_protection_set_info_json(set, &json) != TL_OK) fail("tl_protection_set_info_json", NULL);
    write_file(out, "info.json", json, strlen(json));
    tl_string_free(json);
    if (tl_protection_set_rule_lists_json(set, &json) != TL_OK) fail("tl_protection_set_rule_lists_json", NULL);
    write_file(out, "lists.json", json, strlen(json));
    tl_string_free(json);
    if (tl_protection_set_scripts_json(set, &json) != TL_OK) fail("tl_protection_set_scripts_json", NULL);
    write_file(out, "scripts.json", json, strlen(json));
    tl_string_free(json);

    tl_engine *engine = NULL;
    if (tl_protection_set_engine(set, &engine) != TL_OK) fail("tl_protection_set_engine", NULL);
    uint8_t *bytes = NULL;
    size_t length = 0;
    if (tl_engine_compiled(engine, &bytes, &length) != TL_OK) fail("tl_engine_compiled", NULL);
    write_file(out, "engine.bin", bytes, length);
    tl_bytes_free(bytes);
    tl_engine_free(engine);
    tl_protection_set_free(set);
    tl_inputs_free(inputs);

    size_t tds_length = 0, config_length = 0;
    char *tds = read_file(argv[2], &tds_length);
    char *config = read_file(argv[3], &config_length);
    if (tl_scripts_render(tds, tds_length, config, config_length, "android", 1, &json, &error) != TL_OK)
        fail("tl_scripts_render", error);
    write_file(out, "render.json", json, strlen(json));
    tl_string_free(json);
    free(tds);
    free(config);
    return 0;
}
