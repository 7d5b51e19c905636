/*
 * trackerless.h: the C API of Trackerless, for hosts that are not Swift (Kotlin through JNI, C#,
 * C++, Rust, Python). Link with the dynamic library of the `TrackerlessC` product
 * (libTrackerlessC.so on Linux, libTrackerlessC.dylib on Apple platforms).
 *
 * Conventions
 * - Every function that can fail returns a tl_status; TL_OK is 0. On failure, when `error` is not
 *   NULL, *error receives a message (UTF-8, NUL-terminated) that names the place (the list, the rule
 *   index, the JSON path, in WebKit's words where WebKit has them); free it with tl_string_free.
 *   On success *error is left untouched.
 * - Ownership: a handle the library returns (from a *_new function, or taken from a runtime or a
 *   set: tl_runtime_current_set, tl_protection_set_engine, ...) belongs to the caller, who frees it
 *   once with the matching *_free (NULL is accepted and ignored); it stays valid after the handle
 *   it was taken from is freed. Strings and byte buffers the library returns
 *   belong to the caller: tl_string_free, tl_bytes_free. Input pointers are only read during the
 *   call; the library keeps no pointer the caller passed.
 * - Threads: every handle but tl_inputs is safe to use from any thread, concurrently: engines,
 *   resolvers and protection sets are immutable once created; statistics and runtimes take their
 *   own locks (a runtime's update replaces its current set in one step). A tl_inputs is filled on
 *   one thread. *_free must not race with other calls on that handle.
 * - Strings passed in are UTF-8 and NUL-terminated unless a length is given.
 * - No Swift type crosses this boundary: handles are opaque pointers.
 */
#ifndef TRACKERLESS_H
#define TRACKERLESS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this API; a change that breaks a caller increments it. 3: the set identity is
 * "identity" in tl_protection_set_info_json and "setIdentity" in the navigation plan and the
 * update report (2 had "identifier" and "set"). */
#define TL_API_VERSION 3

/* The API version the library implements: compare with TL_API_VERSION. */
int32_t tl_api_version(void);

typedef enum tl_status {
    TL_OK = 0,
    /* A required pointer was NULL, a count or an enumeration value out of range. */
    TL_ERROR_INVALID_ARGUMENT = 1,
    /* The input bytes were refused (malformed JSON, an invalid rule, a damaged compiled file). */
    TL_ERROR_INVALID_INPUT = 2,
    /* A file of the cache directory (or of the site toggles) could not be written. */
    TL_ERROR_IO = 3,
    /* An input of an update could not be downloaded (no connection, a timeout, an HTTP status
     * other than 200 and 304, a cut body, a refused redirect): tl_updater_check. */
    TL_ERROR_NETWORK = 4
} tl_status;

/* Frees a string the library returned. */
void tl_string_free(char *string);
/* Frees a byte buffer the library returned. */
void tl_bytes_free(uint8_t *bytes);

/* ---- The rule engine: WebKit's content-blocker semantics, for request hooks ---------------- */

typedef struct tl_engine tl_engine;

/*
 * An engine from `count` WebKit content rule lists (JSON), in the order WebKit would apply them.
 * `lists[i]` holds `lengths[i]` bytes. Refused lists: TL_ERROR_INVALID_INPUT and WebKit's error
 * with the list and rule index ("list 1: rule 12: Invalid or unsupported regular expression.").
 */
tl_status tl_engine_new_from_rule_lists(const char *const *lists, const size_t *lengths, size_t count,
                                        tl_engine **engine, char **error);

/* An engine from the bytes tl_engine_compiled wrote: no JSON parsed. A damaged, cut or older file
 * is refused (TL_ERROR_INVALID_INPUT); compile the rule lists again then. */
tl_status tl_engine_new_from_compiled(const uint8_t *bytes, size_t length, tl_engine **engine, char **error);

/* The engine's compiled form (versioned, checksummed), to store and load at the next launch.
 * Free *bytes with tl_bytes_free. */
tl_status tl_engine_compiled(const tl_engine *engine, uint8_t **bytes, size_t *length);

void tl_engine_free(tl_engine *engine);

