/*
 * A C host of the protection runtime: compiled against include/trackerless.h and linked with the
 * TrackerlessC library by CAPITests, which checks what it prints.
 *
 * usage: protection_test CACHE_DIR TDS.json OTHER_TDS.json BLOCKED_URL NEWLY_BLOCKED_URL
 * Builds a runtime from TDS.json (android bridge) and a user allowlist given as bytes in CACHE_DIR, refuses a second runtime on the
 * same directory, loads the set from the cache at the next launch,
 * decides and classifies BLOCKED_URL on https://news.example/, refuses a bad update (the set
 * unchanged), applies OTHER_TDS.json, which blocks NEWLY_BLOCKED_URL too (an engine taken before
 * still decides as before), toggles news.example off and on, counts a load in the statistics. Prints "ok: ..." for each check passed and "name: json" lines; exits 1 on a failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trackerless.h"

static const char *site = "https://news.example/";

static void fail(const char *what, const char *detail) {
    fprintf(stderr, "protection_test: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(1);
}

/* The set's info JSON; exits on a failure. */
static char *info(const tl_protection_set *set) {
    char *json = NULL;
    if (tl_protection_set_info_json(set, &json) != TL_OK || !json) fail("tl_protection_set_info_json", NULL);
    return json;
}

/* The set's 64-hex-digit identity, copied into `identity`. */
static void identity_of(const tl_protection_set *set, char identity[65]) {
    char *json = info(set);
    const char *start = strstr(json, "\"identity\":\"");
    if (!start || strlen(start) < 12 + 64) fail("no identity in", json);
    memcpy(identity, start + 12, 64);
    identity[64] = 0;
    tl_string_free(json);
}

static uint32_t decide(const tl_protection_set *set, const char *url) {
    tl_engine *engine = NULL;
    uint32_t flags = 0;
    if (tl_protection_set_engine(set, &engine) != TL_OK) fail("tl_protection_set_engine", NULL);
    if (tl_engine_decide(engine, url, site, NULL, TL_RESOURCE_SCRIPT, NULL, &flags) != TL_OK) fail("tl_engine_decide", url);
    tl_engine_free(engine);
    return flags;
}

