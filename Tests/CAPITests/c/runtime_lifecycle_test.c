/*
 * A C host's runtime over its lifetime: compiled against include/trackerless.h and linked with
 * the TrackerlessC library by CAPITests, which checks what it prints.
 *
 * usage: runtime_lifecycle_test CACHE_DIR BROKEN_CACHE_DIR TDS.json BLOCKED_URL
 * - Global Privacy Control set before or after tl_inputs_set_scripts gives the same set;
 * - tl_inputs_set_block_keepalive: in the blocking script's settings, kept by tl_inputs_set_scripts;
 * - the statistics' totals saved (tl_runtime_save_stats) and read (tl_stats_totals);
 * - nothing went wrong with the cache (tl_runtime_storage_error);
 * - a statistics handle outliving its runtime: a new runtime opens the cache while it lives,
 *   and finds the freed runtime's totals there;
 * - BROKEN_CACHE_DIR, whose privacy-totals is a directory: the runtime runs, says why the totals
 *   are not saved, and tl_runtime_save_stats fails.
 * Prints "ok: ..." for each check passed and "name: json" lines; exits 1 on a failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trackerless.h"

static void fail(const char *what, const char *detail) {
    fprintf(stderr, "runtime_lifecycle_test: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(1);
}

/* The identity of the set built from `inputs` (64 hex digits and a NUL). */
static void identity_of(const tl_inputs *inputs, char identity[65]) {
    tl_protection_set *set = NULL;
    char *error = NULL, *json = NULL;
    if (tl_protection_set_build(inputs, &set, &error) != TL_OK) fail("tl_protection_set_build", error);
    if (tl_protection_set_info_json(set, &json) != TL_OK) fail("tl_protection_set_info_json", NULL);
    const char *start = strstr(json, "\"identity\":\"");
    if (!start || strlen(start) < 12 + 64) fail("no identity in", json);
    memcpy(identity, start + 12, 64);
    identity[64] = 0;
    tl_string_free(json);
    tl_protection_set_free(set);
}

/* Whether the scripts of the set built from `inputs` (tl_protection_set_scripts_json) contain `text`. */
static int blocking_script_has(const tl_inputs *inputs, const char *text) {
    tl_protection_set *set = NULL;
    char *error = NULL, *json = NULL;
    if (tl_protection_set_build(inputs, &set, &error) != TL_OK) fail("tl_protection_set_build", error);
    if (tl_protection_set_scripts_json(set, &json) != TL_OK) fail("tl_protection_set_scripts_json", NULL);
    int found = strstr(json, text) != NULL;
    tl_string_free(json);
    tl_protection_set_free(set);
    return found;
}

static tl_inputs *inputs_of(const char *tds) {
    tl_inputs *inputs = tl_inputs_new();
    if (!inputs || tl_inputs_set_file(inputs, TL_INPUT_TDS, tds) != TL_OK) fail("tl_inputs_set_file", tds);
    return inputs;
}

static void print_totals(const char *name, tl_stats *stats) {
    char *json = NULL;
    if (tl_stats_totals(stats, &json) != TL_OK || !json) fail("tl_stats_totals", NULL);
    printf("%s: %s\n", name, json);
    tl_string_free(json);
}

