/*
 * A C host's runtime on a cache it cannot write or read whole: compiled against
 * include/trackerless.h and linked with the TrackerlessC library by CAPITests, which makes the
 * fault between the two runs (fills or remounts the disk read-only, damages the toggles file)
 * and checks what the second prints.
 *
 * usage: storage_fault_test prepare|launch CACHE_DIR TDS.json BLOCKED_URL HOST
 * - prepare: the runtime builds its set into CACHE_DIR, turns protection off for HOST, and is freed;
 *   prints "refused host: <error>" for a URL given as a host, and "empty cache path: <error>"
 *   for a runtime on "";
 * - launch: a runtime on the same cache, which must start; prints what it decides and reports:
 *   "origin: <built|cache>", "identifier: <hex>", "blocked: <0|1>" (BLOCKED_URL on HOST's page),
 *   "site protection: <0|1>" (HOST), "storage error at launch: <message|none>",
 *   "save: <ok|error message>", "storage error: <message|none>".
 * Exits 1 when a call that must succeed fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trackerless.h"

static void fail(const char *what, const char *detail) {
    fprintf(stderr, "storage_fault_test: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(1);
}

/* Prints "name: value" for a JSON string member of `json` ("origin", "identifier"). */
static void print_member(const char *json, const char *name) {
    char key[64];
    snprintf(key, sizeof key, "\"%s\":\"", name);
    const char *start = strstr(json, key);
    if (!start) fail("no member in the set's info", name);
    start += strlen(key);
    const char *end = strchr(start, '"');
    if (!end) fail("an unterminated member in the set's info", name);
    printf("%s: %.*s\n", name, (int)(end - start), start);
}

static void print_storage_error(const tl_runtime *runtime, const char *name) {
    char *message = NULL;
    if (tl_runtime_storage_error(runtime, &message) != TL_OK) fail("tl_runtime_storage_error", NULL);
    printf("%s: %s\n", name, message ? message : "none");
    tl_string_free(message);
}

int main(int argc, char **argv) {
    if (argc != 6) fail("usage: storage_fault_test prepare|launch CACHE_DIR TDS.json BLOCKED_URL HOST", NULL);
    const char *mode = argv[1], *cache = argv[2], *tds = argv[3], *blocked_url = argv[4], *host = argv[5];
    char *error = NULL;
    tl_inputs *inputs = tl_inputs_new();
    if (!inputs || tl_inputs_set_file(inputs, TL_INPUT_TDS, tds) != TL_OK) fail("tl_inputs_set_file", tds);
    tl_runtime *runtime = NULL;
    if (tl_runtime_new(inputs, cache, &runtime, &error) != TL_OK) fail("tl_runtime_new", error);

    if (strcmp(mode, "prepare") == 0) {
        if (tl_runtime_set_site_protection(runtime, host, 0, &error) != TL_OK) fail("tl_runtime_set_site_protection", error);
        print_storage_error(runtime, "storage error");
        char url[512];
        snprintf(url, sizeof url, "https://%s/", host);
        if (tl_runtime_set_site_protection(runtime, url, 0, &error) != TL_ERROR_INVALID_INPUT) fail("a URL taken as a host", url);
        printf("refused host: %s\n", error);
        tl_string_free(error);
        tl_runtime *elsewhere = NULL;
        if (tl_runtime_new(inputs, "", &elsewhere, &error) == TL_OK) fail("a runtime on an empty cache path", NULL);
        printf("empty cache path: %s\n", error);
        tl_string_free(error);
    } else if (strcmp(mode, "launch") == 0) {
        tl_protection_set *set = NULL;
        char *json = NULL;
        if (tl_runtime_current_set(runtime, &set) != TL_OK || tl_protection_set_info_json(set, &json) != TL_OK)
            fail("the current set's info", NULL);
        print_member(json, "origin");
        print_member(json, "identifier");
        tl_string_free(json);
        tl_engine *engine = NULL;
        if (tl_protection_set_engine(set, &engine) != TL_OK) fail("tl_protection_set_engine", NULL);
        char page[512];
        snprintf(page, sizeof page, "https://%s/", host);
        uint32_t flags = 0;
        if (tl_engine_decide(engine, blocked_url, page, NULL, TL_RESOURCE_SCRIPT, NULL, &flags) != TL_OK)
            fail("tl_engine_decide", blocked_url);
        printf("blocked: %d\n", (flags & TL_DECISION_BLOCKED) ? 1 : 0);
        tl_engine_free(engine);
        tl_protection_set_free(set);
        int enabled = -1;
        if (tl_runtime_site_protection(runtime, host, &enabled) != TL_OK) fail("tl_runtime_site_protection", host);
        printf("site protection: %d\n", enabled);
        print_storage_error(runtime, "storage error at launch");

        /* A page, a tracker blocked on it, and the host going to the background. */
        tl_stats *stats = NULL;
        if (tl_runtime_stats(runtime, &stats) != TL_OK) fail("tl_runtime_stats", NULL);
        tl_stats_commit_navigation(stats, "1", page);
        if (tl_stats_observe(stats, "1", blocked_url, "script", 1) != TL_OK) fail("tl_stats_observe", NULL);
        tl_stats_commit_navigation(stats, "1", "https://news.example/");
        if (tl_runtime_save_stats(runtime, &error) == TL_OK) {
            printf("save: ok\n");
        } else {
            printf("save: %s\n", error ? error : "(no message)");
            tl_string_free(error);
        }
        print_storage_error(runtime, "storage error");
        tl_stats_free(stats);
    } else {
        fail("unknown mode", mode);
    }
    tl_runtime_free(runtime);
    tl_inputs_free(inputs);
    return 0;
}