/* The kind of a load, as WebKit's loader assigns it. */
typedef enum tl_resource_type {
    TL_RESOURCE_TOP_DOCUMENT = 0,
    TL_RESOURCE_CHILD_DOCUMENT = 1,
    TL_RESOURCE_IMAGE = 2,
    TL_RESOURCE_STYLE_SHEET = 3,
    TL_RESOURCE_SCRIPT = 4,
    TL_RESOURCE_FONT = 5,
    TL_RESOURCE_SVG_DOCUMENT = 6,
    TL_RESOURCE_MEDIA = 7,
    TL_RESOURCE_POPUP = 8,
    TL_RESOURCE_PING = 9,
    TL_RESOURCE_FETCH = 10,
    TL_RESOURCE_WEBSOCKET = 11,
    TL_RESOURCE_CSP_REPORT = 12,
    TL_RESOURCE_OTHER = 13
} tl_resource_type;

/* Bits of a decision's flags. */
enum {
    /* WebKit checks the load at all (not invalid or data: URLs). */
    TL_DECISION_CHECKED = 1u << 0,
    /* A list blocks the load: cancel it. */
    TL_DECISION_BLOCKED = 1u << 1,
    /* A list strips its cookies (Cookie and Set-Cookie headers). */
    TL_DECISION_BLOCKS_COOKIES = 1u << 2,
    /* A make-https action applies: load the https: URL instead. */
    TL_DECISION_UPGRADES_TO_HTTPS = 1u << 3,
    /* A list hides elements for this load (css-display-none). */
    TL_DECISION_HIDES_ELEMENTS = 1u << 4
};

/*
 * What the engine decides for one load: *flags receives TL_DECISION_* bits.
 * - url: the URL loaded; top_url: the main document's URL.
 * - frame_url: the document of the frame that issues the load; NULL for the main frame.
 * - method: the document request's HTTP method; NULL for GET.
 * Safe from any thread; allocates nothing for nearly every load.
 */
tl_status tl_engine_decide(const tl_engine *engine, const char *url, const char *top_url, const char *frame_url,
                           tl_resource_type type, const char *method, uint32_t *flags);

/*
 * tl_engine_decide, and for a blocked load the rule that blocks it: *list the index of its rule
 * list (in the order the engine was given them), *rule its index in that list's JSON array, as
 * tl_engine_actions_json names the "block" action (of several lists that block, the first);
 * both -1 when the load is not blocked. Naming the rule costs a second, slower evaluation for a
 * blocked load only: call tl_engine_decide when nobody asks why.
 */
tl_status tl_engine_decide_rule(const tl_engine *engine, const char *url, const char *top_url, const char *frame_url,
                                tl_resource_type type, const char *method, uint32_t *flags, int64_t *list, int64_t *rule);

/*
 * Every action applied to the load, in application order, each naming the rule that put it there,
 * as JSON: {"blocked": bool, "actions": [{"type": "block", "list": 0, "rule": 12},
 * {"type": "css-display-none", "selector": "...", "list": 1, "rule": 3}, ...]}. "list" is the
 * index of the rule list (in the order the engine was given them), "rule" the index of the rule
 * in that list's JSON array; of several matched rules that yield the same action, the first.
 * Naming the rules costs a slower evaluation than tl_engine_decide's. Free *json with
 * tl_string_free.
 */
tl_status tl_engine_actions_json(const tl_engine *engine, const char *url, const char *top_url, const char *frame_url,
                                 tl_resource_type type, const char *method, char **json);

/* ---- The tracker resolver: what the request is, and why ------------------------------------ */

typedef struct tl_resolver tl_resolver;

/*
 * A resolver from tds.json (required) and, when not NULL, the privacy configuration, the user
 * allowlist (a JSON array of sites) and the surrogates (surrogates.txt format; NULL: the bundled
 * ones, which the rendered scripts carry). Refused input: TL_ERROR_INVALID_INPUT with the file
 * and the JSON path ("tds.json: trackers: expected an object, found an array"); a part of the
 * tds that the resolver can do without (a tracker's unusable rule) is skipped, as the SDK does.
 */
