/*
 * A C host of the resolver: compiled against include/trackerless.h and linked with the TrackerlessC
 * library by CAPITests, which checks its answers against a reference suite.
 *
 * usage: resolver_test TDS.json SURROGATES.txt|- CASES.tsv
 *   CASES.tsv: "request_url<TAB>top_url<TAB>type" a line. Prints the classification JSON a line,
 *   and fails when one about a tracker has no "decidedBy".
 * Then checks that a refused tds gives TL_ERROR_INVALID_INPUT with a message, and prints "ok: ...".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trackerless.h"
#include "read_file.h"

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: resolver_test TDS.json SURROGATES.txt|- CASES.tsv\n"); return 1; }
    size_t tds_length = 0, surrogates_length = 0, cases_length = 0;
    char *tds = read_file(argv[1], &tds_length);
    char *surrogates = strcmp(argv[2], "-") == 0 ? NULL : read_file(argv[2], &surrogates_length);
    char *cases = read_file(argv[3], &cases_length);

    tl_resolver *resolver = NULL;
    char *error = NULL;
    if (tl_resolver_new(tds, tds_length, NULL, 0, NULL, 0, surrogates, surrogates_length, &resolver, &error) != TL_OK) {
        fprintf(stderr, "resolver_test: %s\n", error);
        return 1;
    }
    for (char *line = strtok(cases, "\n"); line; line = strtok(NULL, "\n")) {
        char *site = strchr(line, '\t');
        char *type = site ? strchr(site + 1, '\t') : NULL;
        if (!site || !type) { fprintf(stderr, "resolver_test: a line without two tabs\n"); return 1; }
        *site++ = 0;
        *type++ = 0;
        char *json = NULL;
        char *message = NULL;
        if (tl_resolver_classify(resolver, line, site, type, &json, &message) != TL_OK) {
            printf("error: %s\n", message);
            tl_string_free(message);
            continue;
        }
        /* Every decision about a tracker names the entry that decided it. */
        if (strstr(json, "\"tracker\":") && !strstr(json, "\"decidedBy\":{\"kind\":")) {
            fprintf(stderr, "resolver_test: no decidedBy in %s\n", json);
            return 1;
        }
        printf("%s\n", json);
        tl_string_free(json);
    }

    const char *bad = "{\"trackers\": [1], \"entities\": {}, \"domains\": {}}";
    tl_resolver *refused = NULL;
    char *message = NULL;
    if (tl_resolver_new(bad, strlen(bad), NULL, 0, NULL, 0, NULL, 0, &refused, &message) != TL_ERROR_INVALID_INPUT || refused || !message) {
        fprintf(stderr, "resolver_test: a tds whose trackers are an array was accepted\n");
        return 1;
    }
    printf("ok: refused: %s\n", message);
    tl_string_free(message);
    if (tl_resolver_classify(resolver, NULL, "https://a.example/", "script", &message, NULL) != TL_ERROR_INVALID_ARGUMENT) {
        fprintf(stderr, "resolver_test: a NULL request URL was accepted\n");
        return 1;
    }
    tl_resolver_free(resolver);
    tl_resolver_free(NULL);
    free(tds);
    free(surrogates);
    free(cases);
    return 0;
}
