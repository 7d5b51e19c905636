/*
 * A C host of Trackerless: compiled against include/trackerless.h and linked with the TrackerlessC
 * library by CAPITests (Swift), which compares what it prints with the Swift engine.
 *
 * usage: capi_test LOADS.tsv RULES.json...
 *   LOADS.tsv: one load a line, "type<TAB>url<TAB>top_url<TAB>frame_url" (frame_url may be empty).
 * Prints, for each load, "flags<TAB>actions-json" (each action naming its list and rule; a blocked
 * load's must). Then checks, and prints "ok: ..." or exits 1:
 *   - a refused list gives TL_ERROR_INVALID_INPUT and a message;
 *   - NULL arguments give TL_ERROR_INVALID_ARGUMENT, never a crash;
 *   - the engine read back from its compiled form decides every load the same;
 *   - four threads deciding every load at once get the same answers.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trackerless.h"
#include "read_file.h"

#define MAX_LOADS 20000

typedef struct load {
    int type;
    char *url, *top, *frame;
} load;

static load loads[MAX_LOADS];
static size_t load_count;
static uint32_t expected[MAX_LOADS];

static void read_loads(const char *path) {
    size_t length;
    char *text = read_file(path, &length);
    char *line = strtok(text, "\n");
    while (line && load_count < MAX_LOADS) {
        load *next = &loads[load_count++];
        char *fields[4] = {0};
        for (int i = 0; i < 4; i++) {
            fields[i] = line;
            char *tab = strchr(line, '\t');
            if (tab) { *tab = 0; line = tab + 1; } else { line = line + strlen(line); }
        }
        next->type = atoi(fields[0]);
        next->url = fields[1];
        next->top = fields[2];
        next->frame = (fields[3] && fields[3][0]) ? fields[3] : NULL;
        line = strtok(NULL, "\n");
    }
}

static void fail(const char *what) {
    fprintf(stderr, "capi_test: %s\n", what);
    exit(1);
}

typedef struct thread_work {
    const tl_engine *engine;
    int mismatches;
} thread_work;

static void *decide_all(void *argument) {
    thread_work *work = argument;
    for (int round = 0; round < 3; round++) {
        for (size_t i = 0; i < load_count; i++) {
            uint32_t flags = 0;
            if (tl_engine_decide(work->engine, loads[i].url, loads[i].top, loads[i].frame, (tl_resource_type)loads[i].type, NULL, &flags) != TL_OK
                || flags != expected[i]) {
                work->mismatches++;
            }
        }
    }
    return NULL;
}

int main(int argc, char **argv) {
    /* Up to 64 lists: apple-tds.json's blocking build is 23 (20 companies' lists of their own). */
    if (argc < 3 || argc > 66) fail("usage: capi_test LOADS.tsv RULES.json... (at most 64 lists)");
    if (tl_api_version() != TL_API_VERSION) fail("the library implements another API version");
    read_loads(argv[1]);
    size_t list_count = (size_t)argc - 2;
    const char *lists[64];
    size_t lengths[64];
    for (size_t i = 0; i < list_count; i++) lists[i] = read_file(argv[2 + i], &lengths[i]);
    const char *rules = lists[0];
    size_t rules_length = lengths[0];

    tl_engine *engine = NULL;
    char *error = NULL;
    if (tl_engine_new_from_rule_lists(lists, lengths, list_count, &engine, &error) != TL_OK) {
        fprintf(stderr, "capi_test: %s\n", error);
        return 1;
    }
    for (size_t i = 0; i < load_count; i++) {
        uint32_t flags = 0;
        char *json = NULL;
        if (tl_engine_decide(engine, loads[i].url, loads[i].top, loads[i].frame, (tl_resource_type)loads[i].type, NULL, &flags) != TL_OK)
            fail("tl_engine_decide refused a load");
        if (tl_engine_actions_json(engine, loads[i].url, loads[i].top, loads[i].frame, (tl_resource_type)loads[i].type, NULL, &json) != TL_OK)
            fail("tl_engine_actions_json refused a load");
        /* Every action names its list and rule; a blocked load has at least one action. */
        if ((flags & TL_DECISION_BLOCKED) && (!strstr(json, "\"list\":") || !strstr(json, "\"rule\":")))
            fail("a blocked load's actions do not name their rule");
        expected[i] = flags;
        printf("%u\t%s\n", flags, json);
        tl_string_free(json);
    }

    /* A refused list: the status, and a message naming the rule. */
    const char *bad = "[{\"trigger\": {\"url-filter\": \"(a\"}, \"action\": {\"type\": \"block\"}}]";
    const char *bad_lists[2] = {rules, bad};
    size_t bad_lengths[2] = {rules_length, strlen(bad)};
    tl_engine *refused = NULL;
    char *message = NULL;
    if (tl_engine_new_from_rule_lists(bad_lists, bad_lengths, 2, &refused, &message) != TL_ERROR_INVALID_INPUT || refused || !message)
        fail("a list with a bad regular expression was not refused");
    printf("ok: refused: %s\n", message);
    tl_string_free(message);

    /* Wrong arguments: codes, not crashes. */
    uint32_t flags = 0;
    if (tl_engine_decide(NULL, "https://a.example/", "https://b.example/", NULL, TL_RESOURCE_IMAGE, NULL, &flags) != TL_ERROR_INVALID_ARGUMENT)
        fail("a NULL engine was accepted");
    if (tl_engine_decide(engine, NULL, "https://b.example/", NULL, TL_RESOURCE_IMAGE, NULL, &flags) != TL_ERROR_INVALID_ARGUMENT)
        fail("a NULL url was accepted");
    if (tl_engine_decide(engine, "https://a.example/", "https://b.example/", NULL, (tl_resource_type)99, NULL, &flags) != TL_ERROR_INVALID_ARGUMENT)
        fail("resource type 99 was accepted");
    if (tl_engine_decide(engine, "https://a.example/", "https://b.example/", NULL, TL_RESOURCE_IMAGE, "BREW", &flags) != TL_ERROR_INVALID_ARGUMENT)
        fail("method BREW was accepted");
    if (tl_engine_new_from_rule_lists(NULL, NULL, 1, &refused, NULL) != TL_ERROR_INVALID_ARGUMENT)
        fail("NULL lists were accepted");
    tl_engine_free(NULL);
    printf("ok: wrong arguments refused\n");

    /* The compiled form: written, read back, the same answers; a cut file refused. */
    uint8_t *compiled = NULL;
    size_t compiled_length = 0;
    if (tl_engine_compiled(engine, &compiled, &compiled_length) != TL_OK || compiled_length == 0) fail("tl_engine_compiled");
    tl_engine *loaded = NULL;
    if (tl_engine_new_from_compiled(compiled, compiled_length, &loaded, &error) != TL_OK) fail("the compiled form was refused");
    for (size_t i = 0; i < load_count; i++) {
        uint32_t again = 0;
        tl_engine_decide(loaded, loads[i].url, loads[i].top, loads[i].frame, (tl_resource_type)loads[i].type, NULL, &again);
        if (again != expected[i]) fail("the engine read back decides differently");
    }
    tl_engine *cut = NULL;
    message = NULL;
    if (tl_engine_new_from_compiled(compiled, compiled_length / 2, &cut, &message) != TL_ERROR_INVALID_INPUT || cut || !message)
        fail("a cut compiled file was accepted");
    printf("ok: compiled %zu bytes, read back; cut file refused: %s\n", compiled_length, message);
    tl_string_free(message);
    tl_bytes_free(compiled);

    /* Four threads at once, each with its own page cache inside the library. */
    pthread_t threads[4];
    thread_work work[4];
    for (int t = 0; t < 4; t++) {
        work[t].engine = loaded;
        work[t].mismatches = 0;
        pthread_create(&threads[t], NULL, decide_all, &work[t]);
    }
    int mismatches = 0;
    for (int t = 0; t < 4; t++) {
        pthread_join(threads[t], NULL);
        mismatches += work[t].mismatches;
    }
    if (mismatches) fail("threads got other answers");
    printf("ok: 4 threads, %zu loads each, 3 rounds: the same answers\n", load_count);

    tl_engine_free(loaded);
    tl_engine_free(engine);
    for (size_t i = 0; i < list_count; i++) free((void *)lists[i]);
    return 0;
}