tl_status tl_resolver_new(const char *tds, size_t tds_length, const char *privacy_config, size_t privacy_config_length,
                          const char *user_allowlist, size_t user_allowlist_length, const char *surrogates,
                          size_t surrogates_length, tl_resolver **resolver, char **error);

/*
 * The classification of a request made on the page at top_url (the top page, as in the address
 * bar) as JSON, in the words of DuckDuckGo's reference tests: {"action": "block" | "ignore" |
 * "redirect" | null, "surrogate"?, "reason", "tracker"?, "entity"?, "decidedBy"?} (action null:
 * not a tracker). "decidedBy" is the input entry that
 * decided, present unless the reason is "no match": {"kind": ..., ...} where kind is
 * "trackerRule" (tds.json trackers[tracker].rules[index]: "tracker", "index", "rule", and as
 * present "action", "surrogate", "options", "exceptions"), "trackerDefault" ("tracker",
 * "default"), "trackerAllowlist" or "requestBlocklist" (the privacy configuration's entry key
 * "tracker" or "domain", "index", "rule", "domains", "reason"?), "featureNotEnabled" ("feature",
 * "state"), "unprotectedTemporary" ("index", "domain"), "featureException" ("feature", "index",
 * "domain"), "userAllowlist" ("domain"), "sameEntity" ("entity"), "sameSite"
 * ("registrableDomain") or "mainFrame". `type` is a Tracker Radar (webRequest) type: "script",
 * "image", "xmlhttprequest", "subdocument", ... An invalid URL: TL_ERROR_INVALID_INPUT.
 * Free *json with tl_string_free. Safe from any thread.
 */
tl_status tl_resolver_classify(const tl_resolver *resolver, const char *request_url, const char *top_url, const char *type,
                               char **json, char **error);

void tl_resolver_free(tl_resolver *resolver);

/* ---- The scripts: the blocking and inference scripts, rendered --------------------------- */

/*
 * Renders both scripts from tds.json and, when not NULL, the privacy configuration, with a fresh
 * secret. `bridge` is how the scripts post their messages: "webkit", "android" (a JavaScript
 * interface taking a JSON string), "webview2" (chrome.webview.postMessage) or "none".
 * `block_in_script` nonzero: the blocking script also stops the loads page script starts (for
 * hosts without a content blocker; the request hook must still decide the rest).
 * *json receives {"blocking": source, "inference": source, "secret": hex, "handler": name,
 * "warnings": [...]}: inject "blocking" in the page world and "inference" in an isolated world
 * at document start in every frame, and pass "secret" to tl_stats_new. Free with tl_string_free.
 */
tl_status tl_scripts_render(const char *tds, size_t tds_length, const char *privacy_config, size_t privacy_config_length,
                            const char *bridge, int block_in_script, char **json, char **error);

/* ---- The statistics: what the page loaded, for the privacy dashboard ---------------------- */

typedef struct tl_stats tl_stats;

/*
 * Statistics that classify requests with `resolver` (the caller keeps ownership of it; free the
 * statistics first) and accept only messages carrying `secret` (the hex string of
 * tl_scripts_render). Totals are kept in memory. Every tl_stats_* call is safe from any thread.
 */
tl_status tl_stats_new(const tl_resolver *resolver, const char *secret, tl_stats **stats, char **error);

/* A main-frame navigation committed in `tab` (any string naming the host's tab): a new page. */
tl_status tl_stats_commit_navigation(tl_stats *stats, const char *tab, const char *url);

/*
 * One message the scripts posted, as its JSON bytes. TL_OK: accepted. TL_ERROR_INVALID_INPUT:
 * rejected (forged, malformed, too large, for another page...), *rejection names the reason when
 * not NULL. A page cannot crash the host with a message.
 */
tl_status tl_stats_receive(tl_stats *stats, const char *tab, const char *message, size_t length, char **rejection);

/*
 * A load the host saw natively (a request hook): `type` a Tracker Radar type or NULL,
 * `blocked` nonzero when the host cancelled it. Counted once with what the scripts report of the
 * same request. TL_ERROR_INVALID_INPUT when the tab has no page yet.
 */
tl_status tl_stats_observe(tl_stats *stats, const char *tab, const char *url, const char *type, int blocked);

