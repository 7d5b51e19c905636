/*
 * A C host keeping its runtime current from URLs: compiled against include/trackerless.h and
 * linked with the TrackerlessC library by CAPITests, which serves the URLs from a loopback server
 * and checks what this prints.
 *
 * usage: updater_test CACHE_DIR EMBEDDED_TDS.json BASE_URL
 * BASE_URL serves /tds.json (a new blocklist with an ETag), /config.json and nothing at /missing.json.
 * - a runtime from the embedded copy (nothing downloaded yet), an updater of the two URLs;
 * - check: updated, then unchanged (304s);
 * - an updater of /missing.json: TL_ERROR_NETWORK, the message naming the input and the status;
 * - arguments refused: an ftp URL, an unknown policy setting;
 * - the schedule: two reports through the callback, then stopped;
 * - a relaunch from the downloads: the updated set, loaded.
 * Prints "name: ..." lines and "ok: ..." for each check passed; exits 1 on a failure.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "trackerless.h"

static void fail(const char *what, const char *detail) {
    fprintf(stderr, "updater_test: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(1);
}

static char *url_of(const char *base, const char *path) {
    char *url = malloc(strlen(base) + strlen(path) + 1);
    strcpy(url, base);
    strcat(url, path);
    return url;
}

/* The identity of the runtime's set, as its navigation plan names it. */
static void print_set(const char *name, const tl_runtime *runtime) {
    char *json = NULL;
    if (tl_runtime_navigation_json(runtime, "https://news.example/", &json) != TL_OK) fail("tl_runtime_navigation_json", NULL);
    printf("%s: %s\n", name, json);
    tl_string_free(json);
}

static void check(const char *name, tl_updater *updater, tl_status expected) {
    char *report = NULL, *error = NULL;
    tl_status status = tl_updater_check(updater, &report, &error);
    if (status != expected) {
        fprintf(stderr, "updater_test: %s: status %d, expected %d\n", name, (int)status, (int)expected);
        fail(name, error ? error : report);
    }
    if (!report) fail(name, "no report");
    printf("%s: %s\n", name, report);
    if (error) printf("%s error: %s\n", name, error);
    tl_string_free(report);
    tl_string_free(error);
}

static atomic_int reports;

static void on_report(const char *report_json, void *context) {
    if (!report_json || context != (void *)&reports) return;
    atomic_fetch_add(&reports, 1);
}

int main(int argc, char **argv) {
    if (argc != 4) fail("usage: updater_test CACHE_DIR EMBEDDED_TDS.json BASE_URL", NULL);
    const char *cache = argv[1], *embedded = argv[2], *base = argv[3];
    char *tds = url_of(base, "/tds.json"), *config = url_of(base, "/config.json"), *missing = url_of(base, "/missing.json");
    char *error = NULL;

    tl_inputs *inputs = tl_inputs_new();
    if (tl_inputs_set_file(inputs, TL_INPUT_TDS, embedded) != TL_OK) fail("tl_inputs_set_file", embedded);
    tl_runtime *runtime = NULL;
    if (tl_runtime_new_from_downloads(inputs, cache, tds, NULL, config, NULL, &runtime, &error) != TL_OK)
        fail("tl_runtime_new_from_downloads", error);
    print_set("embedded", runtime);

    tl_updater *updater = NULL;
    if (tl_updater_new(runtime, tds, NULL, config, NULL, "{\"attempts\": 1, \"timeout\": 10}", &updater, &error) != TL_OK)
        fail("tl_updater_new", error);
    check("first", updater, TL_OK);
    check("second", updater, TL_OK);
    print_set("updated", runtime);

    tl_updater *broken = NULL;
    if (tl_updater_new(runtime, missing, NULL, NULL, NULL, "{\"attempts\": 1}", &broken, &error) != TL_OK)
        fail("tl_updater_new (missing)", error);
    check("missing", broken, TL_ERROR_NETWORK);
    tl_updater_free(broken);

    tl_updater *refused = NULL;
    if (tl_updater_new(runtime, "ftp://127.0.0.1/tds.json", NULL, NULL, NULL, NULL, &refused, &error) != TL_ERROR_INVALID_ARGUMENT)
        fail("an ftp URL was accepted", NULL);
    printf("ok: ftp refused: %s\n", error);
    tl_string_free(error);
    error = NULL;
    if (tl_updater_new(runtime, tds, NULL, NULL, NULL, "{\"interval\": 60, \"colour\": 1}", &refused, &error) != TL_ERROR_INVALID_ARGUMENT)
        fail("an unknown policy setting was accepted", NULL);
    printf("ok: policy refused: %s\n", error);
    tl_string_free(error);
    error = NULL;
    tl_updater_free(updater);

    /* The schedule, every 0.2 s: two reports, then stopped. */
    tl_updater *scheduled = NULL;
    if (tl_updater_new(runtime, tds, NULL, config, NULL, "{\"interval\": 0.2, \"attempts\": 1}", &scheduled, &error) != TL_OK)
        fail("tl_updater_new (scheduled)", error);
    tl_updater_start(scheduled, on_report, (void *)&reports);
    struct timespec pause = {0, 20 * 1000 * 1000};
    for (int waited = 0; atomic_load(&reports) < 2 && waited < 1500; waited++) nanosleep(&pause, NULL);
    tl_updater_stop(scheduled);
    if (atomic_load(&reports) < 2) fail("the schedule reported fewer than 2 checks in 30 s", NULL);
    printf("ok: scheduled reports\n");
    tl_updater_free(scheduled);

    /* Relaunch: the kept downloads, the updated set loaded from the cache. */
    tl_runtime_free(runtime);
    runtime = NULL;
    if (tl_runtime_new_from_downloads(inputs, cache, tds, NULL, config, NULL, &runtime, &error) != TL_OK)
        fail("tl_runtime_new_from_downloads (relaunch)", error);
    print_set("relaunched", runtime);
    tl_runtime_free(runtime);
    tl_inputs_free(inputs);
    free(tds);
    free(config);
    free(missing);
    return 0;
}
