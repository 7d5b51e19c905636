/*
 * A C runtime host that names what the engine's deciding rule was built from: compiled against
 * include/trackerless.h and linked with the TrackerlessC library by CAPITests.
 *
 * usage: rule_source_test TDS.json
 * Makes a runtime on TDS.json with a cache directory beside it, twice (the second loads the set
 * from the cache), and in each asks the set's engine which rule blocks
 * https://metrics.example/collect on news.example (tl_engine_decide_rule) and the set what that
 * rule was built from (tl_protection_set_rule_source). Prints "ok: ..." for each check and the
 * two sources on the last two lines; exits 1 on a failed check.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trackerless.h"

static void fail(const char *what) {
    fprintf(stderr, "rule_source_test: %s\n", what);
    exit(1);
}

/* The source of the rule that blocks the collect image, from a runtime on `cache`. */
static char *blocking_source(const tl_inputs *inputs, const char *cache) {
    tl_runtime *runtime = NULL;
    char *error = NULL;
    if (tl_runtime_new(inputs, cache, &runtime, &error) != TL_OK) fail(error);
    tl_protection_set *set = NULL;
    if (tl_runtime_current_set(runtime, &set) != TL_OK) fail("tl_runtime_current_set");
    tl_engine *engine = NULL;
    if (tl_protection_set_engine(set, &engine) != TL_OK) fail("tl_protection_set_engine");
    uint32_t flags = 0;
    int64_t list = -1, rule = -1;
    if (tl_engine_decide_rule(engine, "https://metrics.example/collect?id=1", "https://news.example/", NULL, TL_RESOURCE_IMAGE,
                              NULL, &flags, &list, &rule) != TL_OK)
        fail("tl_engine_decide_rule");
    if (!(flags & TL_DECISION_BLOCKED) || list < 0 || rule < 0) fail("the collect image is not blocked by a named rule");
    char *source = NULL;
    if (tl_protection_set_rule_source(set, list, rule, &source) != TL_OK || source == NULL) fail("no source for the blocking rule");
    char *none = (char *)"unset";
    if (tl_protection_set_rule_source(set, list, 1000000, &none) != TL_OK || none != NULL) fail("a rule out of range has a source");
    if (tl_protection_set_rule_source(set, -1, rule, &none) != TL_OK || none != NULL) fail("list -1 has a source");
    if (tl_protection_set_rule_source(set, list, rule, NULL) != TL_ERROR_INVALID_ARGUMENT) fail("a NULL json was accepted");
    printf("ok: list %lld rule %lld has a source, out of range none\n", (long long)list, (long long)rule);
    tl_engine_free(engine);
    tl_protection_set_free(set);
    tl_runtime_free(runtime);
    return source;
}

int main(int argc, char **argv) {
    if (argc != 2) fail("usage: rule_source_test TDS.json");
    char cache[4096];
    snprintf(cache, sizeof cache, "%s.cache", argv[1]);
    tl_inputs *inputs = tl_inputs_new();
    if (tl_inputs_set_file(inputs, TL_INPUT_TDS, argv[1]) != TL_OK) fail("tl_inputs_set_file");
    char *built = blocking_source(inputs, cache);
    char *cached = blocking_source(inputs, cache);
    printf("%s\n%s\n", built, cached);
    tl_string_free(built);
    tl_string_free(cached);
    tl_inputs_free(inputs);
    return 0;
}