/*
 * tl_stats_observe for a load the host decided with the rule engine: `list` and `rule` name the
 * engine's rule that decided it (tl_engine_decide_rule; -1: none), `source` (NULL when unknown)
 * the JSON of the input that rule was built from (an element of the sources trackerless rules
 * --sources writes). The snapshot lists them per host under "engineRules": [{"list", "rule",
 * "source"?}]. A `source` that is not JSON: TL_ERROR_INVALID_INPUT, nothing recorded.
 */
tl_status tl_stats_observe_rule(tl_stats *stats, const char *tab, const char *url, const char *type, int blocked,
                                int64_t list, int64_t rule, const char *source);

/* The tab's dashboard snapshot as JSON (the schema of `trackerless stats`). Free with tl_string_free. */
tl_status tl_stats_snapshot(tl_stats *stats, const char *tab, char **json);

/* The totals over time as JSON (the schema of `trackerless stats --store`'s totals): for a
 * runtime's statistics, those in its cache directory plus everything counted since, saved or not.
 * Free with tl_string_free. */
tl_status tl_stats_totals(tl_stats *stats, char **json);

void tl_stats_free(tl_stats *stats);

/* ---- The protection set: every artifact of one generation, and its runtime --------------- */

/*
 * The inputs of a protection set, set one by one: each document from a file or from bytes the
 * host holds (a download, an asset). A tl_inputs is not thread safe: fill it on one thread, then
 * pass it (const) to any number of calls; they copy what they need.
 */
typedef struct tl_inputs tl_inputs;

typedef enum tl_input_kind {
    /* tds.json, the Tracker Radar blocklist: required. */
    TL_INPUT_TDS = 0,
    /* DuckDuckGo's privacy configuration; absent: tracker blocking everywhere. */
    TL_INPUT_PRIVACY_CONFIG = 1,
    /* The user allowlist, a JSON array of hosts where protection is off in every artifact. */
    TL_INPUT_USER_ALLOWLIST = 2,
    /* The surrogates (surrogates.txt format); absent: the bundled ones. */
    TL_INPUT_SURROGATES = 3
} tl_input_kind;

/* Empty inputs; NULL only when out of memory. Free with tl_inputs_free. */
tl_inputs *tl_inputs_new(void);
/* The document `kind` from the file at `path`, read when a set is made (NULL: absent). Errors
 * name the path. */
tl_status tl_inputs_set_file(tl_inputs *inputs, tl_input_kind kind, const char *path);
/* The document `kind` from `length` bytes, copied now (bytes NULL: absent). Errors name them
 * `name` (NULL: the input's name, "tds", "privacy configuration", ...). */
tl_status tl_inputs_set_bytes(tl_inputs *inputs, tl_input_kind kind, const char *bytes, size_t length, const char *name);
/* The scripts' settings: `bridge` as in tl_scripts_render (NULL: "webkit"), the message handler
 * or injected object's name (NULL: "trackerless"), blocking in script. These three only: Global
 * Privacy Control keeps its setting. A bad bridge or handler name: TL_ERROR_INVALID_ARGUMENT, the
 * settings unchanged. */
tl_status tl_inputs_set_scripts(tl_inputs *inputs, const char *bridge, const char *handler, int block_in_script,
                                char **error);
/* The WebKit that will run the rule lists, by name: "safari-15" ... "safari-26", "webkitgtk-2.44"
 * ... "webkitgtk-2.54" (a release between two named ones is the earlier: "webkitgtk-2.48"),
 * "wpe-2.N" the same, "newest" (NULL: "safari-15", the oldest supported, whose lists every
 * supported WebKit compiles). The lists use only what that WebKit knows, with the resolver's
 * meaning as it evaluates them; a set made for another target has another identity. A host on
 * WebKitGTK passes "webkitgtk-" with webkit_get_major_version() and webkit_get_minor_version().
 * An unknown name: TL_ERROR_INVALID_ARGUMENT naming it, the target unchanged. */
tl_status tl_inputs_set_webkit(tl_inputs *inputs, const char *target, char **error);
/* The user's Global Privacy Control setting (on by default): the scripts'
 * `navigator.globalPrivacyControl` and the navigation decisions' `Sec-GPC` follow it. */
