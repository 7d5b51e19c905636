/*
 * A C host of the scripts and statistics, as an Android or WebView2 host would be: compiled
 * against include/trackerless.h and linked with the TrackerlessC library by CAPITests.
 *
 * usage: stats_test TDS.json
 * Renders the scripts for the android bridge, makes a resolver and statistics with the scripts'
 * secret, navigates tab "7" to https://news.example/, posts a message of the inference script
 * reporting a tracker script blocked and a forged one (wrong secret), observes one load natively,
 * and prints the tab's snapshot on the last line. Prints "ok: ..." for each check; exits 1 on a
 * failed one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trackerless.h"
#include "read_file.h"

static void fail(const char *what) {
    fprintf(stderr, "stats_test: %s\n", what);
    exit(1);
}

/* The string value of "key" in a flat JSON object made by the library (no escapes in it). */
static char *string_member(const char *json, const char *key) {
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":\"", key);
    const char *start = strstr(json, pattern);
    if (!start) return NULL;
    start += strlen(pattern);
    const char *end = strchr(start, '"');
    char *value = malloc((size_t)(end - start) + 1);
    memcpy(value, start, (size_t)(end - start));
    value[end - start] = 0;
    return value;
}

int main(int argc, char **argv) {
    if (argc != 2) fail("usage: stats_test TDS.json");
    size_t tds_length = 0;
    char *tds = read_file(argv[1], &tds_length);
    char *error = NULL;

    char *scripts = NULL;
    if (tl_scripts_render(tds, tds_length, NULL, 0, "android", 1, &scripts, &error) != TL_OK) fail(error);
    char *secret = string_member(scripts, "secret");
    if (!secret || strlen(secret) != 32) fail("no 32-digit secret in the rendered scripts");
    if (!strstr(scripts, "\"blocking\":\"") || !strstr(scripts, "\"inference\":\"")) fail("a script is missing");
    printf("ok: scripts rendered, %zu bytes of JSON\n", strlen(scripts));
    if (tl_scripts_render(tds, tds_length, NULL, 0, "carrier-pigeon", 0, &scripts, &error) != TL_ERROR_INVALID_ARGUMENT)
        fail("an unknown bridge was accepted");
    printf("ok: unknown bridge refused: %s\n", error);
    tl_string_free(error);

    tl_resolver *resolver = NULL;
    if (tl_resolver_new(tds, tds_length, NULL, 0, NULL, 0, NULL, 0, &resolver, &error) != TL_OK) fail(error);
    tl_stats *stats = NULL;
    if (tl_stats_new(resolver, secret, &stats, &error) != TL_OK) fail(error);
    if (tl_stats_commit_navigation(stats, "7", "https://news.example/") != TL_OK) fail("tl_stats_commit_navigation");

    char message[1024];
    snprintf(message, sizeof message,
             "{\"trackerless\":1,\"secret\":\"%s\",\"script\":\"inference\",\"page\":{\"id\":\"0123456789abcdef\","
             "\"url\":\"https://news.example/\",\"frame\":\"https://news.example/\",\"isTopFrame\":true},\"seq\":0,"
             "\"events\":[{\"kind\":\"request\",\"url\":\"https://social.example/widget.js\",\"type\":\"script\",\"state\":\"blocked\"}]}",
             secret);
    char *rejection = NULL;
    if (tl_stats_receive(stats, "7", message, strlen(message), &rejection) != TL_OK) fail(rejection);
    printf("ok: message accepted\n");

    char *forged = malloc(strlen(message) + 1);
    memcpy(forged, message, strlen(message) + 1);
    char *at = strstr(forged, secret);
    at[0] = at[0] == 'a' ? 'b' : 'a';
    if (tl_stats_receive(stats, "7", forged, strlen(forged), &rejection) != TL_ERROR_INVALID_INPUT) fail("a forged message was accepted");
    printf("ok: forged message rejected: %s\n", rejection);
    tl_string_free(rejection);
    const char *huge = "{\"trackerless\":99999999999999999999}";
    if (tl_stats_receive(stats, "7", huge, strlen(huge), NULL) != TL_ERROR_INVALID_INPUT) fail("a 20-digit version was accepted");

    if (tl_stats_observe(stats, "7", "https://ads.example/pixel.gif", "image", 1) != TL_OK) fail("tl_stats_observe");
    if (tl_stats_observe(stats, "no-such-tab", "https://ads.example/pixel.gif", NULL, 1) != TL_ERROR_INVALID_INPUT)
        fail("an observation for a tab without a page was accepted");
    printf("ok: native observation recorded\n");

    char *snapshot = NULL;
    if (tl_stats_snapshot(stats, "7", &snapshot) != TL_OK) fail("tl_stats_snapshot");
    printf("%s\n", snapshot);

    tl_string_free(snapshot);
    tl_stats_free(stats);
    tl_resolver_free(resolver);
    tl_string_free(scripts);
    free(secret);
    free(forged);
    free(tds);
    return 0;
}