int main(int argc, char **argv) {
    if (argc != 5) fail("usage: runtime_lifecycle_test CACHE_DIR BROKEN_CACHE_DIR TDS.json BLOCKED_URL", NULL);
    const char *cache = argv[1], *broken = argv[2], *tds = argv[3], *blocked_url = argv[4];
    char *error = NULL;

    /* GPC off, then the script settings: GPC stays off (the order does not matter). */
    tl_inputs *before = inputs_of(tds), *after = inputs_of(tds), *on = inputs_of(tds);
    tl_inputs_set_global_privacy_control(before, 0);
    if (tl_inputs_set_scripts(before, "webkit", NULL, 0, &error) != TL_OK) fail("tl_inputs_set_scripts", error);
    if (tl_inputs_set_scripts(after, "webkit", NULL, 0, &error) != TL_OK) fail("tl_inputs_set_scripts", error);
    tl_inputs_set_global_privacy_control(after, 0);
    if (tl_inputs_set_scripts(on, "webkit", NULL, 0, &error) != TL_OK) fail("tl_inputs_set_scripts", error);
    char before_id[65], after_id[65], on_id[65];
    identity_of(before, before_id);
    identity_of(after, after_id);
    identity_of(on, on_id);
    if (strcmp(before_id, after_id) != 0) fail("tl_inputs_set_scripts reset Global Privacy Control", NULL);
    if (strcmp(before_id, on_id) == 0) fail("Global Privacy Control off did not change the set", NULL);
    printf("ok: Global Privacy Control kept by tl_inputs_set_scripts\n");

    /* Unload beacons decided in the blocking script: kept by tl_inputs_set_scripts, in the
     * blocking script's settings, and another set. */
    tl_inputs *keepalive = inputs_of(tds);
    if (tl_inputs_set_block_keepalive(keepalive, 1) != TL_OK) fail("tl_inputs_set_block_keepalive", NULL);
    if (tl_inputs_set_scripts(keepalive, "webkit", NULL, 0, &error) != TL_OK) fail("tl_inputs_set_scripts", error);
    char keepalive_id[65];
    identity_of(keepalive, keepalive_id);
    if (strcmp(keepalive_id, on_id) == 0) fail("tl_inputs_set_block_keepalive did not change the set", NULL);
    if (!blocking_script_has(keepalive, "blockKeepalive\\\":true")) fail("no blockKeepalive in the blocking script", NULL);
    if (blocking_script_has(on, "blockKeepalive\\\":true")) fail("blockKeepalive on by default", NULL);
    printf("ok: unload beacons decided in the blocking script, kept by tl_inputs_set_scripts\n");
    tl_inputs_free(keepalive);
    tl_inputs_free(after);
    tl_inputs_free(on);

    /* Two pages, a tracker blocked on the first; saved and read. */
    tl_runtime *runtime = NULL;
    if (tl_runtime_new(before, cache, &runtime, &error) != TL_OK) fail("tl_runtime_new", error);
    tl_stats *stats = NULL;
    if (tl_runtime_stats(runtime, &stats) != TL_OK) fail("tl_runtime_stats", NULL);
    tl_stats_commit_navigation(stats, "1", "https://news.example/");
    if (tl_stats_observe(stats, "1", blocked_url, "script", 1) != TL_OK) fail("tl_stats_observe", NULL);
    tl_stats_commit_navigation(stats, "1", "https://news.example/next");
    if (tl_runtime_save_stats(runtime, &error) != TL_OK) fail("tl_runtime_save_stats", error);
    printf("ok: saved\n");
    print_totals("totals", stats);
    char *message = (char *)"unset";
    if (tl_runtime_storage_error(runtime, &message) != TL_OK) fail("tl_runtime_storage_error", NULL);
    if (message) fail("a storage error on a good cache", message);
    printf("ok: no storage error\n");

    /* The runtime freed, its statistics handle kept: a new runtime opens the cache. */
    tl_runtime_free(runtime);
    runtime = NULL;
    if (tl_runtime_new(before, cache, &runtime, &error) != TL_OK) fail("a new runtime while a freed one's statistics live", error);
    printf("ok: new runtime while the freed runtime's statistics live\n");
    tl_stats_commit_navigation(stats, "1", "https://news.example/third");
    print_totals("old handle", stats);
    tl_stats *relaunched = NULL;
    tl_runtime_stats(runtime, &relaunched);
    print_totals("relaunched", relaunched);
    tl_stats_free(relaunched);
    tl_stats_free(stats);
    tl_runtime_free(runtime);

    /* A store that cannot be opened: protection runs, the host is told, saving fails. */
    runtime = NULL;
    if (tl_runtime_new(before, broken, &runtime, &error) != TL_OK) fail("tl_runtime_new with an unopenable store", error);
    if (tl_runtime_storage_error(runtime, &message) != TL_OK || !message) fail("no storage error for an unopenable store", NULL);
    printf("storage error: %s\n", message);
    tl_string_free(message);
    if (tl_runtime_save_stats(runtime, &error) != TL_ERROR_IO) fail("saving into an unopenable store succeeded", NULL);
    printf("save error: %s\n", error);
    tl_string_free(error);
    tl_runtime_free(runtime);
    tl_inputs_free(before);
    return 0;
}