tl_status tl_inputs_set_global_privacy_control(tl_inputs *inputs, int enabled);
/* Unload beacons decided in the blocking script (off by default): `navigator.sendBeacon` and
 * `fetch(..., {keepalive: true})` to a tracker the resolver blocks are stopped in the page, so
 * that those a page sends while it is left for a site whose protection is off (its rule lists
 * already gone) reach no network, and those a request hook never sees (WebKitGTK's send-request)
 * are decided. The blocking script then carries every tracker (apple-tds: about 0.7 MB instead of
 * 0.2 MB; see BENCHMARKS.md for its page-load cost). Kept by tl_inputs_set_scripts. */
tl_status tl_inputs_set_block_keepalive(tl_inputs *inputs, int enabled);
void tl_inputs_free(tl_inputs *inputs);

/*
 * One immutable generation of protection: the rule lists, both scripts with their secret, the
 * compiled engine and the resolver, all made from the same inputs, so a host that takes
 * everything from one set never mixes generations. Every tl_protection_set_* call is safe from
 * any thread. Handles taken from a set (engine, resolver) stay valid after the set is freed.
 */
typedef struct tl_protection_set tl_protection_set;

/* A set built from `inputs` now, without a cache (a runtime loads or builds with one). Refused
 * input: TL_ERROR_INVALID_INPUT, the message naming the input, the file and the place
 * ("tds: tds.json: trackers: expected an object, found an array"). */
tl_status tl_protection_set_build(const tl_inputs *inputs, tl_protection_set **set, char **error);

/* {"identity": the set identity, 64 hex digits (equal identities: equal artifacts), "origin":
 * "built" | "cache", "ruleLists": [{"identifier": the name to compile and look the list up under
 * in the content filter store, "kind": "blocking" | "clickToLoad" | "cookies",
 * "clickToLoadAction": string | null, "ruleCount"}], "notes": [...]}. Free with tl_string_free. */
tl_status tl_protection_set_info_json(const tl_protection_set *set, char **json);

/* The rule lists to install in a WebKit content blocker, in order: a JSON array of the objects of
 * "ruleLists" above, each with "rules", the list itself (WebKit content-blocker JSON). Compile a
 * list under its identifier only when the store lacks it. Free with tl_string_free. */
tl_status tl_protection_set_rule_lists_json(const tl_protection_set *set, char **json);

/* The scripts: {"blocking": source (page world), "inference": source (the isolated world),
 * "isolatedWorld": name, "secret": hex, "handler": name}; inject both at document start in every
 * frame. Free with tl_string_free. */
tl_status tl_protection_set_scripts_json(const tl_protection_set *set, char **json);

/* The set's blocking lists compiled, for tl_engine_decide; free *engine with tl_engine_free. */
tl_status tl_protection_set_engine(const tl_protection_set *set, tl_engine **engine);

/* The set's resolver, for tl_resolver_classify; free *resolver with tl_resolver_free. A set
 * loaded from the cache parses its blocklist on the first call, which may then take a while. */
tl_status tl_protection_set_resolver(const tl_protection_set *set, tl_resolver **resolver);

/* What rule `rule` of the set's engine list `list` was built from (tl_engine_decide_rule names
 * them), as JSON: {"kind", "name", "path", "tracker"?, "part"?, "index"?, "rule"?}, as trackerless
 * rules --sources writes it; pass it to tl_stats_observe_rule. *json is NULL when the set knows no
 * source for that rule (out of range; a cached set whose sources file went missing or is
 * damaged). A set from the cache reads its sources file on the first call. Free with tl_string_free. */
tl_status tl_protection_set_rule_source(const tl_protection_set *set, int64_t list, int64_t rule, char **json);

void tl_protection_set_free(tl_protection_set *set);

/*
 * What a host embeds: the current protection set, loaded from `cache_directory` when it holds
 * the set of these inputs (no rule list built, no JSON of the rules parsed), else built and
 * written there; its updates; the sites where the user turned protection off (saved in the
 * cache directory); and the statistics of the host's tabs (totals kept in the cache directory).
 * Every tl_runtime_* call is safe from any thread; updates and toggles apply one at a time, and
 * a reader sees one whole set, never parts of two. tl_runtime_free must not race with other calls.
 */
