/*
 * A C host in engine mode that asks which rule decided a load and puts it on the dashboard:
 * compiled against include/trackerless.h and linked with the TrackerlessC library by CAPITests.
 *
 * usage: engine_rule_test TDS.json
 * Makes an engine from two lists, asks tl_engine_decide_rule for a blocked load (list 1, rule 2:
 * the rules before it do not block it) and an allowed one (-1), then observes the blocked load
 * with its rule and source in tab "3" and prints the tab's snapshot on the last line. Prints
 * "ok: ..." for each check; exits 1 on a failed one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trackerless.h"
#include "read_file.h"

static void fail(const char *what) {
    fprintf(stderr, "engine_rule_test: %s\n", what);
    exit(1);
}

int main(int argc, char **argv) {
    if (argc != 2) fail("usage: engine_rule_test TDS.json");
    const char *lists[2] = {
        "[{\"trigger\":{\"url-filter\":\"never-matches\"},\"action\":{\"type\":\"block\"}}]",
        "[{\"trigger\":{\"url-filter\":\"pixel\"},\"action\":{\"type\":\"css-display-none\",\"selector\":\".ad\"}},"
        "{\"trigger\":{\"url-filter\":\"other\\\\.example\"},\"action\":{\"type\":\"block\"}},"
        "{\"trigger\":{\"url-filter\":\"ads\\\\.example/pixel\"},\"action\":{\"type\":\"block\"}}]",
    };
    size_t lengths[2] = {strlen(lists[0]), strlen(lists[1])};
    tl_engine *engine = NULL;
    char *error = NULL;
    if (tl_engine_new_from_rule_lists(lists, lengths, 2, &engine, &error) != TL_OK) fail(error);

    const char *blocked_url = "https://ads.example/pixel.gif";
    const char *site = "https://news.example/";
    uint32_t flags = 0;
    int64_t list = -2, rule = -2;
    if (tl_engine_decide_rule(engine, blocked_url, site, NULL, TL_RESOURCE_IMAGE, NULL, &flags, &list, &rule) != TL_OK)
        fail("tl_engine_decide_rule refused a load");
    if (!(flags & TL_DECISION_BLOCKED)) fail("the pixel is not blocked");
    if (list != 1 || rule != 2) fail("the block is not named as list 1, rule 2");
    printf("ok: blocked by list %lld rule %lld\n", (long long)list, (long long)rule);
    uint32_t plain = 0;
    tl_engine_decide(engine, blocked_url, site, NULL, TL_RESOURCE_IMAGE, NULL, &plain);
    if (plain != flags) fail("tl_engine_decide_rule's flags differ from tl_engine_decide's");
    if (tl_engine_decide_rule(engine, "https://news.example/app.js", site, NULL, TL_RESOURCE_SCRIPT, NULL, &flags, &list, &rule) != TL_OK)
        fail("tl_engine_decide_rule refused an allowed load");
    if ((flags & TL_DECISION_BLOCKED) || list != -1 || rule != -1) fail("an allowed load names a rule");
    printf("ok: an allowed load names none\n");
    if (tl_engine_decide_rule(engine, blocked_url, site, NULL, TL_RESOURCE_IMAGE, NULL, &flags, NULL, &rule) != TL_ERROR_INVALID_ARGUMENT)
        fail("a NULL list was accepted");

    size_t tds_length = 0;
    char *tds = read_file(argv[1], &tds_length);
    tl_resolver *resolver = NULL;
    if (tl_resolver_new(tds, tds_length, NULL, 0, NULL, 0, NULL, 0, &resolver, &error) != TL_OK) fail(error);
    tl_stats *stats = NULL;
    if (tl_stats_new(resolver, "0123456789abcdef0123456789abcdef", &stats, &error) != TL_OK) fail(error);
    if (tl_stats_commit_navigation(stats, "3", site) != TL_OK) fail("tl_stats_commit_navigation");
    tl_engine_decide_rule(engine, blocked_url, site, NULL, TL_RESOURCE_IMAGE, NULL, &flags, &list, &rule);
    const char *source = "{\"kind\":\"tracker\",\"name\":\"ads.example\",\"path\":\"trackers[\\\"ads.example\\\"].rules[0]\"}";
    if (tl_stats_observe_rule(stats, "3", blocked_url, "image", 1, list, rule, "{not json") != TL_ERROR_INVALID_INPUT)
        fail("a source that is not JSON was accepted");
    if (tl_stats_observe_rule(stats, "3", blocked_url, "image", 1, list, rule, source) != TL_OK) fail("tl_stats_observe_rule");
    printf("ok: observed with its rule\n");

    char *snapshot = NULL;
    if (tl_stats_snapshot(stats, "3", &snapshot) != TL_OK) fail("tl_stats_snapshot");
    printf("%s\n", snapshot);

    tl_string_free(snapshot);
    tl_stats_free(stats);
    tl_resolver_free(resolver);
    tl_engine_free(engine);
    free(tds);
    return 0;
}
