/*
 * trackerless_jni.c: the JNI glue between Kotlin (org.trackerless.TrackerlessNative) and the
 * Trackerless C API (trackerless.h). Build it with the NDK into libtrackerless_jni.so, linked
 * with libTrackerlessC.so. Handles cross as jlong; every failure becomes an
 * IllegalStateException carrying the library's message (which names the input and the place).
 *
 * Strings: GetStringUTFChars gives modified UTF-8, which differs from UTF-8 only for U+0000 and
 * characters outside the BMP; URLs as WebView hands them over are ASCII (percent-encoded).
 */
#include <jni.h>
#include <stdint.h>
#include <string.h>

#include "trackerless.h"

#define JNI_NAME(name) Java_org_trackerless_TrackerlessNative_##name

/* Throws IllegalStateException(message) and frees the message. */
static void throw_error(JNIEnv *env, char *message, const char *fallback) {
    jclass type = (*env)->FindClass(env, "java/lang/IllegalStateException");
    if (type) (*env)->ThrowNew(env, type, message ? message : fallback);
    tl_string_free(message);
}

/* A Java string as a C string for the call (NULL for null); release with release_utf. */
static const char *utf(JNIEnv *env, jstring string) {
    return string ? (*env)->GetStringUTFChars(env, string, NULL) : NULL;
}

static void release_utf(JNIEnv *env, jstring string, const char *chars) {
    if (string && chars) (*env)->ReleaseStringUTFChars(env, string, chars);
}

/* A string the library returned, as a Java string; the library's copy freed. */
static jstring java_string(JNIEnv *env, char *string) {
    jstring result = string ? (*env)->NewStringUTF(env, string) : NULL;
    tl_string_free(string);
    return result;
}

/* Inputs of a runtime: tds and privacy configuration from files, the scripts for `bridge`. */
static tl_inputs *make_inputs(JNIEnv *env, jstring tds_path, jstring config_path, jstring bridge, jstring handler) {
    tl_inputs *inputs = tl_inputs_new();
    const char *tds = utf(env, tds_path), *config = utf(env, config_path);
    const char *bridge_name = utf(env, bridge), *handler_name = utf(env, handler);
    char *error = NULL;
    tl_inputs_set_file(inputs, TL_INPUT_TDS, tds);
    tl_inputs_set_file(inputs, TL_INPUT_PRIVACY_CONFIG, config);
    tl_status status = tl_inputs_set_scripts(inputs, bridge_name, handler_name, 1, &error);
    release_utf(env, tds_path, tds);
    release_utf(env, config_path, config);
    release_utf(env, bridge, bridge_name);
    release_utf(env, handler, handler_name);
    if (status != TL_OK) {
        tl_inputs_free(inputs);
        throw_error(env, error, "tl_inputs_set_scripts failed");
        return NULL;
    }
    return inputs;
}

/* long runtimeNew(String tdsPath, String privacyConfigPath, String cacheDirectory, String bridge, String handler) */
JNIEXPORT jlong JNICALL JNI_NAME(runtimeNew)(JNIEnv *env, jclass type, jstring tds_path, jstring config_path,
                                             jstring cache_directory, jstring bridge, jstring handler) {
    (void)type;
    tl_inputs *inputs = make_inputs(env, tds_path, config_path, bridge, handler);
    if (!inputs) return 0;
    const char *cache = utf(env, cache_directory);
    tl_runtime *runtime = NULL;
    char *error = NULL;
    tl_status status = tl_runtime_new(inputs, cache, &runtime, &error);
    release_utf(env, cache_directory, cache);
    tl_inputs_free(inputs);
    if (status != TL_OK) {
        throw_error(env, error, "tl_runtime_new failed");
        return 0;
    }
    return (jlong)(intptr_t)runtime;
}

/* void runtimeUpdate(long runtime, String tdsPath, String privacyConfigPath, String bridge, String handler) */
JNIEXPORT void JNICALL JNI_NAME(runtimeUpdate)(JNIEnv *env, jclass type, jlong runtime, jstring tds_path, jstring config_path,
                                               jstring bridge, jstring handler) {
    (void)type;
    tl_inputs *inputs = make_inputs(env, tds_path, config_path, bridge, handler);
    if (!inputs) return;
    char *error = NULL;
    tl_status status = tl_runtime_update((tl_runtime *)(intptr_t)runtime, inputs, NULL, &error);
    tl_inputs_free(inputs);
    if (status != TL_OK) throw_error(env, error, "tl_runtime_update failed");
}

/* long runtimeEngine(long runtime): the current set's engine; free it with engineFree. */
JNIEXPORT jlong JNICALL JNI_NAME(runtimeEngine)(JNIEnv *env, jclass type, jlong runtime) {
    (void)type;
    tl_protection_set *set = NULL;
    tl_engine *engine = NULL;
    if (tl_runtime_current_set((const tl_runtime *)(intptr_t)runtime, &set) != TL_OK
        || tl_protection_set_engine(set, &engine) != TL_OK) {
        tl_protection_set_free(set);
        throw_error(env, NULL, "no current protection set");
        return 0;
    }
    tl_protection_set_free(set);
    return (jlong)(intptr_t)engine;
}

/* String runtimeScripts(long runtime): {"blocking", "inference", "secret", "handler", ...}. */
JNIEXPORT jstring JNICALL JNI_NAME(runtimeScripts)(JNIEnv *env, jclass type, jlong runtime) {
    (void)type;
    tl_protection_set *set = NULL;
    char *json = NULL;
    if (tl_runtime_current_set((const tl_runtime *)(intptr_t)runtime, &set) == TL_OK) tl_protection_set_scripts_json(set, &json);
    tl_protection_set_free(set);
    if (!json) throw_error(env, NULL, "no current protection set");
    return java_string(env, json);
}