typedef struct tl_runtime tl_runtime;

/* Errors: TL_ERROR_INVALID_INPUT naming the input and the place, TL_ERROR_IO for a cache
 * directory that cannot be created, or that another runtime (of this or another process) still
 * uses: one runtime per cache directory at a time, refused before anything is read or written. A
 * cache that cannot be written (a full or read-only disk) does not stop the runtime: see
 * tl_runtime_storage_error. Call it off the UI thread: a
 * build without a cache takes hundreds of milliseconds on a full blocklist. */
tl_status tl_runtime_new(const tl_inputs *inputs, const char *cache_directory, tl_runtime **runtime, char **error);

/* The set in force now; free *set with tl_protection_set_free. */
tl_status tl_runtime_current_set(const tl_runtime *runtime, tl_protection_set **set);

/*
 * Replaces every input: reads, parses, builds and checks the new set on the calling thread (call
 * it off the UI thread) and makes it current only when all of it is valid. On success, *set (when
 * `set` is not NULL) receives the new set. On failure the current set stays, and *error names the
 * input and the place ("tds: tds.json: ..."). Engines and sets taken before keep
 * working: take the new set's engine for the next page.
 */
tl_status tl_runtime_update(tl_runtime *runtime, const tl_inputs *inputs, tl_protection_set **set, char **error);

/* Turns protection on (enabled nonzero) or off for the site `host` (a host name or IP address,
 * "www.example.com", not a URL; with or without "www." it is one site, as DuckDuckGo's toggle)
 * from its next navigation, and saves it.
 * TL_ERROR_INVALID_INPUT when `host` is not a host; TL_ERROR_IO when it cannot be saved; nothing
 * changes then. */
tl_status tl_runtime_set_site_protection(tl_runtime *runtime, const char *host, int enabled, char **error);

/* *enabled receives 1 when protection is on for pages of `host`, 0 when it is off. */
tl_status tl_runtime_site_protection(const tl_runtime *runtime, const char *host, int *enabled);

/*
 * What a navigation to `url` gets: {"protected": bool, "setIdentity": the set identity,
 * "ruleLists": [rule list identifiers], "scripts": ["blocking.js", "inference.js"]}. A page whose
 * site has protection off gets no rule list and only the inference script: a host with a request
 * hook then decides none of the page's loads with the engine. Free with tl_string_free.
 */
tl_status tl_runtime_navigation_json(const tl_runtime *runtime, const char *url, char **json);

/* The runtime's statistics, classified with the current set's resolver (the toggled sites as
 * "user allowlist"), accepting the runtime's secret (tl_protection_set_scripts_json's "secret");
 * use it with tl_stats_*, free the handle with tl_stats_free. Their totals are saved in the cache
 * directory soon after each page ends and within 30 seconds of any count. The handle outlives the
 * runtime: after tl_runtime_free it counts in memory only, and a new runtime can open the cache. */
tl_status tl_runtime_stats(const tl_runtime *runtime, tl_stats **stats);

/* Saves the statistics' totals now, durably: call it when the host goes to the background or
 * quits. TL_ERROR_IO when they cannot be written (a full disk, a store that could not be opened);
 * the counts stay in memory and are retried. */
tl_status tl_runtime_save_stats(tl_runtime *runtime, char **error);

/* *message receives what the runtime could not do with its cache directory and went on without
 * (the cache not written, the totals not saved, the site toggles unreadable: toggled sites are
 * protected again), free it with tl_string_free; NULL when nothing failed. Protection is never
 * off because of it. */
tl_status tl_runtime_storage_error(const tl_runtime *runtime, char **message);

/* Saves the statistics' last counts and lets go of the cache directory. */
void tl_runtime_free(tl_runtime *runtime);

/* ---- Updates from URLs: conditional downloads, every input valid or nothing changes --------- */