int main(int argc, char **argv) {
    if (argc != 6) fail("usage: protection_test CACHE_DIR TDS.json OTHER_TDS.json BLOCKED_URL NEWLY_BLOCKED_URL", NULL);
    const char *cache = argv[1], *blocked_url = argv[4], *newly_blocked_url = argv[5];
    char *error = NULL;

    tl_inputs *inputs = tl_inputs_new();
    tl_runtime *runtime = NULL;
    if (tl_runtime_new(inputs, cache, &runtime, &error) != TL_ERROR_INVALID_ARGUMENT || runtime) fail("inputs without a tds were accepted", NULL);
    printf("ok: no tds refused: %s\n", error);
    tl_string_free(error);
    error = NULL;
    if (tl_inputs_set_scripts(inputs, "smoke-signals", NULL, 0, &error) != TL_ERROR_INVALID_ARGUMENT) fail("an unknown bridge was accepted", NULL);
    tl_string_free(error);
    error = NULL;
    if (tl_inputs_set_scripts(inputs, "android", "TrackerlessBridge", 1, &error) != TL_OK) fail("tl_inputs_set_scripts", error);
    if (tl_inputs_set_file(inputs, TL_INPUT_TDS, argv[2]) != TL_OK) fail("tl_inputs_set_file", argv[2]);
    const char *allowlist = "[\"shop.example\"]";
    if (tl_inputs_set_bytes(inputs, TL_INPUT_USER_ALLOWLIST, allowlist, strlen(allowlist), "allowlist.json") != TL_OK)
        fail("tl_inputs_set_bytes", allowlist);

    /* Built, then loaded from the cache by a second runtime. */
    if (tl_runtime_new(inputs, cache, &runtime, &error) != TL_OK) fail("tl_runtime_new", error);
    tl_protection_set *set = NULL;
    if (tl_runtime_current_set(runtime, &set) != TL_OK) fail("tl_runtime_current_set", NULL);
    char *json = info(set);
    printf("info: %s\n", json);
    tl_string_free(json);
    if (tl_protection_set_rule_lists_json(set, &json) != TL_OK) fail("tl_protection_set_rule_lists_json", NULL);
    printf("lists: %s\n", json);
    tl_string_free(json);
    if (tl_protection_set_scripts_json(set, &json) != TL_OK) fail("tl_protection_set_scripts_json", NULL);
    if (!strstr(json, "\"handler\":\"TrackerlessBridge\"")) fail("the scripts do not post to TrackerlessBridge", NULL);
    if (!strstr(json, "handler.postMessage") || strstr(json, "messageHandlers")) fail("the scripts do not use the android bridge", NULL);
    printf("ok: scripts for the android bridge\n");
    tl_string_free(json);

    uint32_t flags = decide(set, blocked_url);
    if (!(flags & TL_DECISION_BLOCKED)) fail("the set's engine does not block", blocked_url);
    if (decide(set, newly_blocked_url) & TL_DECISION_BLOCKED) fail("the first set blocks", newly_blocked_url);
    tl_resolver *resolver = NULL;
    if (tl_protection_set_resolver(set, &resolver) != TL_OK) fail("tl_protection_set_resolver", NULL);
    if (tl_resolver_classify(resolver, blocked_url, site, "script", &json, &error) != TL_OK) fail("tl_resolver_classify", error);
    printf("classified: %s\n", json);
    tl_string_free(json);
    tl_resolver_free(resolver);

    char first[65];
    identity_of(set, first);
    /* One runtime per cache directory: a second one is refused while the first lives. */
    tl_runtime *second = NULL;
    if (tl_runtime_new(inputs, cache, &second, &error) != TL_ERROR_IO || second) fail("a second runtime on the cache was accepted", NULL);
    printf("ok: second runtime refused: %s\n", error);
    tl_string_free(error);
    error = NULL;
    /* The next launch: loaded from the cache. The set taken before stays usable. */
    tl_runtime_free(runtime);
    if (tl_runtime_new(inputs, cache, &runtime, &error) != TL_OK) fail("tl_runtime_new from the cache", error);
    tl_protection_set *cached = NULL;
    tl_runtime_current_set(runtime, &cached);
    json = info(cached);
    printf("cached: %s\n", json);
    tl_string_free(json);
    if (!(decide(cached, blocked_url) & TL_DECISION_BLOCKED)) fail("the cached set's engine does not block", blocked_url);
    if (!(decide(set, blocked_url) & TL_DECISION_BLOCKED)) fail("the first set's engine stopped blocking", blocked_url);
    tl_protection_set_free(cached);
    /* shop.example is off through the user allowlist input (until an update without it). */
    int allowed = -1, protected_site = -1;
    tl_runtime_site_protection(runtime, "shop.example", &allowed);
    tl_runtime_site_protection(runtime, "news.example", &protected_site);
    if (allowed != 0 || protected_site != 1) fail("the user allowlist given as bytes is not in effect", NULL);
    printf("ok: user allowlist from bytes: shop.example off, news.example on\n");

    /* A bad update: refused, naming the input; the set stays. */
    tl_engine *old_engine = NULL;
    tl_protection_set_engine(set, &old_engine);
    const char *bad = "{\"trackers\": [1], \"entities\": {}, \"domains\": {}}";
    tl_inputs *update = tl_inputs_new();
    tl_inputs_set_scripts(update, "android", "TrackerlessBridge", 1, NULL);
    tl_inputs_set_bytes(update, TL_INPUT_TDS, bad, strlen(bad), "downloaded-tds.json");
    tl_protection_set *updated = NULL;
    if (tl_runtime_update(runtime, update, &updated, &error) != TL_ERROR_INVALID_INPUT || updated) fail("a bad update was applied", NULL);
    printf("ok: bad update refused: %s\n", error);
    tl_string_free(error);
    error = NULL;
    tl_protection_set *current = NULL;
    char now[65];
    tl_runtime_current_set(runtime, &current);
    identity_of(current, now);
    if (strcmp(now, first) != 0) fail("a refused update changed the set", now);
    tl_protection_set_free(current);
    printf("ok: set unchanged after the refused update\n");

    /* A good update: a new set; the old engine keeps working. */
    tl_inputs_set_file(update, TL_INPUT_TDS, argv[3]);
    if (tl_runtime_update(runtime, update, &updated, &error) != TL_OK || !updated) fail("tl_runtime_update", error);
    identity_of(updated, now);
    if (strcmp(now, first) == 0) fail("the update kept the identity", now);
    if (!(decide(updated, newly_blocked_url) & TL_DECISION_BLOCKED)) fail("the new set does not block", newly_blocked_url);
    tl_protection_set *after = NULL;
    tl_runtime_current_set(runtime, &after);
    if (!(decide(after, newly_blocked_url) & TL_DECISION_BLOCKED)) fail("the current set is not the new one", NULL);
    tl_protection_set_free(after);
    uint32_t old_flags = 0;
    if (tl_engine_decide(old_engine, blocked_url, site, NULL, TL_RESOURCE_SCRIPT, NULL, &old_flags) != TL_OK
        || !(old_flags & TL_DECISION_BLOCKED))
        fail("the engine taken before the update stopped blocking", NULL);
    tl_engine_decide(old_engine, newly_blocked_url, site, NULL, TL_RESOURCE_SCRIPT, NULL, &old_flags);
    if (old_flags & TL_DECISION_BLOCKED) fail("the engine taken before the update changed", NULL);
    printf("ok: updated, the old engine still decides\n");
    tl_engine_free(old_engine);
    tl_protection_set_free(updated);
    tl_inputs_free(update);

    /* Site toggles. */
    int enabled = -1;
    if (tl_runtime_set_site_protection(runtime, "news.example", 0, &error) != TL_OK) fail("tl_runtime_set_site_protection", error);
    tl_runtime_site_protection(runtime, "news.example", &enabled);
    if (tl_runtime_navigation_json(runtime, "https://news.example/story", &json) != TL_OK) fail("tl_runtime_navigation_json", NULL);
    printf("off: %d %s\n", enabled, json);
    tl_string_free(json);
    tl_runtime_set_site_protection(runtime, "news.example", 1, NULL);
    tl_runtime_site_protection(runtime, "news.example", &enabled);
    tl_runtime_navigation_json(runtime, "https://news.example/story", &json);
    printf("on: %d %s\n", enabled, json);
    tl_string_free(json);

    /* The runtime's statistics. */
    tl_stats *stats = NULL;
    if (tl_runtime_stats(runtime, &stats) != TL_OK) fail("tl_runtime_stats", NULL);
    tl_stats_commit_navigation(stats, "1", site);
    if (tl_stats_observe(stats, "1", blocked_url, "script", 1) != TL_OK) fail("tl_stats_observe", NULL);
    tl_stats_snapshot(stats, "1", &json);
    printf("snapshot: %s\n", json);
    tl_string_free(json);
    tl_stats_free(stats);

    /* The WebKit target: an unknown name is refused; WebKitGTK 2.50's lists name top-document, the
     * default (Safari 15, the oldest) lists do not, and the two sets have different identities. */
    tl_inputs *gtk = tl_inputs_new();
    tl_inputs_set_file(gtk, TL_INPUT_TDS, argv[3]);
    if (tl_inputs_set_webkit(gtk, "webkitgtk-1.0", &error) != TL_ERROR_INVALID_ARGUMENT) fail("an unknown WebKit was accepted", NULL);
    printf("ok: unknown WebKit refused: %s\n", error);
    tl_string_free(error);
    error = NULL;
    tl_protection_set *oldest = NULL, *newer = NULL;
    if (tl_runtime_update(runtime, gtk, &oldest, &error) != TL_OK) fail("tl_runtime_update for the oldest WebKit", error);
    if (tl_inputs_set_webkit(gtk, "webkitgtk-2.52", &error) != TL_OK) fail("tl_inputs_set_webkit", error);
    if (tl_runtime_update(runtime, gtk, &newer, &error) != TL_OK) fail("tl_runtime_update for WebKitGTK 2.52", error);
    char oldest_id[65], newer_id[65];
    identity_of(oldest, oldest_id);
    identity_of(newer, newer_id);
    if (strcmp(oldest_id, newer_id) == 0) fail("the WebKit target is not part of the set's identity", NULL);
    tl_protection_set_rule_lists_json(oldest, &json);
    if (strstr(json, "top-document") || !strstr(json, "top-frame")) fail("the oldest WebKit's lists name top-document", NULL);
    tl_string_free(json);
    tl_protection_set_rule_lists_json(newer, &json);
    if (!strstr(json, "top-document")) fail("WebKitGTK 2.52's lists do not name top-document", NULL);
    tl_string_free(json);
    printf("ok: lists for the oldest WebKit and for WebKitGTK 2.52, two identities\n");
    tl_protection_set_free(oldest);
    tl_protection_set_free(newer);
    tl_inputs_free(gtk);

    /* A cache directory that cannot be created. */
    tl_runtime *nowhere = NULL;
    if (tl_runtime_new(inputs, "/dev/null/trackerless-cache", &nowhere, &error) != TL_ERROR_IO || nowhere) fail("an unwritable cache was accepted", NULL);
    printf("ok: unwritable cache: %s\n", error);
    tl_string_free(error);

    tl_protection_set_free(set);
    tl_runtime_free(runtime);
    tl_inputs_free(inputs);
    return 0;
}
