/*
 * A C host that runs a reference suite through a protection set: compiled against
 * include/trackerless.h and linked with the TrackerlessC library by CAPITests, which checks every
 * answer against the suite's expectation.
 *
 * usage: suites_test CACHE_DIR TDS.json CONFIG.json|- ALLOWLIST.json|- SURROGATES.txt|- CASES.tsv
 *   CASES.tsv: "request_url<TAB>top_url<TAB>site_url<TAB>tr_type<TAB>resource_type" a line:
 *   top_url and resource_type (tl_resource_type) are the load the engine decides, site_url and
 *   tr_type (a Tracker Radar type) what the resolver classifies.
 * Builds a runtime from the files (tl_inputs_set_file) with the cache directory, takes its current
 * set's engine and resolver, and prints for each case "flags<TAB>classification-json".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trackerless.h"
#include "read_file.h"

static void set_optional(tl_inputs *inputs, tl_input_kind kind, const char *path) {
    if (strcmp(path, "-") != 0 && tl_inputs_set_file(inputs, kind, path) != TL_OK) {
        fprintf(stderr, "suites_test: tl_inputs_set_file refused %s\n", path);
        exit(1);
    }
}

int main(int argc, char **argv) {
    if (argc != 7) {
        fprintf(stderr, "usage: suites_test CACHE_DIR TDS.json CONFIG.json|- ALLOWLIST.json|- SURROGATES.txt|- CASES.tsv\n");
        return 1;
    }
    tl_inputs *inputs = tl_inputs_new();
    if (!inputs || tl_inputs_set_file(inputs, TL_INPUT_TDS, argv[2]) != TL_OK) { fprintf(stderr, "suites_test: inputs\n"); return 1; }
    set_optional(inputs, TL_INPUT_PRIVACY_CONFIG, argv[3]);
    set_optional(inputs, TL_INPUT_USER_ALLOWLIST, argv[4]);
    set_optional(inputs, TL_INPUT_SURROGATES, argv[5]);

    tl_runtime *runtime = NULL;
    char *error = NULL;
    if (tl_runtime_new(inputs, argv[1], &runtime, &error) != TL_OK) {
        fprintf(stderr, "suites_test: tl_runtime_new: %s\n", error);
        return 1;
    }
    tl_inputs_free(inputs);
    tl_protection_set *set = NULL;
    tl_engine *engine = NULL;
    tl_resolver *resolver = NULL;
    if (tl_runtime_current_set(runtime, &set) != TL_OK || tl_protection_set_engine(set, &engine) != TL_OK
        || tl_protection_set_resolver(set, &resolver) != TL_OK) {
        fprintf(stderr, "suites_test: the set's engine or resolver\n");
        return 1;
    }

    size_t length = 0;
    char *cases = read_file(argv[6], &length);
    for (char *line = strtok(cases, "\n"); line; line = strtok(NULL, "\n")) {
        char *fields[5];
        for (int i = 0; i < 5; i++) {
            fields[i] = line;
            char *tab = strchr(line, '\t');
            if (!tab && i < 4) { fprintf(stderr, "suites_test: a line without four tabs\n"); return 1; }
            if (tab) { *tab = 0; line = tab + 1; }
        }
        uint32_t flags = 0;
        if (tl_engine_decide(engine, fields[0], fields[1], NULL, (tl_resource_type)atoi(fields[4]), NULL, &flags) != TL_OK) {
            fprintf(stderr, "suites_test: tl_engine_decide refused %s\n", fields[0]);
            return 1;
        }
        char *json = NULL;
        char *message = NULL;
        if (tl_resolver_classify(resolver, fields[0], fields[2], fields[3], &json, &message) != TL_OK) {
            printf("%u\terror: %s\n", flags, message);
            tl_string_free(message);
            continue;
        }
        printf("%u\t%s\n", flags, json);
        tl_string_free(json);
    }
    free(cases);
    tl_engine_free(engine);
    tl_resolver_free(resolver);
    tl_protection_set_free(set);
    tl_runtime_free(runtime);
    return 0;
}