/*
 * Keeps a runtime current from the URLs of its blocklist and, optionally, its privacy
 * configuration, with the rules of DuckDuckGo's apps and more: each request conditional on the
 * ETag and Last-Modified kept in `<cache_directory>/downloads`; every input downloaded, within the
 * policy's timeout and size cap (a larger body is refused while it is read), its pinned SHA-256
 * checked when given and decoded (a blocklist must list trackers) before anything changes; one
 * input failing refuses the whole update (nothing changes: the set, the kept copies, their
 * validators); nothing rebuilt when nothing is new (304, or the same bytes again). Transient
 * failures (no connection, a timeout, a cut body, HTTP 408, 429, 5xx) are tried again after a
 * delay that doubles. Redirects are followed up to the policy's limit, to another origin unless
 * the policy says otherwise, never from https to http. A host with its own networking hands the
 * runtime bytes with tl_runtime_update instead. One updater per runtime; every call is safe from
 * any thread, checks run one at a time; tl_updater_free must not race with other calls.
 */
typedef struct tl_updater tl_updater;

/*
 * An updater of `runtime` (which it keeps alive) from `tds_url` (required) and `config_url`
 * (NULL: the runtime keeps its own configuration); `tds_sha256` / `config_sha256` (64 hex digits,
 * or NULL) pin the body each must have. `policy_json` (NULL: the defaults) is an object with any
 * of: "interval" (seconds between checks, 1800), "retryInterval" (after a refused check, 3600),
 * "attempts" (3), "retryDelay" (seconds before the second try, 2), "timeout" (seconds one try may
 * take, 300), "maxBytes" (33554432), "maxRedirects" (5), "allowsCrossOriginRedirects" (true).
 * TL_ERROR_INVALID_ARGUMENT names what cannot be used (a URL that is not http or https, a digest,
 * a setting). No check runs yet.
 */
tl_status tl_updater_new(tl_runtime *runtime, const char *tds_url, const char *tds_sha256, const char *config_url,
                         const char *config_sha256, const char *policy_json, tl_updater **updater, char **error);

/*
 * Checks the URLs now and applies what is new, blocking the calling thread (the downloads and, on
 * an update, the build). *report_json (when report_json is not NULL; free with tl_string_free)
 * receives the report whatever the outcome:
 *   {"outcome": "updated" | "unchanged" | "refused", "setIdentity": "<identity of the set in force>",
 *    "nextCheckIn": <seconds, by the policy>, "error": {"input", "url", "status", "reason", "message"},
 *    "storageError": {...}, "inputs": [{"input": "tds", "url", "finalURL", "status": 200,
 *    "result": "downloaded" | "not modified" | "failed", "bytes", "sha256", "attempts", "error"}]}
 * TL_OK when updated or unchanged. Refused: TL_ERROR_NETWORK (not downloaded),
 * TL_ERROR_INVALID_INPUT (a body refused: not JSON, no trackers, too large, not the pinned one,
 * or the set built from it refused), TL_ERROR_IO (the downloads could not be kept), with *error
 * naming the input, the URL, the HTTP status and why.
 */
tl_status tl_updater_check(tl_updater *updater, char **report_json, char **error);

/*
 * Runs checks by the policy until tl_updater_stop: the first when due (at once, unless a check
 * of an earlier run found the URLs valid within the interval), then every "interval", or
 * "retryInterval" after a refused one. `on_report` (may be NULL) receives each report as JSON, on
 * a background thread; the string is valid during the call. A tl_updater_check in between counts.
 */
tl_status tl_updater_start(tl_updater *updater, void (*on_report)(const char *report_json, void *context), void *context);

/* Stops the schedule and the check in progress (refused, "cancelled"; nothing changes). */
tl_status tl_updater_stop(tl_updater *updater);

/* Stops the updater and frees it; its runtime stays with its other owners. */
void tl_updater_free(tl_updater *updater);

/*
 * tl_runtime_new with the copies an updater of the same URLs kept in `cache_directory` when they
 * are whole and make a valid set, else with `inputs` (the host's embedded copies); kept copies
 * that make no set are forgotten, so the next check downloads unconditionally.
 */
tl_status tl_runtime_new_from_downloads(const tl_inputs *inputs, const char *cache_directory, const char *tds_url,
                                        const char *tds_sha256, const char *config_url, const char *config_sha256,
                                        tl_runtime **runtime, char **error);

#ifdef __cplusplus
}
#endif

#endif /* TRACKERLESS_H */