/* String runtimeNavigation(long runtime, String url): {"protected": bool, ...}. */
JNIEXPORT jstring JNICALL JNI_NAME(runtimeNavigation)(JNIEnv *env, jclass type, jlong runtime, jstring url) {
    (void)type;
    const char *chars = utf(env, url);
    char *json = NULL;
    tl_runtime_navigation_json((const tl_runtime *)(intptr_t)runtime, chars, &json);
    release_utf(env, url, chars);
    return java_string(env, json);
}

/* void runtimeSetSiteProtection(long runtime, String host, boolean enabled) */
JNIEXPORT void JNICALL JNI_NAME(runtimeSetSiteProtection)(JNIEnv *env, jclass type, jlong runtime, jstring host, jboolean enabled) {
    (void)type;
    const char *chars = utf(env, host);
    char *error = NULL;
    tl_status status = tl_runtime_set_site_protection((tl_runtime *)(intptr_t)runtime, chars, enabled ? 1 : 0, &error);
    release_utf(env, host, chars);
    if (status != TL_OK) throw_error(env, error, "tl_runtime_set_site_protection failed");
}

/* long runtimeStats(long runtime): the runtime's statistics; free with statsFree. */
JNIEXPORT jlong JNICALL JNI_NAME(runtimeStats)(JNIEnv *env, jclass type, jlong runtime) {
    (void)env;
    (void)type;
    tl_stats *stats = NULL;
    tl_runtime_stats((const tl_runtime *)(intptr_t)runtime, &stats);
    return (jlong)(intptr_t)stats;
}

JNIEXPORT void JNICALL JNI_NAME(runtimeFree)(JNIEnv *env, jclass type, jlong runtime) {
    (void)env;
    (void)type;
    tl_runtime_free((tl_runtime *)(intptr_t)runtime);
}

/* int decide(long engine, String url, String topUrl, String frameUrl, int resourceType, String method):
 * the TL_DECISION_* bits, or -1 for a refused argument. */
JNIEXPORT jint JNICALL JNI_NAME(decide)(JNIEnv *env, jclass type, jlong engine, jstring url, jstring top_url, jstring frame_url,
                                        jint resource_type, jstring method) {
    (void)type;
    const char *url_chars = utf(env, url), *top = utf(env, top_url), *frame = utf(env, frame_url), *verb = utf(env, method);
    uint32_t flags = 0;
    tl_status status = tl_engine_decide((const tl_engine *)(intptr_t)engine, url_chars, top, frame,
                                        (tl_resource_type)resource_type, verb, &flags);
    release_utf(env, url, url_chars);
    release_utf(env, top_url, top);
    release_utf(env, frame_url, frame);
    release_utf(env, method, verb);
    return status == TL_OK ? (jint)flags : -1;
}

JNIEXPORT void JNICALL JNI_NAME(engineFree)(JNIEnv *env, jclass type, jlong engine) {
    (void)env;
    (void)type;
    tl_engine_free((tl_engine *)(intptr_t)engine);
}

/* void statsCommitNavigation(long stats, String tab, String url): a main-frame navigation committed. */
JNIEXPORT void JNICALL JNI_NAME(statsCommitNavigation)(JNIEnv *env, jclass type, jlong stats, jstring tab, jstring url) {
    (void)type;
    const char *tab_chars = utf(env, tab), *url_chars = utf(env, url);
    tl_stats_commit_navigation((tl_stats *)(intptr_t)stats, tab_chars, url_chars);
    release_utf(env, tab, tab_chars);
    release_utf(env, url, url_chars);
}

/* boolean statsReceive(long stats, String tab, String message): the scripts' message, accepted or not. */
JNIEXPORT jboolean JNICALL JNI_NAME(statsReceive)(JNIEnv *env, jclass type, jlong stats, jstring tab, jstring message) {
    (void)type;
    const char *tab_chars = utf(env, tab), *text = utf(env, message);
    tl_status status = text ? tl_stats_receive((tl_stats *)(intptr_t)stats, tab_chars, text, strlen(text), NULL) : TL_ERROR_INVALID_ARGUMENT;
    release_utf(env, tab, tab_chars);
    release_utf(env, message, text);
    return status == TL_OK ? JNI_TRUE : JNI_FALSE;
}

/* void statsObserve(long stats, String tab, String url, String trackerRadarType, boolean blocked) */
JNIEXPORT void JNICALL JNI_NAME(statsObserve)(JNIEnv *env, jclass type, jlong stats, jstring tab, jstring url, jstring request_type,
                                              jboolean blocked) {
    (void)type;
    const char *tab_chars = utf(env, tab), *url_chars = utf(env, url), *type_chars = utf(env, request_type);
    tl_stats_observe((tl_stats *)(intptr_t)stats, tab_chars, url_chars, type_chars, blocked ? 1 : 0);
    release_utf(env, tab, tab_chars);
    release_utf(env, url, url_chars);
    release_utf(env, request_type, type_chars);
}

/* String statsSnapshot(long stats, String tab): the tab's dashboard as JSON. */
JNIEXPORT jstring JNICALL JNI_NAME(statsSnapshot)(JNIEnv *env, jclass type, jlong stats, jstring tab) {
    (void)type;
    const char *tab_chars = utf(env, tab);
    char *json = NULL;
    tl_stats_snapshot((tl_stats *)(intptr_t)stats, tab_chars, &json);
    release_utf(env, tab, tab_chars);
    return java_string(env, json);
}

JNIEXPORT void JNICALL JNI_NAME(statsFree)(JNIEnv *env, jclass type, jlong stats) {
    (void)env;
    (void)type;
    tl_stats_free((tl_stats *)(intptr_t)stats);
}
